"""The structured perceptron's training and decoding, without scikit-learn.

:class:`~perceptrons.SequencePerceptron` is this model with scikit-learn's estimator interface
(input validation, tags, ``score``); :class:`~perceptrons.Tagger` trains this one directly on the
matrices its feature maps build, so that training and tagging never import scikit-learn
(``sklearn.base`` alone takes over a second to import).  See ``SequencePerceptron`` for the model,
the parameters and the references.
"""

from __future__ import annotations

import copy
import time
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.labels import check_known, sorted_labels
from perceptrons._core.memory import check_allocation
from perceptrons._core.operands import is_binary, to_operand
from perceptrons._core.params import (
    CALLBACK,
    RANDOM_STATE,
    Interval,
    Kind,
    Options,
    check_param,
    seed_of,
    validate_params,
)
from perceptrons.structured._operands import (
    dev_operands,
    edge_operand,
    sequence_offsets,
)
from perceptrons.structured._sequence_decoding import SequenceDecoder
from perceptrons.structured._sequence_trainer import (
    SUMS,
    WEIGHTS,
    SequenceBlock,
    SequenceParams,
    SequenceState,
    default_mix_every,
    new_state,
    run_pass,
    threaded,
)
from perceptrons.structured._sequence_weights import final_of
from perceptrons.structured.decoders import DECODERS
from perceptrons.threads.jobs import MIX_EVERY, N_JOBS, threads_of

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Literal

    import scipy.sparse as sp
    from numpy.typing import ArrayLike


class SequenceModel(SequenceDecoder):
    """Collins' structured perceptron: training, decoding and state (see ``SequencePerceptron``).

    Inputs are checked for shape and consistency only (sparse CSR, one row per token); the
    scikit-learn-facing :class:`~perceptrons.SequencePerceptron` validates them fully.

    The model holds its running state (:class:`SequenceState`, while it trains) and the final
    weights it predicts with (:class:`FinalWeights`).  The final weights of an epoch are a pass
    over all the weights (~50 ms on EWT): after each epoch they are marked stale and made on
    their first read (``coef_`` and the other weight attributes are properties), so a fit
    whose epochs nobody looks at makes them once.
    """

    #: make the final weights at the end of a fit: an estimator does (scikit-learn's do not change when
    #: they predict), not the tagger's model, whose tagger prunes and casts them as they are made
    _FINAL_AFTER_FIT = False
    owner_name = None  #: the estimator its messages name: the Tagger holding it sets it, else its class

    _parameter_constraints = {
        "decoder": (Options(*DECODERS),),
        "max_epochs": (Interval(Integral, 1, None),),
        "averaged": (Kind(bool, "a bool"),),
        "shuffle": (Kind(bool, "a bool"),),
        "patience": (None, Interval(Integral, 1, None)),
        "markov_order": (Options(1, 2),),
        "random_state": RANDOM_STATE,
        "n_jobs": N_JOBS,
        "mix_every": MIX_EVERY,
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
        n_jobs: int | None = None,
        mix_every: int | None = None,
    ) -> None:
        self.decoder = decoder
        self.markov_order = markov_order
        self.max_epochs = max_epochs
        self.averaged = averaged
        self.shuffle = shuffle
        self.patience = patience
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.mix_every = mix_every

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
        if getattr(self, "_state", None) is None and (
            getattr(self, "_final", None) is not None or getattr(self, "_stale", False)
        ):
            self._restart_from_final()
        first = getattr(self, "_state", None) is None
        if not first:  # a model loaded off a memory map holds read-only weights
            self._state = self._state.writable()
        if first and classes is None:
            raise PerceptronsError(
                "classes must be passed on the first call to partial_fit (all tags that will be seen)"
            )
        X, y = self._check_Xy(X, y, reset=first)
        eop, n_edge = edge_operand(X_edge, X.shape[0], None if first else self.n_edge_features_in_)
        if first:
            self.classes_ = sorted_labels(classes, "classes")
            self._init_state(X.shape[1], n_edge)
        check_known(y, self.classes_, "tags")
        yi = np.searchsorted(self.classes_, y).astype(np.int64)
        offsets = sequence_offsets(lengths, X.shape[0])
        self._train(
            to_operand(X), eop, yi, offsets, self.forced_indices(forced, X.shape[0]), 1, None, None, online=True
        )
        return self

    # ------------------------------------------------------------------ the training protocol
    # The family's protocol (:mod:`perceptrons.structured._sequence_trainer`): check_training,
    # begin, then each epoch ``epoch`` on every block of ``operands`` and ``end_epoch``.  The state
    # carries over from block to block and the loop keeps nothing else between sequences, so in
    # order it gives fit's weights with shuffle=False.  ``begin_epochs`` and ``fit_block`` are the
    # same on matrices, for a caller that holds them.
    def check_training(self, how: str) -> None:
        """Refuse, before any work, a way of training these parameters cannot take.

        Parameters
        ----------
        how : {"memory", "stream", "mixing"}
            ``fit`` on sequences in memory, block by block in the order given (``fit_block``, a
            tagger's streamed fit), or parameter mixing (each shard shuffles its own sequences).

        Raises
        ------
        PerceptronsError
            A parameter out of its range; ``shuffle=True`` block by block; ``patience`` with
            parameter mixing, which has no development set.
        """
        validate_params(self, self._parameter_constraints)
        if how == "stream" and self.shuffle:
            raise PerceptronsError("training block by block visits the sequences in the order given: set shuffle=False")
        if how == "mixing" and self.patience is not None:
            raise PerceptronsError("distributed training has no development set to stop early on: pass patience=None")

    def begin(
        self, classes: ArrayLike, n_features: int, n_edge_features: int = 0, *, n_tokens: int | None = None
    ) -> SequenceState:
        """Start training from zero weights: the state for these classes and widths.

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
        SequenceState
            The state this model now trains (its arrays are the model's own).
        """
        self.classes_ = sorted_labels(classes, "classes")
        self.n_features_in_ = int(n_features)
        exact32 = n_tokens is not None and n_tokens * self.max_epochs < 2**24
        self._init_state(self.n_features_in_, int(n_edge_features), np.float32 if exact32 else np.float64)
        self.converged_, self._stopped, self.best_epoch_ = False, False, 0
        return self._state

    def operands(
        self,
        X: ArrayLike | sp.spmatrix | sp.sparray,
        y: ArrayLike,
        lengths: ArrayLike | None = None,
        *,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        forced: ArrayLike | None = None,
        assume_binary: bool = False,
    ) -> SequenceBlock:
        """A block of sequences as :meth:`epoch` reads them, checked against the classes and
        widths :meth:`begin` was given.

        Parameters
        ----------
        X, y, lengths, X_edge, forced, assume_binary
            As in :meth:`fit`, for the sequences of this block.

        Returns
        -------
        SequenceBlock
        """
        X, y = self._check_Xy(X, y, reset=False)
        eop, _ = edge_operand(X_edge, X.shape[0], self.n_edge_features_in_, assume_binary)
        check_known(y, self.classes_, "tags")
        op = to_operand(X, assume_binary)
        if self._emission_dtype == np.float32 and not is_binary(op):
            raise PerceptronsError("begin_epochs was given n_tokens (float32 weights), but X is not binary")
        yi = np.searchsorted(self.classes_, y).astype(np.int64)
        offsets = sequence_offsets(lengths, X.shape[0])
        return SequenceBlock(op, eop, yi, offsets, self.forced_indices(forced, X.shape[0]))

    def epoch(self, block: SequenceBlock, perm: np.ndarray | None = None) -> tuple[int, int]:
        """One epoch's pass over one block of sequences (``perm``: their order; None: as given),
        continuing the weights, their running sums and the count of sequences seen.

        Parameters
        ----------
        block : SequenceBlock
            From :meth:`operands`.
        perm : ndarray of int64, optional

        Returns
        -------
        mistakes : int
            Sequences of the block with at least one wrong tag.
        token_mistakes : int
            Tokens of the block with a wrong tag.
        """
        if getattr(self, "_state", None) is None:
            raise PerceptronsError("call begin before epoch (or begin_epochs before fit_block)")
        if perm is None:
            perm = np.arange(block.offsets.shape[0] - 1, dtype=np.int64)
        return run_pass(self.averaged, self.decoder, self._state, block, perm)

    def end_epoch(self, mistakes: int, token_mistakes: int, mixed: dict[str, np.ndarray] | None = None) -> bool:
        """Close an epoch of :meth:`epoch` calls: record it and compute the final weights.

        Parameters
        ----------
        mistakes, token_mistakes : int
            The sums of :meth:`epoch`'s counts over the epoch's blocks.
        mixed : dict, optional
            The state's arrays that parameter mixing made of the shards', by field name: the
            model adopts them first.

        Returns
        -------
        bool
            Whether the epoch was without mistakes (``converged_``): training should stop.
        """
        if getattr(self, "_state", None) is None:
            raise PerceptronsError("call begin_epochs before end_epoch")
        if mixed is not None:
            self._state = self._state._replace(**mixed)
        self.n_epochs_ += 1
        self.mistakes_per_epoch_.append(int(mistakes))
        self.token_mistakes_per_epoch_.append(int(token_mistakes))
        self._finalize()
        self.converged_ = mistakes == 0
        self.best_epoch_ = self.n_epochs_
        return self.converged_

    def step_params(self, seed: int) -> SequenceParams:
        """The parameters of the pure step :func:`perceptrons.structured._sequence_trainer.step`.

        Parameters
        ----------
        seed : int
            Of each shard's shuffles (with ``shuffle=True``).

        Returns
        -------
        SequenceParams
        """
        return SequenceParams(bool(self.averaged), self.decoder, bool(self.shuffle), int(seed))

    def check_data(self, X: ArrayLike | sp.spmatrix | sp.sparray, y: ArrayLike) -> tuple[sp.csr_matrix, np.ndarray]:
        """The checks ``fit`` makes of ``X`` and ``y``, for a caller that trains on them otherwise
        (``n_features_in_`` set from ``X``).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_tokens, n_features)
        y : array-like of shape (n_tokens,)

        Returns
        -------
        (X, y)
        """
        return self._check_Xy(X, y, reset=True)

    def for_workers(self) -> SequenceModel:
        """A copy without the running state, that makes :meth:`operands` as this model does
        (classes, widths, the emission weights' type): what a worker that reads its own files
        needs, a few hundred bytes instead of the weights.

        Returns
        -------
        SequenceModel
        """
        m = copy.copy(self)
        m._state = None
        return m

    def begin_epochs(
        self,
        classes: ArrayLike,
        n_features: int,
        n_edge_features: int = 0,
        *,
        n_tokens: int | None = None,
    ) -> SequenceModel:
        """Start training from zero weights on sequences given block by block: the parameters
        checked for it (``check_training("stream")``), then :meth:`begin`.

        Each epoch is :meth:`fit_block` on every block, in order, then :meth:`end_epoch`; the
        caller runs the epochs (up to ``max_epochs``, stopping when one is without mistakes).
        Given the same sequences in the same order this is :meth:`fit` with ``shuffle=False``
        and no development set, weight for weight.

        Parameters
        ----------
        classes, n_features, n_edge_features, n_tokens
            As in :meth:`begin`.

        Returns
        -------
        self

        Raises
        ------
        PerceptronsError
            With ``shuffle=True``: blocks are visited in the order given.
        """
        self.check_training("stream")
        self.begin(classes, n_features, n_edge_features, n_tokens=n_tokens)
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
        """One block of an epoch, on matrices: :meth:`epoch` on :meth:`operands`, in order.

        The final weights (``coef_``) are computed by :meth:`end_epoch` only.

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
        block = self.operands(X, y, lengths, X_edge=X_edge, forced=forced, assume_binary=assume_binary)
        return self.epoch(block)

    # ------------------------------------------------------------------ the loop
    def _train(self, op, eop, yi, offsets, forced, n_epochs, dev_ops, callback, online=False):
        self.converged_, self._stopped = False, False
        block = SequenceBlock(op, eop, yi, offsets, forced)
        S = 1 if online else threads_of(self.n_jobs, self.owner_name or type(self).__name__)
        every = self.mix_every or default_mix_every(S)
        if S == 1 or offsets.shape[0] - 1 <= every:  # fewer sequences than a round train serially
            self._epochs(block, n_epochs, None, dev_ops, callback)
            return
        from perceptrons.threads.rounds import Rounds

        # the other threads' copies; a model that does not average never writes its sums
        shared = SUMS if not self.averaged else ()
        copies = [self._state] + [
            SequenceState(*(a if k in shared else a.copy() for k, a in zip(SequenceState._fields, self._state)))
            for _ in range(S - 1)
        ]
        train, replay = threaded(self.averaged, self.decoder, block)
        with Rounds(copies, train, replay, every) as rounds:
            self._epochs(block, n_epochs, rounds.epoch, dev_ops, callback)

    def _epochs(self, block, n_epochs, in_threads, dev_ops, callback):
        """The epochs of a fit: each one pass of :meth:`epoch` over ``block``, or of ``in_threads``
        (``in_threads(perm) -> (mistakes, wrong)``, a fit in threads), then its book-keeping."""
        n_seq = block.offsets.shape[0] - 1
        rng = self._rng
        best, best_score, since_best = None, -1.0, 0
        t0 = time.perf_counter()
        for epoch in range(1, n_epochs + 1):
            perm = (rng.permutation(n_seq) if self.shuffle else np.arange(n_seq)).astype(np.int64)
            m, wrong = self.epoch(block, perm) if in_threads is None else in_threads(perm)
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
                    best = (epoch, self.final_weights())
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
            if self._FINAL_AFTER_FIT and self._stale:
                self._finalize()
            self.best_epoch_ = self.n_epochs_

    def _finalize(self, W=None):
        """Final weights from the running state: the lazy average W − U / C, or W itself.  ``W``:
        the final emission weights when made already (:meth:`compact_single_precision`)."""
        self._final, self._stale = final_of(self._state, self._average_count(), W), False

    def _average_count(self):
        """C of the average W − U / C; 0.0 when the final weights are W itself."""
        c = int(self._state.count[0])
        return float(c) if self.averaged and c > 0 else 0.0

    def compact_single_precision(self) -> np.ndarray:
        """Drop the emission weight rows that are all zero and cast the others to float32:
        :meth:`prune_features` then :meth:`to_single_precision`, in one compiled pass.

        After a fit whose final weights are not made yet, the pass reads the running sums, so
        the float64 average of every row is never stored (EWT: 282,142 rows, half of them zero).

        Returns
        -------
        keep : ndarray of bool, shape (n_features,)
            The features kept, as :meth:`prune_features` takes them.
        """
        from perceptrons._jit.structured import nonzero_rows32

        stale = getattr(self, "_stale", False)
        if stale:  # W − U / c from the running sums (W itself when c is 0)
            final = (self._state.W, self._state.U, self._average_count())
        else:
            final = (self.emission_weights(), np.zeros((0, 0)), 0.0)
        rows, n_kept, keep = nonzero_rows32(*final)
        W = rows[:n_kept].copy()  # not a view that would keep every row alive
        del rows
        if stale:
            self._finalize(W)
        else:
            self._final = self._final._replace(W=W)
        self.n_features_in_ = int(W.shape[0])
        self._state = None
        return keep.view(np.bool_)

    def _restart_from_final(self):
        """After loading: continue online training from the stored final weights."""
        final = self.final_weights()
        self._init_state(self.n_features_in_, self.n_edge_features_in_)
        for k, v in zip(WEIGHTS, final):
            getattr(self._state, k)[...] = v
        self._finalize()

    # ------------------------------------------------------------------ state
    def _init_state(self, d, n_edge=0, w_dtype=np.float64):
        T = len(self.classes_)
        triples = T**3 if self.markov_order == 2 else 0
        # dense weights (a row of T a feature), their sums and the final weights: a fit's whole memory, checked first
        check_allocation(
            (d * T + n_edge * T * T) * (np.dtype(w_dtype).itemsize + 16) + triples * 24,
            f"the weights of {d:,} features and {n_edge:,} edge features for {T:,} tags"
            + (f" with {triples:,} tag triples" if triples else ""),
            "tag a column of fewer tags (UPOS rather than XPOS or FEATS), or use fewer features (the basic templates)",
        )
        self.n_edge_features_in_ = n_edge
        self._emission_dtype = np.dtype(w_dtype)
        self._state = new_state(d, n_edge, T, self.markov_order, w_dtype)
        self.mistakes_per_epoch_, self.token_mistakes_per_epoch_, self.dev_scores_ = [], [], []
        self.n_epochs_ = 0
        self._rng = np.random.default_rng(seed_of(self.random_state))
        # the weights are all 0: made on the first read, which a fit's epochs come before (a copy
        # of W as float64, ~20 ms on EWT, that training did not read)
        self._average_later()

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
