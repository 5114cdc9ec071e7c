"""ALMA, the approximate large margin algorithm (Gentile 2001), for p = 2."""

from __future__ import annotations

import math
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.params import Interval
from perceptrons.online.learner import COMMON_CONSTRAINTS, OnlineLearner, scaled_state_problem

if TYPE_CHECKING:
    from typing import Any, Literal


class ALMA(OnlineLearner):
    r"""ALMA₂: a perceptron with a margin that shrinks as it learns and a weight vector kept in
    the unit ball, which approaches the maximal margin hyperplane.

    Each example is normalised, :math:`\hat x = x/\|x\|`.  With :math:`k` the updates so far
    plus one, an example with :math:`y\, w\cdot\hat x \le (1 - \alpha)\,\gamma_k` updates

    .. math::

        \gamma_k = \frac{B}{\sqrt{k}},\qquad \eta_k = \frac{C}{\sqrt{k}},\qquad
        w \leftarrow \frac{w + \eta_k\, y\, \hat x}{\max(1, \|w + \eta_k\, y\, \hat x\|)}.

    On data separable with margin :math:`\gamma^*`, ALMA's margin tends to at least
    :math:`(1 - \alpha)\gamma^*` (Gentile 2001, Theorem 3).

    Parameters
    ----------
    alpha : float, default=0.9
        The approximation, in (0, 1]: 1 is a perceptron-like rule with no margin, smaller
        asks for a larger margin (and makes more updates).
    B : float, optional
        Default :math:`1/\alpha`, the paper's choice.
    C : float, default=√2
        The paper's choice.
    fit_intercept, max_epochs, order, class_weight, random_state, warm_start, n_jobs, mix_every
        As in :class:`~perceptrons.PassiveAggressive`; a sample or class weight scales the step.

    Attributes
    ----------
    coef_, intercept_, classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_
        As in :class:`~perceptrons.PassiveAggressive`.

    Notes
    -----
    The update rescales the whole weight vector; it is kept as a scalar times a vector inside
    each pass, so an update costs the features of its row.  More than two classes: the joint
    vector of the true class and the runner-up.  No averaged version: the iterates are already
    normalised, and the paper analyses the last one.

    References
    ----------
    Gentile, C. (2001). "A New Approximate Maximal Margin Classification Algorithm". Journal of
    Machine Learning Research 2, 213-242; Fig. 1 (ALMA_p), Theorem 3.

    Examples
    --------
    >>> from perceptrons import ALMA
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, -1.0]]
    >>> ALMA().fit(X, [1, 1, 0, 0]).predict([[3.0, 2.0], [-3.0, -2.0]]).tolist()
    [1, 0]
    """

    _parameter_constraints = {
        **COMMON_CONSTRAINTS,
        "alpha": (Interval(Real, 0.0, 1.0, closed="right"),),
        "B": (None, Interval(Real, 0.0, None, closed="neither")),
        "C": (Interval(Real, 0.0, None, closed="neither"),),
    }
    rule = "alma"

    def __init__(
        self,
        *,
        alpha: float = 0.9,
        B: float | None = None,
        C: float = math.sqrt(2.0),
        fit_intercept: bool = True,
        max_epochs: int = 10,
        order: Literal["cyclic", "shuffle"] = "cyclic",
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        random_state: int | np.random.RandomState | None = None,
        warm_start: bool = False,
        n_jobs: int | None = None,
        mix_every: int | None = None,
    ) -> None:
        self.alpha = alpha
        self.B = B
        self.C = C
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.class_weight = class_weight
        self.random_state = random_state
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.mix_every = mix_every

    def hyper(self) -> tuple[float, ...]:
        """``(α, B, C)``.

        Returns
        -------
        tuple of float
        """
        B = 1.0 / self.alpha if self.B is None else self.B
        return (float(self.alpha), float(B), float(self.C))

    def extra_shape(self, n_features: int, n_classes: int) -> tuple[int, ...]:
        """``(3,)``: k (the updates so far plus one), the weights' scale within an epoch and
        their squared norm (:mod:`perceptrons._jit.scaled`).

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        tuple of int or None
        """
        return (3,)

    def state_problem(self, w: np.ndarray, extra: np.ndarray) -> tuple[str, str] | None:
        """The update count k is at least 1, the scale positive, the squared norm −1 (not known) or ≥ 0.

        Parameters
        ----------
        w, extra : ndarray

        Returns
        -------
        tuple of (str, str) or None
        """
        if extra[0] < 1:
            return "state_extra", f"the update count k must be at least 1, got {extra[0]:.6g}"
        return scaled_state_problem(self, w, extra)

    def initial_extra(self, n_features: int, n_classes: int) -> np.ndarray:
        """The update count 1, the scale 1, the norm not known.

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        ndarray
        """
        return np.array([1.0, 1.0, -1.0])
