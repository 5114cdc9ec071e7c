"""The structured perceptron's training and decoding, without scikit-learn.

:class:`~perceptrons.SequencePerceptron` is this model with scikit-learn's estimator interface
(input validation, tags, ``score``); :class:`~perceptrons.Tagger` trains this one directly on the
matrices its feature maps build, so that training and tagging never import scikit-learn
(``sklearn.base`` alone takes over a second to import).  See ``SequencePerceptron`` for the model,
the parameters and the references.
"""

from __future__ import annotations

import time
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import overflow_error
from perceptrons._core.labels import sorted_labels
from perceptrons._core.operands import is_binary, operand_values, to_operand
from perceptrons._core.params import CALLBACK, RANDOM_STATE, Interval, Kind, Options, check_param, validate_params
from perceptrons._core.readonly import writable
from perceptrons.structured._operands import (
    check_tables,
    dev_operands,
    edge_operand,
    none_if_empty,
    sequence_offsets,
)
from perceptrons.structured._params import ParamsMixin
from perceptrons.structured._sequence_decoding import DecodingMixin
from perceptrons.structured._sequence_weights import RunningWeights
from perceptrons.structured.decoders import DECODERS, decoder_code

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Literal

    import scipy.sparse as sp
    from numpy.typing import ArrayLike


class SequenceModel(RunningWeights, DecodingMixin, ParamsMixin):
    """Collins' structured perceptron: training, decoding and state (see ``SequencePerceptron``).

    Inputs are checked for shape and consistency only (sparse CSR, one row per token); the
    scikit-learn-facing :class:`~perceptrons.SequencePerceptron` validates them fully.
    """

    #: make the final weights at the end of a fit.  The tagger's model does not: the tagger
    #: prunes and casts them as they are made (:meth:`compact_single_precision`); an estimator
    #: makes them, since scikit-learn's estimators do not change when they predict
    _FINAL_AFTER_FIT = False

    _parameter_constraints = {
        "decoder": (Options(*DECODERS),),
        "max_epochs": (Interval(Integral, 1, None),),
        "averaged": (Kind(bool, "a bool"),),
        "shuffle": (Kind(bool, "a bool"),),
        "patience": (None, Interval(Integral, 1, None)),
        "markov_order": (Options(1, 2),),
        "random_state": RANDOM_STATE,
    }

    def __init__(
        self,
        *,
        decoder: Literal["viterbi", "greedy"] = "viterbi",
        max_epochs: int = 10,
        averaged: bool = True,
        shuffle: bool = False,
        patience: int | None = None,
        markov_order: Literal[1, 2] = 1,
        random_state: int | np.random.RandomState | None = None,
    ) -> None:
        self.decoder = decoder
        self.markov_order = markov_order
        self.max_epochs = max_epochs
        self.averaged = averaged
        self.shuffle = shuffle
        self.patience = patience
        self.random_state = random_state

    # ------------------------------------------------------------------ public API
    def fit(
        self,
        X: ArrayLike | sp.spmatrix | sp.sparray,
        y: ArrayLike,
        lengths: ArrayLike | None = None,
        *,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        dev: tuple[Any, ...] | dict[str, Any] | None = None,
        forced: ArrayLike | None = None,
        callback: Callable[[int, int, float], object] | None = None,
        assume_binary: bool = False,
    ) -> SequenceModel:
        """Train for up to ``max_epochs`` epochs: :meth:`SequencePerceptron.fit
        <perceptrons.SequencePerceptron.fit>`, without its warning when the last epoch still
        made mistakes (tagging data never stop making them).

        Returns
        -------
        self
        """
        validate_params(self, self._parameter_constraints)
        check_param(callback, "callback", CALLBACK, type(self).__name__)
        X, y = self._check_Xy(X, y, reset=True)
        self.classes_ = sorted_labels(y)
        yi = np.searchsorted(self.classes_, y).astype(np.int64)
        offsets = sequence_offsets(lengths, X.shape[0])
        eop, n_edge = edge_operand(X_edge, X.shape[0], assume_binary=assume_binary)
        op = to_operand(X, assume_binary)
        # Binary features make every emission weight an integer of magnitude ≤ tokens × epochs
        # (a token moves a weight by at most 1 an epoch); below 2²⁴ float32 holds those exactly,
        # and half the bytes halve the cost of scoring, which is reading weight rows.
        exact32 = is_binary(op) and X.shape[0] * self.max_epochs < 2**24
        self._init_state(X.shape[1], n_edge, np.float32 if exact32 else np.float64)
        dev_ops = None if dev is None else dev_operands(dev, self._check_X, self.classes_, n_edge, assume_binary)
        self._train(op, eop, yi, offsets, self.forced_indices(forced, X.shape[0]), self.max_epochs, dev_ops, callback)
        return self

    def partial_fit(
        self,
        X: ArrayLike | sp.spmatrix | sp.sparray,
        y: ArrayLike,
        lengths: ArrayLike | None = None,
        classes: ArrayLike | None = None,
        *,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        forced: ArrayLike | None = None,
    ) -> SequenceModel:
        """One pass over the sequences given; the first call must pass ``classes``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_tokens, n_features)
        y : array-like of shape (n_tokens,)
        lengths : array-like of shape (n_sequences,), default=None
            As in :meth:`fit`.
        classes : array-like of shape (n_classes,), default=None
            Every tag that will ever be seen; required on the first call.
        X_edge : sparse matrix of shape (n_tokens, n_edge_features), default=None
            As in :meth:`fit`.
        forced : array-like of shape (n_tokens,), default=None
            As in :meth:`fit`.

        Returns
        -------
        self
        """
        validate_params(self, self._parameter_constraints)
        if getattr(self, "_state", None) is None and hasattr(self, "_W_final"):
            self._restart_from_final()
        first = getattr(self, "_state", None) is None
        if not first:  # a model loaded off a memory map holds read-only weights
            self._state = writable(self._state)
        if first and classes is None:
            raise PerceptronsError(
                "classes must be passed on the first call to partial_fit (all tags that will be seen)"
            )
        X, y = self._check_Xy(X, y, reset=first)
        eop, n_edge = edge_operand(X_edge, X.shape[0], None if first else self.n_edge_features_in_)
        if first:
            self.classes_ = sorted_labels(classes, "classes")
            self._init_state(X.shape[1], n_edge)
        _check_known(y, self.classes_)
        yi = np.searchsorted(self.classes_, y).astype(np.int64)
        offsets = sequence_offsets(lengths, X.shape[0])
        self._train(
            to_operand(X), eop, yi, offsets, self.forced_indices(forced, X.shape[0]), 1, None, None, online=True
        )
        return self

    # ------------------------------------------------------------------ training block by block
    # For a training set read a block at a time (``Tagger.fit_stream``): each epoch is fit_block
    # on every block in order, then end_epoch.  The state carries over from block to block and
    # train_epoch keeps nothing else between sequences, so the result is fit's with shuffle=False.
    def begin_epochs(
        self,
        classes: ArrayLike,
        n_features: int,
        n_edge_features: int = 0,
        *,
        n_tokens: int | None = None,
    ) -> SequenceModel:
        """Start training from zero weights on sequences given block by block.

        Each epoch is :meth:`fit_block` on every block, in order, then :meth:`end_epoch`; the
        caller runs the epochs (up to ``max_epochs``, stopping when one is without mistakes).
        Given the same sequences in the same order this is :meth:`fit` with ``shuffle=False``
        and no development set, weight for weight.

        Parameters
        ----------
        classes : array-like of shape (n_classes,)
            Every tag of the training data.
        n_features : int
            Columns of every block's ``X``.
        n_edge_features : int, default=0
            Columns of every block's ``X_edge``.
        n_tokens : int, default=None
            Tokens in one epoch, when every block's features will be binary: as in :meth:`fit`,
            the emission weights are then float32 if ``n_tokens * max_epochs < 2**24`` (their
            values are integers, exact in float32), float64 otherwise or when None.

        Returns
        -------
        self

        Raises
        ------
        PerceptronsError
            With ``shuffle=True``: blocks are visited in the order given.
        """
        validate_params(self, self._parameter_constraints)
        if self.shuffle:
            raise PerceptronsError("training block by block visits the sequences in the order given: set shuffle=False")
        return self._begin(classes, n_features, n_edge_features, n_tokens)

    def _begin(self, classes, n_features, n_edge_features, n_tokens):
        """Fresh state for these classes and widths (begin_epochs; the distributed trainer,
        whose shards shuffle their own sequences).
        """
        self.classes_ = sorted_labels(classes, "classes")
        self.n_features_in_ = int(n_features)
        exact32 = n_tokens is not None and n_tokens * self.max_epochs < 2**24
        self._init_state(self.n_features_in_, int(n_edge_features), np.float32 if exact32 else np.float64)
        self.converged_, self._stopped, self.best_epoch_ = False, False, 0
        return self

    def fit_block(
        self,
        X: ArrayLike | sp.spmatrix | sp.sparray,
        y: ArrayLike,
        lengths: ArrayLike | None = None,
        *,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        forced: ArrayLike | None = None,
        assume_binary: bool = False,
    ) -> tuple[int, int]:
        """One block of an epoch: a pass over these sequences, in order, continuing the weights.

        The weights, their running sums for the average and the count of sequences seen carry
        over from the previous block; the final weights (``coef_``) are computed by
        :meth:`end_epoch` only.

        Parameters
        ----------
        X, y, lengths, X_edge, forced, assume_binary
            As in :meth:`fit`, for the sequences of this block.

        Returns
        -------
        mistakes : int
            Sequences of the block with at least one wrong tag.
        token_mistakes : int
            Tokens of the block with a wrong tag.
        """
        if getattr(self, "_state", None) is None:
            raise PerceptronsError("call begin_epochs before fit_block")
        op, eop, yi, offsets, forced = self._block_operands(X, y, lengths, X_edge, forced, assume_binary)
        perm = np.arange(offsets.shape[0] - 1, dtype=np.int64)
        m, wrong = self._pass(op, eop, yi, offsets, perm, forced)
        return int(m), int(wrong)

    def _block_operands(self, X, y, lengths, X_edge, forced, assume_binary):
        """A block's sequences as :meth:`_pass` reads them, checked against the fitted classes
        and widths: (op, eop, yi, offsets, forced indices).
        """
        X, y = self._check_Xy(X, y, reset=False)
        eop, _ = edge_operand(X_edge, X.shape[0], self.n_edge_features_in_, assume_binary)
        _check_known(y, self.classes_)
        op = to_operand(X, assume_binary)
        if self._state["W"].dtype == np.float32 and not is_binary(op):
            raise PerceptronsError("begin_epochs was given n_tokens (float32 weights), but X is not binary")
        yi = np.searchsorted(self.classes_, y).astype(np.int64)
        offsets = sequence_offsets(lengths, X.shape[0])
        return op, eop, yi, offsets, self.forced_indices(forced, X.shape[0])

    def end_epoch(self, mistakes: int, token_mistakes: int) -> bool:
        """Close an epoch of :meth:`fit_block` calls: record it and compute the final weights.

        Parameters
        ----------
        mistakes, token_mistakes : int
            The sums of :meth:`fit_block`'s counts over the epoch's blocks.

        Returns
        -------
        bool
            Whether the epoch was without mistakes (``converged_``): training should stop.
        """
        if getattr(self, "_state", None) is None:
            raise PerceptronsError("call begin_epochs before end_epoch")
        self.n_epochs_ += 1
        self.mistakes_per_epoch_.append(int(mistakes))
        self.token_mistakes_per_epoch_.append(int(token_mistakes))
        self._finalize()
        self.converged_ = mistakes == 0
        self.best_epoch_ = self.n_epochs_
        return self.converged_

    # ------------------------------------------------------------------ the loop
    def _train(self, op, eop, yi, offsets, forced, n_epochs, dev_ops, callback, online=False):
        n_seq = offsets.shape[0] - 1
        rng = self._rng
        self.converged_, self._stopped = False, False
        best, best_score, since_best = None, -1.0, 0
        t0 = time.perf_counter()
        for epoch in range(1, n_epochs + 1):
            perm = rng.permutation(n_seq) if self.shuffle else np.arange(n_seq, dtype=np.int64)
            m, wrong = self._pass(op, eop, yi, offsets, perm.astype(np.int64), forced)
            self.n_epochs_ += 1
            self.mistakes_per_epoch_.append(int(m))
            self.token_mistakes_per_epoch_.append(int(wrong))
            # the averaged weights of an epoch are a pass over all the weights (~50 ms on EWT):
            # computed now for the dev set, otherwise on the first read (a callback may read them)
            if dev_ops is not None:
                self._finalize()
            else:
                self._average_later()
            self.converged_ = m == 0
            if dev_ops is not None:
                (dop, deop, yd, doff, dforced) = dev_ops
                acc = float(np.mean(self.classes_[self._decode(dop, deop, doff, dforced)] == yd))
                self.dev_scores_.append(acc)
                if acc > best_score:
                    best_score, since_best = acc, 0
                    best = (epoch, self._final_weights())
                else:
                    since_best += 1
            if callback is not None and callback(epoch, int(m), time.perf_counter() - t0) is False:
                self._stopped = True
                break
            if self.converged_ or (self.patience is not None and since_best >= self.patience):
                break
        if best is not None:
            self.best_epoch_ = best[0]
            self._set_final(*best[1])
        else:
            if self._FINAL_AFTER_FIT and "_final_stale" in self.__dict__:
                self._finalize()
            self.best_epoch_ = self.n_epochs_

    def _pass(self, op, eop, yi, offsets, perm, forced):
        """One perceptron pass over the sequences in the order ``perm``, continuing ``_state``:
        weights, their running sums for the average and the visit counter.  (mistakes, wrong tokens).
        """
        from perceptrons._jit import structured as K

        s = self._state
        check_tables(offsets, s["W"].shape[1], s["E"].shape[0] > 0, s["trans2"].shape[0] > 0)
        mistakes, wrong = K.train_epoch(
            op,
            eop,
            yi,
            offsets,
            perm,
            forced,
            s["W"],
            s["trans"],
            none_if_empty(s["E"]),
            none_if_empty(s["trans2"]),
            s["start"],
            s["stop"],
            s["U"],
            s["Utrans"],
            s["UE"],
            s["Utrans2"],
            s["Ustart"],
            s["Ustop"],
            s["count"],
            self.averaged,
            decoder_code(self.decoder),
        )
        if mistakes < 0:  # the loop stopped at a sequence whose scores overflowed
            values = operand_values(op)
            raise overflow_error(f"the emission scores of sequence {-1 - mistakes}", float(np.abs(values).max()))
        return mistakes, wrong

    # ------------------------------------------------------------------ validation
    def _check_Xy(self, X, y, reset):
        """Shapes and storage only: the tagger's feature maps build X (CSR) and y themselves."""
        if y is None:
            raise PerceptronsError("the sequence model requires y to be passed, but the target y is None")
        X = self._check_X(X, reset)
        y = np.asarray(y)
        if y.shape != (X.shape[0],):
            raise PerceptronsError(f"y has shape {y.shape}, but X has {X.shape[0]} rows (one per token)")
        if X.shape[0] == 0:
            raise PerceptronsError("X is empty: 0 tokens")
        return X, y


def _check_known(y, classes):
    """Every tag of ``y`` is one of ``classes`` (the model's, fixed by the first call)."""
    unknown = np.setdiff1d(sorted_labels(y), classes)
    if unknown.size:
        raise PerceptronsError(f"y contains tags {unknown[:5].tolist()} that are not in classes {classes.tolist()}")
