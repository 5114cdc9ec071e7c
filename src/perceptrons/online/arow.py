"""Adaptive regularization of weight vectors (Crammer, Kulesza & Dredze 2009)."""

from __future__ import annotations

from numbers import Real
from typing import TYPE_CHECKING

from perceptrons._core.params import Interval, Kind
from perceptrons.online.learner import COMMON_CONSTRAINTS, COVARIANCE, OnlineLearner

if TYPE_CHECKING:
    from typing import Any, Literal

    import numpy as np


class AROW(OnlineLearner):
    r"""AROW: a Gaussian over the weights, its mean moved and its covariance shrunk by each
    example below margin 1.

    With :math:`m = y\,(\mu\cdot x)` and :math:`v = x^\top\Sigma x`, an example with
    :math:`m < 1` updates

    .. math::

        \beta = \frac{1}{v + r},\qquad \alpha = (1 - m)\,\beta,\qquad
        \mu \leftarrow \mu + \alpha\, y\, \Sigma x,\qquad
        \Sigma \leftarrow \Sigma - \beta\, \Sigma x x^\top \Sigma,

    from :math:`\mu = 0`, :math:`\Sigma = I`.  Features seen often get small variances and move
    little; rare ones keep large steps.  The bias is the weight of a constant feature 1 with a
    variance of its own.  More than two classes: the joint vector of the true class and the
    runner-up, with each class's variances (a diagonal Σ).

    Parameters
    ----------
    r : float, default=1.0
        The regularization (> 0): larger is more conservative.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        The full Σ (O(d²) memory and per update) or its diagonal (O(features of the row)).
        ``"auto"``: full for two classes and at most 1000 features, diagonal otherwise (the
        diagonal is the paper's choice for text).  ``covariance_`` says which ran.
    average : bool, default=False
        Predict with the mean of the weight vectors held after each example.
    fit_intercept, max_epochs, order, class_weight, random_state, warm_start, n_jobs, mix_every
        As in :class:`~perceptrons.PassiveAggressive`; a sample or class weight ``a`` scales
        the example's loss: its update is AROW's with ``r/a``, mean and covariance alike.

    Attributes
    ----------
    coef_, intercept_, classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_
        As in :class:`~perceptrons.PassiveAggressive`.
    covariance_ : {"full", "diagonal"}

    References
    ----------
    Crammer, K., Kulesza, A. and Dredze, M. (2009). "Adaptive Regularization of Weight Vectors".
    Advances in Neural Information Processing Systems 22; Fig. 1 (the update), §4 (diagonal).

    Examples
    --------
    >>> from perceptrons import AROW
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, -1.0]]
    >>> clf = AROW().fit(X, [1, 1, 0, 0])
    >>> clf.covariance_, clf.predict([[3.0, 2.0], [-3.0, -2.0]]).tolist()
    ('full', [1, 0])
    """

    _parameter_constraints = {
        **COMMON_CONSTRAINTS,
        "r": (Interval(Real, 0.0, None, closed="neither"),),
        "covariance": COVARIANCE,
        "average": (Kind(bool, "a bool"),),
    }
    rule = "arow"
    second_order = True

    def __init__(
        self,
        *,
        r: float = 1.0,
        covariance: Literal["auto", "full", "diagonal"] = "auto",
        average: bool = False,
        fit_intercept: bool = True,
        max_epochs: int = 10,
        order: Literal["cyclic", "shuffle"] = "cyclic",
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        random_state: int | np.random.RandomState | None = None,
        warm_start: bool = False,
        n_jobs: int | None = None,
        mix_every: int | None = None,
    ) -> None:
        self.r = r
        self.covariance = covariance
        self.average = average
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.class_weight = class_weight
        self.random_state = random_state
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.mix_every = mix_every

    def hyper(self) -> tuple[float, ...]:
        """``(r, 0)``.

        Returns
        -------
        tuple of float
        """
        return (float(self.r), 0.0)
