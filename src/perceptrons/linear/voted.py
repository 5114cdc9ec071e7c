"""The voted perceptron (Freund & Schapire 1999)."""

from __future__ import annotations

import heapq
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np
from sklearn.utils.validation import check_is_fitted

from perceptrons._core.data import linear_rows
from perceptrons._core.finite import finite_scores, score_overflow
from perceptrons._core.params import Interval
from perceptrons._core.readonly import read_only
from perceptrons._core.visits import MAX_VISITS
from perceptrons._jit import linear as K
from perceptrons._jit import vote as KV
from perceptrons.io.model_state import FLOATS
from perceptrons.linear._base import LinearPerceptronBase

if TYPE_CHECKING:
    from typing import Any, Literal

    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix


class VotedPerceptron(LinearPerceptronBase):
    """Perceptron whose every intermediate weight vector votes, weighted by how long it survived.

    Training is the PLA of :class:`Perceptron`.  Each distinct weight vector ``w_k`` is kept with
    its survival count ``c_k`` — the number of examples visited while it was the current vector —
    and the prediction is ``sign(Σ_k c_k · sign(w_k·x + b_k))`` (multiclass: each vector votes
    ``c_k`` for its argmax class).  ``decision_function`` returns the weighted vote.

    The vectors are rebuilt after each epoch from the compiled loop's update log (example index, visit
    counter, runner-up class), so no tie is decided twice.

    Parameters
    ----------
    max_vectors : int or None, default=None
        Keep at most this many vectors — the ones that survived longest.  **Memory is
        O(number of updates × n_features)** (× n_classes for multiclass) without a cap.
    max_epochs : int, default=10
        Upper bound on passes (it was 1000).  As for :class:`AveragedPerceptron`, the vote
        settles within a few epochs, while the vectors kept (memory) and the cost of
        ``predict`` grow with every epoch's updates (``benchmarks/bench_defaults.py``).
    fit_intercept, order, init, margin, class_weight, random_state, warm_start
        As in :class:`Perceptron`.

    Attributes
    ----------
    vectors_ : ndarray of shape (n_vectors, n_features) or (n_vectors, n_classes, n_features)
    vector_intercepts_ : ndarray of shape (n_vectors,) or (n_vectors, n_classes)
    vector_counts_ : ndarray of shape (n_vectors,)
        Survival counts c_k; they sum to the visits made when no vector was dropped.  A fit
        with ``warm_start=True`` (like ``partial_fit``) adds its vectors to the previous ones.
    n_vectors_ : int
        Vectors kept.
    n_vectors_dropped_ : int
        Vectors dropped because of ``max_vectors``.
    coef_, intercept_ : the last iterate (the voted rule itself is not linear).
    classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_
        As in :class:`Perceptron`.

    Notes
    -----
    Σ_k c_k w_k / Σ_k c_k equals the :class:`AveragedPerceptron`'s weights for the same run.
    A vote of exactly 0 predicts the positive class (sign(0) = +1).

    References
    ----------
    Freund, Y. and Schapire, R. E. (1999). "Large margin classification using the perceptron
    algorithm". Machine Learning 37(3), 277–296.  Gormley, lecture notes, "Extensions".

    Examples
    --------
    >>> from perceptrons.datasets import gormley_example
    >>> X, y = gormley_example()
    >>> clf = VotedPerceptron(fit_intercept=False).fit(X, y)
    >>> clf.vectors_.tolist(), clf.vector_counts_.tolist()
    ([[1.0, -2.0], [2.0, -1.0], [3.0, 1.0]], [2, 2, 8])
    """

    predicts_last_iterate = False

    _log_updates = True
    _parameter_constraints = {
        **LinearPerceptronBase._parameter_constraints,
        "max_vectors": (None, Interval(Integral, 1, None)),
    }

    def __init__(
        self,
        *,
        max_vectors: int | None = None,
        fit_intercept: bool = True,
        max_epochs: int = 10,
        order: Literal["cyclic", "shuffle", "random-mistake"] = "cyclic",
        init: Literal["zeros", "random"] = "zeros",
        margin: float = 0.0,
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        random_state: int | np.random.RandomState | None = None,
        warm_start: bool = False,
    ) -> None:
        self.max_vectors = max_vectors
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.init = init
        self.margin = margin
        self.class_weight = class_weight
        self.random_state = random_state
        self.warm_start = warm_start

    # ------------------------------------------------------------------ collecting the vectors
    # The finished vectors are kept in one of two ways.  Without ``max_vectors`` none is ever
    # dropped: they are stacked in the order made (``_done``, in the attributes' layout), and
    # each fit stacks only the vectors it finished (``_pending``), so that a partial_fit costs
    # its own updates, not all the run's so far (50 partial_fits of 50,000 rows took 24 s
    # restacking).  With ``max_vectors`` they are a heap on survival count (``_closed``), from
    # which the shortest-lived is dropped; once a cap has applied, the heap stays.
    def _init_state(self, d, rng, dtype=np.float64):
        # The vote belongs to the weights' run, not to one call: it starts afresh with the
        # weights (cold fit, first partial_fit) and a warm-started fit continues it, as
        # partial_fit does, so that Σ c_k·w_k / Σ c_k stays the AveragedPerceptron's mean.
        super()._init_state(d, rng, dtype)
        s = self._state
        self.n_vectors_dropped_ = 0
        self._closed = []  # heap of (count, seq, w, b): the longest-surviving finished vectors
        self._done = None  # (vectors, intercepts, counts) finished, in order, or None for none
        self._pending = []  # (count, seq, w, b) finished since _done was last stacked
        self._seq = 0
        self._current = (s.w.copy(), s.b.copy(), int(s.count[0]))  # (w, b, visit counter when it became current)

    def _widen_extra(self):
        w, b, since = self._current
        self._current = (w.astype(np.float64, copy=False), b, since)

    def _record_updates(self, log, Xop, yi, scale):
        # The kernel logged which example updated the weights at which visit; the vectors
        # themselves are rebuilt by replaying those updates with the epoch's own update step.
        w, b, since = self._current
        w, b = w.copy(), b.copy()
        vectors = np.empty((len(log), *w.shape), dtype=w.dtype)
        intercepts = np.empty((len(log), *b.shape), dtype=b.dtype)
        replay = K.replay_binary if self._state.binary else K.replay_multiclass
        replay(Xop, yi, scale, log, w, b, self.fit_intercept, vectors, intercepts)
        w_prev, b_prev = self._current[:2]
        for j, c in enumerate(log[:, 1].tolist()):
            self._close(w_prev, b_prev, c - since)
            # copies, so that the heap never keeps the whole batch alive through views
            w_prev, b_prev, since = vectors[j].copy(), intercepts[j].copy(), c
        self._current = (w_prev, b_prev, since)

    def _close(self, w, b, count):
        if count == 0:  # replaced before it classified anything: it would cast no vote
            return
        self._seq += 1
        if self.max_vectors is None and not self._closed:
            self._pending.append((count, self._seq, w, b))
            return
        if self._done is not None or self._pending:  # a cap now applies: the heap takes them all
            self._closed = self._stacked_items() + self._pending
            heapq.heapify(self._closed)
            self._done, self._pending = None, []
        heapq.heappush(self._closed, (count, self._seq, w, b))
        room = (self.max_vectors - 1) if self.max_vectors is not None else None
        # a while, not an if: a cap set between partial_fits finds more than one too many
        while room is not None and len(self._closed) > room:
            heapq.heappop(self._closed)
            self.n_vectors_dropped_ += 1

    def _layout(self, items):
        """Vectors, intercepts and counts of ``(count, seq, w, b)`` items, in the attributes' layout."""
        binary = self._state.binary
        return (
            np.stack([w if binary else w.T for _, _, w, _ in items]),
            np.stack([b[0] if binary else b for _, _, _, b in items]),
            np.array([c for c, _, _, _ in items], dtype=np.int64),
        )

    def _stacked_items(self):
        """``_done`` as heap items (seq 1, 2, … in their order: all before ``_pending``'s)."""
        if self._done is None:
            return []
        binary = self._state.binary
        V, B, C = self._done
        return [
            (int(c), i + 1, v.copy() if binary else np.ascontiguousarray(v.T), np.array([bb]) if binary else bb.copy())
            for i, (v, bb, c) in enumerate(zip(V, B, C))
        ]

    def _finalize(self):
        super()._finalize()
        w, b, since = self._current
        last = (int(self._state.count[0]) - since, self._seq + 1, w, b)
        if self._closed:
            kept = sorted(self._closed + [last], key=lambda item: item[1])
            if self.max_vectors is not None and len(kept) > self.max_vectors:  # pragma: no cover - _close keeps room
                kept = sorted(kept, key=lambda item: -item[0])[: self.max_vectors]
            self.vectors_, self.vector_intercepts_, self.vector_counts_ = self._layout(kept)
        else:
            if self._pending:
                self._done = _appended(self._done, self._layout(self._pending))
                self._pending = []
            self.vectors_, self.vector_intercepts_, self.vector_counts_ = _appended(self._done, self._layout([last]))
        self.n_vectors_ = self.vectors_.shape[0]

    # ------------------------------------------------------------------ the vote
    def decision_function(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Weighted vote of the kept vectors, each counting as many times as it survived.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Two classes: the sum of the counts of the vectors voting ``classes_[1]`` minus the
            others' (≥ 0 predicts ``classes_[1]``).  More: the counts each class receives.
        """
        check_is_fitted(self)
        X = linear_rows(self, X)
        m = self.vectors_.shape[0]
        binary = self.vectors_.ndim == 2
        k = 1 if binary else self.vectors_.shape[1]
        flat = self.vectors_.reshape(m * k, -1)
        counts = self.vector_counts_.astype(np.float64)
        out = np.zeros(X.shape[0]) if binary else np.zeros((X.shape[0], k))
        step = max(1, (1 << 22) // max(1, m * k))  # rows per block: bounds the (rows, m·K) score matrix
        for start in range(0, X.shape[0], step):
            with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused just below
                scores = X[start : start + step] @ flat.T
                scores = np.asarray(scores).reshape(-1, m, k) + self.vector_intercepts_.reshape(1, m, k)
            # a vote over inf and NaN would be silent nonsense: refused as every estimator does
            finite_scores(scores, flat, first_row=start)
            if binary:
                out[start : start + step] = np.where(scores[:, :, 0] >= 0, 1.0, -1.0) @ counts
            else:
                winner = np.argmax(scores, axis=2)
                rows = scores.shape[0]
                flat_idx = (np.arange(rows)[:, None] * k + winner).ravel()
                out[start : start + rows] = np.bincount(
                    flat_idx, weights=np.tile(counts, rows), minlength=rows * k
                ).reshape(rows, k)
        return out

    def vote_sum(self, X: np.ndarray, lo: int, hi: int) -> np.ndarray:
        """Σ_k c_k·sign(w_k·x + b_k) over the vectors ``lo`` … ``hi - 1`` of a two-class model:
        part of the vote, such as what a report's training curve adds each epoch.

        Each row is scored vector by vector, in the oracle's order; ``decision_function`` keeps
        NumPy's blocked product, which wide rows need.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Dense float64 rows, few enough to stay in cache (a report's: at most 100,000 values).
        lo, hi : int
            The range of ``vectors_`` that vote.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        out = np.zeros(X.shape[0])
        row = KV.binary_votes(
            read_only(np.ascontiguousarray(X.T)),
            read_only(np.ascontiguousarray(self.vectors_[lo:hi])),
            read_only(np.ascontiguousarray(self.vector_intercepts_[lo:hi])),
            read_only(self.vector_counts_[lo:hi].astype(np.float64)),
            out,
            np.empty(X.shape[0]),
        )
        if row >= 0:  # a vote over inf and NaN would be silent nonsense: refused as every estimator does
            raise score_overflow(row, self.vectors_[lo:hi])
        return out

    # ------------------------------------------------------------------ model file
    def _to_state(self):
        meta, arrays = super()._to_state()
        meta["n_vectors_dropped"] = int(self.n_vectors_dropped_)
        arrays.update(
            vectors=self.vectors_, vector_intercepts=self.vector_intercepts_, vector_counts=self.vector_counts_
        )
        return meta, arrays

    def _from_state(self, st):
        super()._from_state(st)
        binary, d, k = self._state.binary, self.n_features_in_, len(self.classes_)
        self.vectors_ = st.array("vectors", FLOATS, (None, d) if binary else (None, k, d))
        m = self.vectors_.shape[0]
        st.require(m >= 1, "vectors", "expected at least one vector")
        self.vector_intercepts_ = st.array("vector_intercepts", FLOATS, (m,) if binary else (m, k))
        self.vector_counts_ = st.array("vector_counts", ("int64",), (m,), lo=0, hi=MAX_VISITS + 1)
        self.n_vectors_ = m
        self.n_vectors_dropped_ = st.int("n_vectors_dropped", hi=MAX_VISITS)
        st.require(
            int(self.vector_counts_[-1]) <= int(self._state.count[0]),
            "vector_counts",
            "the last vector survived more visits than the model made",
        )
        # Resume partial_fit: every stored vector but the last is finished; the last is current.
        binary = self.vectors_.ndim == 2
        self._closed, self._pending, self._seq = [], [], m - 1
        self._done = (self.vectors_[:-1], self.vector_intercepts_[:-1], self.vector_counts_[:-1]) if m > 1 else None
        since = int(self._state.count[0]) - int(self.vector_counts_[-1])
        w = self.vectors_[-1] if binary else self.vectors_[-1].T
        b = np.array([self.vector_intercepts_[-1]]) if binary else self.vector_intercepts_[-1]
        self._current = (np.array(w, order="C"), np.array(b, order="C"), since)
        return self


def _appended(done, more):
    """(vectors, intercepts, counts) ``done`` (None for none) followed by ``more``."""
    return more if done is None else tuple(np.concatenate(p) for p in zip(done, more))
