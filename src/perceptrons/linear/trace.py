"""Every update of a PLA run, as the lecture notes show it: example, prediction, w_k → w_{k+1}.

The run is the estimator's own (the same compiled loop, with its update log switched on); the
intermediate weight vectors are replayed from that log, so the trace and ``Perceptron.fit``
cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.params import check_bool
from perceptrons.linear.perceptron import Perceptron

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Literal

    from numpy.typing import ArrayLike


@dataclass(frozen=True)
class Update:
    """One update of the PLA.

    ``w_before``/``w_after`` have shape (d,) for two classes (``b`` scalars), (K, d) otherwise;
    ``score`` is y·(w·x + b) for two classes, the true class's score minus the runner-up's otherwise.
    """

    k: int
    epoch: int
    index: int
    x: np.ndarray
    label: object
    score: float
    w_before: np.ndarray
    b_before: np.ndarray
    w_after: np.ndarray
    b_after: np.ndarray


class _TracingPerceptron(Perceptron):
    _log_updates = True

    def _start_fit(self, X, Xop, yi, scale):
        self.initial_ = (self._state.w.copy(), self._state.b.copy())
        self.log_ = []

    def _record_updates(self, log, Xop, yi, scale):
        # per epoch, the rows updated on and the runners-up, as arrays: 16 bytes an update, so a
        # long run's log stays small (the updates themselves are replayed from it one at a time)
        epoch = len(self.mistakes_per_epoch_) + 1
        self.log_.append((epoch, log[:, 0].copy(), log[:, 2].copy()))


def trace_updates(
    X: ArrayLike,
    y: ArrayLike,
    *,
    fit_intercept: bool = True,
    max_epochs: int = 1000,
    order: Literal["cyclic", "shuffle", "random-mistake"] = "cyclic",
    init: Literal["zeros", "random"] = "zeros",
    margin: float = 0.0,
    random_state: int | np.random.RandomState | None = None,
    lazy: bool = False,
) -> tuple[Perceptron, list[Update] | Iterator[Update]]:
    """Run the PLA and return its fitted estimator and every :class:`Update`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    fit_intercept, max_epochs, order, init, margin, random_state
        As in :class:`perceptrons.Perceptron`.
    lazy : bool, default=False
        Return the updates as an iterator that replays them one at a time, in memory of a few
        weight vectors, instead of a list holding four vectors an update (a run on a9a makes
        ~5,000 updates an epoch).

    Returns
    -------
    estimator : Perceptron
    updates : list of Update, or an iterator of them with ``lazy=True``

    Examples
    --------
    >>> from perceptrons.datasets import gormley_example
    >>> X, y = gormley_example()
    >>> _, ups = trace_updates(X, y, fit_intercept=False)
    >>> [u.w_after.tolist() for u in ups]
    [[1.0, -2.0], [2.0, -1.0], [3.0, 1.0]]
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    lazy = check_bool(lazy, "lazy")
    est = _TracingPerceptron(
        fit_intercept=fit_intercept,
        max_epochs=max_epochs,
        order=order,
        init=init,
        margin=margin,
        random_state=random_state,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
    updates = _replay(est, np.asarray(X, dtype=np.float64), np.searchsorted(est.classes_, np.asarray(y)))
    return est, (updates if lazy else list(updates))


def _replay(est, X, yi):
    """The updates of ``est``'s run, rebuilt from its log on the same float64 values."""
    w, b = (a.copy() for a in est.initial_)
    binary = w.ndim == 1
    k = 0
    for epoch, rows, runners in est.log_:
        for i, runner in zip(rows.tolist(), runners.tolist()):
            k += 1
            x = X[i]
            w_before, b_before = w.copy(), b.copy()
            if binary:
                sign = 1.0 if yi[i] == 1 else -1.0
                score = sign * (x @ w + b[0])
                w += sign * x
                if est.fit_intercept:
                    b += sign
            else:
                scores = x @ w + b
                true = yi[i]
                score = scores[true] - scores[runner]
                w[:, true] += x
                w[:, runner] -= x
                if est.fit_intercept:
                    b[true] += 1.0
                    b[runner] -= 1.0
            yield Update(
                k,
                epoch,
                i,
                x.copy(),
                est.classes_[yi[i]],
                float(score) + 0.0,
                _public(w_before),
                b_before,
                _public(w),
                b.copy(),
            )


def _public(w):
    return w.copy() if w.ndim == 1 else np.ascontiguousarray(w.T)
