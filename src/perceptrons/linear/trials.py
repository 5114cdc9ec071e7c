"""Any linear learner's online run, one trial at a time, through the training protocol.

A mistake bound is about trials: which were mistakes, which updated, and what the weights were
after each.  ``partial_fit`` on one row at a time would say so too, but each call validates its
input as scikit-learn does (about a millisecond a row); here the rows are checked once and each
trial is the protocol's pure step (:func:`perceptrons.linear.trainer.step`) over that one row, the
very compiled loop ``fit`` runs, so a run of trials and a fit cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from perceptrons._core.labels import fit_labels, sample_scale
from perceptrons._core.operands import to_operand
from perceptrons.linear.trainer import nonfinite_score_error, step

if TYPE_CHECKING:
    from collections.abc import Iterator

    from numpy.typing import ArrayLike
    from sklearn.base import BaseEstimator

    from perceptrons.linear.trainer import LinearState


class Trial(NamedTuple):
    """One trial of an online run.

    Attributes
    ----------
    t : int
        Its position in the sequence (from 0): pass ``t // n``, row ``t % n``.
    row : int
    mistake : bool
        The prediction was wrong (a score of exactly 0 included, as the learners count).
    updated : bool
        The weights changed (a margin rule also updates on some rows it predicted right).
    state : LinearState
        The state after the trial.  It is the run's own and changes at the next trial: copy
        what is kept.
    """

    t: int
    row: int
    mistake: bool
    updated: bool
    state: LinearState


class _Rows(NamedTuple):  # the shard the pure step reads
    X: object
    yi: np.ndarray
    scale: np.ndarray


def online_trials(model: BaseEstimator, X: ArrayLike, y: ArrayLike, *, passes: int = 1) -> Iterator[Trial]:
    """Run ``model``'s algorithm over ``(X, y)`` in order, ``passes`` times, from its start.

    Parameters
    ----------
    model : linear estimator of perceptrons
        Its class and parameters set the algorithm (a fitted model is not changed); its
        ``order`` is taken as cyclic, and ``class_weight`` scales the steps as in ``fit``.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    passes : int, default=1

    Yields
    ------
    Trial
        One per row and pass.

    Raises
    ------
    PerceptronsError
        Invalid data or parameters, as ``fit`` refuses them, or a score that overflowed.

    References
    ----------
    Littlestone (1988): the online model of trials, each a prediction, then the label.

    Examples
    --------
    >>> from perceptrons import Perceptron
    >>> X, y = [[2.0, 1.0], [-1.0, -2.0], [1.0, 3.0]], [1, 0, 1]
    >>> [(tr.row, tr.mistake) for tr in online_trials(Perceptron(), X, y, passes=2)]
    [(0, True), (1, False), (2, False), (0, False), (1, False), (2, False)]
    """
    from sklearn.base import clone

    est = clone(model).set_params(order="cyclic", warm_start=False)
    est.check_training("memory")
    X, y = est.check_data(X, y)
    classes, yi = fit_labels(y)
    rows = _Rows(to_operand(X), yi, sample_scale(None, est.get_params().get("class_weight"), yi, classes, yi.shape[0]))
    state = est.begin(X.shape[1], classes, X.dtype.type if X.dtype == np.float32 else np.float64)
    params = est.step_params(0)
    n = yi.shape[0]
    for t in range(passes * n):
        # the part (i, n) of an epoch's order is row i alone
        state, (mistakes, updates) = step(params, state, rows, t // n + 1, 0, (t % n, n))
        if mistakes < 0:
            raise nonfinite_score_error(rows.X, t % n, rows.scale)
        yield Trial(t, t % n, mistakes > 0, updates > 0, state)
