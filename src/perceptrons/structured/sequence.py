"""Collins' structured perceptron for sequence labelling (Collins 2002; Gormley)."""

from __future__ import annotations

import time
import warnings
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from perceptrons._jit.rows import is_binary, kernel_operand
from perceptrons._validation import RANDOM_STATE, Interval, Kind, Options, PerceptronsError, seed_of, validate_params
from perceptrons.structured import _sequence_state as sequence_state
from perceptrons.structured._operands import (
    NO_FORCED,
    dev_operands,
    edge_operand,
    sequence_offsets,
    tag_indices,
)
from perceptrons.structured.decoders import DECODERS, decoder_code

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Literal

    from numpy.typing import ArrayLike

_NO_SCORES = np.zeros((0, 0))
_NO_ROWS = (np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.int64))  # no token features: scores given
_PARTS = ("W", "trans", "E", "trans2", "start", "stop")


class SequencePerceptron(ClassifierMixin, BaseEstimator):
    """Structured perceptron for sequence labelling with a first-order model (Collins 2002).

    The score of a tag sequence y for tokens x₁…xₙ is
    ``start[y₁] + Σᵢ w_{yᵢ}·xᵢ + Σᵢ trans[yᵢ₋₁, yᵢ] + stop[yₙ]``.  Training decodes each
    sequence with the current weights; if the best sequence differs from the gold one, the
    features of the gold sequence are added and those of the predicted one subtracted.

    Parameters
    ----------
    decoder : {"viterbi", "greedy"}, default="viterbi"
        Exact first-order Viterbi, or left-to-right greedy decoding (NLTK's tagger); used both in
        training and in prediction.
    max_epochs : int, default=10
        Passes over the training sequences.  An epoch without a mistake ends training.
    averaged : bool, default=True
        Predict with the mean of the weights after every sequence seen (Collins 2002, §2.5;
        Freund & Schapire 1999), computed lazily.
    shuffle : bool, default=False
        Visit the sequences in a new random order each epoch (from ``random_state``).
    patience : int or None, default=None
        With a development set passed to ``fit``, stop after this many epochs without a better
        development accuracy.  The weights of the best epoch are kept in any case.
    markov_order : {1, 2}, default=1
        2 adds a weight for every tag triple (second-order transitions); Viterbi then costs
        O(n·T³) instead of O(n·T²).
    random_state : int, RandomState or None, default=None

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_classes, n_features)
        Emission weights (averaged when ``averaged``).
    coef_trans_ : ndarray of shape (n_classes, n_classes)
        ``coef_trans_[a, b]`` is the weight of tag ``a`` followed by tag ``b``.
    coef_edge_ : ndarray of shape (n_edge_features, n_classes, n_classes)
        Weights of the edge features (lexicalised transitions); empty without ``X_edge``.
    coef_trans2_ : ndarray of shape (n_classes, n_classes, n_classes) or (0, 0, 0)
        Second-order weights ``coef_trans2_[a, b, c]`` of the tag triple a, b, c.
    coef_init_, coef_final_ : ndarray of shape (n_classes,)
        Weights of the first and of the last tag of a sequence.
    n_features_in_ : int
    n_epochs_ : int
    mistakes_per_epoch_ : list of int
        Sequences with at least one wrong tag, per epoch.
    token_mistakes_per_epoch_ : list of int
    dev_scores_ : list of float
        Token accuracy on the development set after each epoch (empty without one).
    best_epoch_ : int
        The epoch whose weights are kept (the last one without a development set).
    converged_ : bool

    Notes
    -----
    ``lengths=None`` makes every row a sequence of its own (length 1): the model is then a
    multiclass perceptron whose start + stop weights act as a per-class bias.  seqlearn reads
    ``None`` as one single sequence instead; we do not, because then a prediction would depend on
    which other rows are in the batch and in what order — scikit-learn's contract (and its
    ``check_methods_subset_invariance``) is that rows are independent samples.  Sequence data must
    say where its sequences are.

    A model read back with :func:`perceptrons.load_model` holds the final (averaged) weights only;
    ``partial_fit`` on it starts averaging afresh from those weights.

    References
    ----------
    Collins (2002), "Discriminative Training Methods for Hidden Markov Models: Theory and
    Experiments with Perceptron Algorithms", EMNLP.
    Gormley, lecture notes on the perceptron ("Structured Perceptron").
    Daumé III (2006), thesis, §2.1.1 (the lazy form of the averaged perceptron).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from perceptrons import SequencePerceptron
    >>> X = sp.csr_matrix(np.eye(3)[[0, 1, 2, 0, 2]])
    >>> y = np.array(["D", "N", "V", "D", "V"])
    >>> clf = SequencePerceptron(max_epochs=5).fit(X, y, lengths=[3, 2])
    >>> clf.predict(X, lengths=[3, 2]).tolist()
    ['D', 'N', 'V', 'D', 'V']
    """

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
    ) -> SequencePerceptron:
        """Train for up to ``max_epochs`` epochs.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_tokens, n_features)
            One row per token; CSR with int32 or int64 indices is used as is.
        y : array-like of shape (n_tokens,)
        lengths : array-like of shape (n_sequences,), default=None
            Lengths of the consecutive sequences (summing to n_tokens); None: one token each.
        X_edge : sparse matrix of shape (n_tokens, n_edge_features), default=None
            Binary *edge* features: those of token i score the transition from token i − 1 into
            token i, each with a (n_classes, n_classes) weight matrix (lexicalised transitions).
        dev : tuple (X_dev, y_dev, lengths_dev) or dict, default=None
            Development set (a dict may add ``forced`` and ``X_edge``): its token accuracy is
            measured after every epoch and the weights of the best epoch are kept (early
            stopping with ``patience``).
        forced : array-like of shape (n_tokens,), default=None
            A tag (label) each token must take, or None / an unknown label for free tokens.
        callback : callable, default=None
            ``callback(epoch, mistakes, elapsed_seconds)`` after every epoch; ``False`` stops.
        assume_binary : bool, default=False
            The caller vouches that every stored value of ``X``, ``X_edge`` and the development
            set's matrices is 1 (a :class:`~perceptrons.structured.features.FeatureMap` builds
            them so): the scans of their values that would find this out are skipped.  Other
            values would then be read as 1.

        Returns
        -------
        self
        """
        validate_params(self, self._parameter_constraints)
        X, y = self._check_Xy(X, y, reset=True)
        self.classes_ = np.unique(y)
        yi = np.searchsorted(self.classes_, y).astype(np.int64)
        offsets = sequence_offsets(lengths, X.shape[0])
        eop, n_edge = edge_operand(X_edge, X.shape[0], assume_binary=assume_binary)
        op = kernel_operand(X, assume_binary)
        # Binary features make every emission weight an integer of magnitude ≤ tokens × epochs
        # (a token moves a weight by at most 1 an epoch); below 2²⁴ float32 holds those exactly,
        # and half the bytes halve the cost of scoring, which is reading weight rows.
        exact32 = is_binary(op) and X.shape[0] * self.max_epochs < 2**24
        self._init_state(X.shape[1], n_edge, np.float32 if exact32 else np.float64)
        dev_ops = None if dev is None else dev_operands(dev, self._check_X, self.classes_, n_edge, assume_binary)
        self._train(op, eop, yi, offsets, self.forced_indices(forced, X.shape[0]), self.max_epochs, dev_ops, callback)
        if not self.converged_ and not self._stopped and dev_ops is None:
            warnings.warn(
                f"SequencePerceptron still made {self.mistakes_per_epoch_[-1]} sequence mistakes in its "
                f"last epoch (max_epochs={self.max_epochs}): the data are not separable by this model "
                "or need more epochs.",
                ConvergenceWarning,
                stacklevel=2,
            )
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
    ) -> SequencePerceptron:
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
        if getattr(self, "_state", None) is None:
            if classes is None:
                raise PerceptronsError(
                    "classes must be passed on the first call to partial_fit (all tags that will be seen)"
                )
            X, y = self._check_Xy(X, y, reset=True)
            self.classes_ = np.unique(np.asarray(classes))
            self._init_state(X.shape[1], 0 if X_edge is None else sp.csr_matrix(X_edge).shape[1])
        else:
            X, y = self._check_Xy(X, y, reset=False)
        eop, _ = edge_operand(X_edge, X.shape[0], self.n_edge_features_in_)
        unknown = np.setdiff1d(np.unique(y), self.classes_)
        if unknown.size:
            raise PerceptronsError(f"y contains tags {list(unknown[:5])} that are not in classes {list(self.classes_)}")
        yi = np.searchsorted(self.classes_, y).astype(np.int64)
        offsets = sequence_offsets(lengths, X.shape[0])
        self._train(
            kernel_operand(X), eop, yi, offsets, self.forced_indices(forced, X.shape[0]), 1, None, None, online=True
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
    ) -> SequencePerceptron:
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
        self.classes_ = np.unique(np.asarray(classes))
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
        unknown = np.setdiff1d(np.unique(y), self.classes_)
        if unknown.size:
            raise PerceptronsError(f"y contains tags {list(unknown[:5])} that are not in classes {list(self.classes_)}")
        op = kernel_operand(X, assume_binary)
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

    def predict(
        self,
        X: ArrayLike | sp.spmatrix | sp.sparray,
        lengths: ArrayLike | None = None,
        *,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        forced: ArrayLike | None = None,
    ) -> np.ndarray:
        """Best tag sequence of each sequence (Viterbi), shape (n_tokens,).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_tokens, n_features)
        lengths : array-like of shape (n_sequences,), default=None
            As in :meth:`fit`.
        X_edge : sparse matrix of shape (n_tokens, n_edge_features), default=None
            As in :meth:`fit`.
        forced : array-like of shape (n_tokens,), default=None
            As in :meth:`fit`.

        Returns
        -------
        ndarray of shape (n_tokens,)
            The tags, from ``classes_``.
        """
        check_is_fitted(self)
        X = self._check_X(X)
        offsets = sequence_offsets(lengths, X.shape[0])
        eop, _ = edge_operand(X_edge, X.shape[0], self.n_edge_features_in_)
        return self.classes_[self._decode(kernel_operand(X), eop, offsets, self.forced_indices(forced, X.shape[0]))]

    def predict_from_scores(
        self,
        scores: np.ndarray,
        lengths: ArrayLike | None,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        *,
        assume_binary: bool = False,
    ) -> np.ndarray:
        """:meth:`predict` from emission scores that the caller computed.

        The :class:`~perceptrons.structured.tagging.Tagger` sums the weight rows once per word
        type (:meth:`~perceptrons.structured.features.FeatureMap.scores`), forced tags
        included.  ``scores`` are not validated: that would cost more than decoding a short
        sentence.

        Parameters
        ----------
        scores : ndarray of shape (n_tokens, n_classes)
            Emission scores, ``X @ emission_weights()`` for token features ``X``; a forced
            token has ``-inf`` for every other tag.
        lengths, X_edge : see :meth:`predict`
        assume_binary : bool, default=False
            As in :meth:`fit`: ``X_edge`` is known to store 1s only, so it is not scanned.

        Returns
        -------
        ndarray of shape (n_tokens,)
            The tags.

        Examples
        --------
        >>> import numpy as np, scipy.sparse as sp
        >>> from perceptrons import SequencePerceptron
        >>> X = sp.csr_matrix(np.eye(3)[[0, 1, 2, 0, 2]])
        >>> clf = SequencePerceptron(max_epochs=5).fit(X, ["D", "N", "V", "D", "V"], lengths=[3, 2])
        >>> clf.predict_from_scores(X @ clf.emission_weights(), [3, 2]).tolist()
        ['D', 'N', 'V', 'D', 'V']
        """
        offsets = sequence_offsets(lengths, scores.shape[0])
        eop, _ = edge_operand(X_edge, scores.shape[0], self.n_edge_features_in_, assume_binary)
        return self.classes_[self._decode(_NO_ROWS, eop, offsets, NO_FORCED, scores)]

    def emission_weights(self) -> np.ndarray:
        """The final emission weights, shape (n_features, n_classes): ``coef_.T``, C-contiguous.

        The array itself, not a copy (the model never writes into it: training makes new
        arrays); do not write into it either.

        Returns
        -------
        ndarray of shape (n_features, n_classes)
        """
        check_is_fitted(self)
        return self._W_final

    def forced_indices(self, forced: ArrayLike | None, n_tokens: int) -> np.ndarray:
        """Tag indices (n_tokens,) of the tags in ``forced``; −1 where a token is free.

        Parameters
        ----------
        forced : array-like of shape (n_tokens,) or None
            A tag (label) per token, or a value that is not a tag (the ``Tagger`` uses ``""``)
            for a free token.  None: no token is forced.
        n_tokens : int

        Returns
        -------
        ndarray of int64, shape (n_tokens,), or shape (0,) when ``forced`` is None
            Positions in ``classes_``, as
            :meth:`~perceptrons.structured.features.FeatureMap.scores` takes them.
        """
        return tag_indices(self.classes_, forced, n_tokens)

    def prune_features(self, keep: np.ndarray) -> SequencePerceptron:
        """Keep only the emission weights of the features where ``keep`` is true.

        All-zero weight rows are safe to drop: they add exactly 0 to every score.  Columns of
        ``X`` must then be dropped alike (the ``Tagger`` prunes its feature map).  Online
        training restarts from the final weights, as after loading a model.

        Parameters
        ----------
        keep : ndarray of bool, shape (n_features,)
            One entry per feature the model was fitted on (``n_features_in_``).

        Returns
        -------
        self
        """
        self._W_final = np.ascontiguousarray(self._W_final[keep])
        self.coef_ = self._W_final.T
        self.n_features_in_ = int(self._W_final.shape[0])
        self._state = None
        return self

    def to_single_precision(self) -> SequencePerceptron:
        """Cast the emission weights to float32, for tagging.

        Scoring a token reads one weight row per feature, so half the bytes is most of the
        decoding time saved.  Rounding the averaged weights to 24 bits changed no tag of EWT
        test when measured (``tests/test_tagger.py`` checks a sample).

        Returns
        -------
        self
        """
        self._W_final = self._W_final.astype(np.float32)
        self.coef_ = self._W_final.T
        return self

    def score(self, X: ArrayLike | sp.spmatrix | sp.sparray, y: ArrayLike, lengths: ArrayLike | None = None) -> float:
        """Token accuracy.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_tokens, n_features)
        y : array-like of shape (n_tokens,)
            The gold tags.
        lengths : array-like of shape (n_sequences,), default=None
            As in :meth:`fit`.

        Returns
        -------
        float
            The fraction of tokens whose predicted tag is ``y``'s.
        """
        return float(np.mean(self.predict(X, lengths) == np.asarray(y)))

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
            self._finalize()
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
            self.best_epoch_ = self.n_epochs_

    def _pass(self, op, eop, yi, offsets, perm, forced):
        """One perceptron pass over the sequences in the order ``perm``, continuing ``_state``:
        weights, their running sums for the average and the visit counter.  (mistakes, wrong tokens).
        """
        from perceptrons._jit import structured as K

        s = self._state
        return K.train_epoch(
            op,
            eop,
            yi,
            offsets,
            perm,
            forced,
            s["W"],
            s["trans"],
            s["E"],
            s["trans2"],
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

    def _decode(self, op, eop, offsets, forced, scores=_NO_SCORES):
        from perceptrons._jit import structured as K

        out = np.empty(offsets[-1], dtype=np.int64)
        K.decode_all(
            op,
            eop,
            offsets,
            forced,
            self._W_final,
            self.coef_trans_,
            self.coef_edge_,
            self.coef_trans2_,
            self.coef_init_,
            self.coef_final_,
            decoder_code(self.decoder),
            out,
            scores,
        )
        return out

    # ------------------------------------------------------------------ state
    def _init_state(self, d, n_edge=0, w_dtype=np.float64):
        T = len(self.classes_)
        self.n_edge_features_in_ = n_edge
        self._state = {
            "W": np.zeros((d, T), dtype=w_dtype),
            "trans": np.zeros((T, T)),
            "E": np.zeros((n_edge, T, T)),
            "trans2": np.zeros((T, T, T) if self.markov_order == 2 else (0, 0, 0)),
            "start": np.zeros(T),
            "stop": np.zeros(T),
            "U": np.zeros((d, T)),
            "Utrans": np.zeros((T, T)),
            "UE": np.zeros((n_edge, T, T)),
            "Utrans2": np.zeros((T, T, T) if self.markov_order == 2 else (0, 0, 0)),
            "Ustart": np.zeros(T),
            "Ustop": np.zeros(T),
            "count": np.zeros(1, dtype=np.int64),
        }
        self.mistakes_per_epoch_, self.token_mistakes_per_epoch_, self.dev_scores_ = [], [], []
        self.n_epochs_ = 0
        self._rng = np.random.default_rng(seed_of(self.random_state))
        self._finalize()

    def _finalize(self):
        """Final weights from the running state: the lazy average W − U / C, or W itself."""
        from perceptrons._jit.structured import lazy_average

        s = self._state
        c = int(s["count"][0])
        if self.averaged and c > 0:
            parts = [lazy_average(s[k], s["U" + k if k != "W" else "U"], float(c)) for k in _PARTS]
        else:
            parts = [s[k].astype(np.float64) for k in _PARTS]
        self._set_final(*parts)

    def _final_weights(self):
        """The final weight arrays; never written in place (``_finalize`` makes new ones)."""
        return (self._W_final, self.coef_trans_, self.coef_edge_, self.coef_trans2_, self.coef_init_, self.coef_final_)

    def _set_final(self, W, trans, E, trans2, start, stop):
        self._W_final = np.ascontiguousarray(W)
        self.coef_ = self._W_final.T
        self.coef_trans_, self.coef_edge_, self.coef_trans2_ = trans, E, trans2
        self.coef_init_, self.coef_final_ = start, stop

    # ------------------------------------------------------------------ validation
    def _check_Xy(self, X, y, reset):
        if y is None:
            raise PerceptronsError("SequencePerceptron requires y to be passed, but the target y is None")
        X, y = validate_data(self, X, y, reset=reset, accept_sparse="csr", accept_large_sparse=True, dtype=np.float64)
        check_classification_targets(y)
        if X.shape[0] == 0:
            raise PerceptronsError("X is empty: 0 tokens")
        return (X if sp.issparse(X) else sp.csr_matrix(X)), y

    def _check_X(self, X):
        X = validate_data(self, X, reset=False, accept_sparse="csr", accept_large_sparse=True, dtype=np.float64)
        return X if sp.issparse(X) else sp.csr_matrix(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # ------------------------------------------------------------------ persistence
    def _to_state(self):
        """Final weights only; the emission matrix is stored sparse (most entries stay 0)."""
        check_is_fitted(self)
        return sequence_state.to_state(self)

    def _from_state(self, st):
        """Restore from a :class:`~perceptrons.io.model_state.ModelState`, every field checked
        before anything is built (:func:`~perceptrons.structured._sequence_state.from_state`).
        """
        fitted, weights = sequence_state.from_state(st, self.markov_order)
        for name, value in fitted.items():
            setattr(self, name, value)
        self._state = None
        self._rng = np.random.default_rng(seed_of(self.random_state))
        self._set_final(*weights)
        return self

    def _restart_from_final(self):
        """After loading: continue online training from the stored final weights."""
        final = self._final_weights()
        self._init_state(self.n_features_in_, self.n_edge_features_in_)
        for k, v in zip(_PARTS, final):
            self._state[k][...] = v
        self._finalize()
