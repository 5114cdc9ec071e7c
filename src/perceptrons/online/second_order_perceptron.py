"""The second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005)."""

from __future__ import annotations

from numbers import Real
from typing import TYPE_CHECKING

from perceptrons._core.params import Interval, Kind
from perceptrons.online.learner import COMMON_CONSTRAINTS, COVARIANCE, OnlineLearner

if TYPE_CHECKING:
    from typing import Any, Literal

    import numpy as np


class SecondOrderPerceptron(OnlineLearner):
    r"""The second-order perceptron: the perceptron's mistake-driven updates, its weights
    whitened by the correlation of the examples it erred on.

    It keeps :math:`v = \sum y_s x_s` and :math:`A = aI + \sum x_s x_s^\top` over the mistakes
    :math:`s` so far, and predicts :math:`\mathrm{sign}\bigl(v^\top (A + x x^\top)^{-1} x\bigr)`,
    whose sign is that of :math:`(A^{-1} v)\cdot x`.  So it keeps :math:`\Sigma = A^{-1}` and
    :math:`w = \Sigma v` (by Sherman–Morrison), and on a mistake (:math:`m = y\,(w\cdot x) \le 0`,
    :math:`q = x^\top \Sigma x`):

    .. math::

        w \leftarrow w + \frac{1 - m}{1 + q}\, y\, \Sigma x,\qquad
        \Sigma \leftarrow \Sigma - \frac{\Sigma x x^\top \Sigma}{1 + q}.

    Parameters
    ----------
    a : float, default=1.0
        The regularization of A (> 0); Σ starts at :math:`I/a`.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        As in :class:`~perceptrons.AROW` (the diagonal keeps A's diagonal).
    average : bool, default=False
    fit_intercept, max_epochs, order, class_weight, random_state, warm_start, n_jobs, mix_every
        As in :class:`~perceptrons.AROW`; a sample or class weight ``a`` counts the example
        ``a`` times in the sums behind Σ and the weights (the update with ``1/a`` in place of 1).

    Attributes
    ----------
    coef_, intercept_, classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_, covariance_
        As in :class:`~perceptrons.AROW`.

    References
    ----------
    Cesa-Bianchi, N., Conconi, A. and Gentile, C. (2005). "A Second-Order Perceptron
    Algorithm". SIAM Journal on Computing 34(3), 640-668; Fig. 1 and Theorem 1.

    Examples
    --------
    >>> from perceptrons import SecondOrderPerceptron
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, -1.0]]
    >>> SecondOrderPerceptron().fit(X, [1, 1, 0, 0]).predict([[3.0, 2.0], [-3.0, -2.0]]).tolist()
    [1, 0]
    """

    _parameter_constraints = {
        **COMMON_CONSTRAINTS,
        "a": (Interval(Real, 0.0, None, closed="neither"),),
        "covariance": COVARIANCE,
        "average": (Kind(bool, "a bool"),),
    }
    rule = "sop"
    second_order = True

    def __init__(
        self,
        *,
        a: float = 1.0,
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
        self.a = a
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
        """``(0, 0)``: the rule has no parameter beyond Σ₀.

        Returns
        -------
        tuple of float
        """
        return (0.0, 0.0)

    def initial_variance(self) -> float:
        """``1/a``.

        Returns
        -------
        float
        """
        return 1.0 / float(self.a)
