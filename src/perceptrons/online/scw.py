"""Exact soft confidence-weighted learning (Wang, Zhao & Hoi 2012)."""

from __future__ import annotations

from numbers import Real
from typing import TYPE_CHECKING

from perceptrons._core.params import Interval, Kind, Options
from perceptrons.online.confidence_weighted import confidence_quantile
from perceptrons.online.learner import COMMON_CONSTRAINTS, COVARIANCE, OnlineLearner

if TYPE_CHECKING:
    from typing import Any, Literal

    import numpy as np


class SCW(OnlineLearner):
    r"""Soft confidence-weighted learning, SCW-I and SCW-II: confidence-weighted updates with a
    soft margin, so that a noisy label moves the weights a bounded amount.

    With :math:`m = y\,(\mu\cdot x)`, :math:`v = x^\top\Sigma x`, :math:`\phi = \Phi^{-1}(\eta)`,
    :math:`\psi = 1 + \phi^2/2`, :math:`\zeta = 1 + \phi^2`, an example with loss
    :math:`\max(0, \phi\sqrt{v} - m) > 0` updates :math:`\mu \leftarrow \mu + \alpha y \Sigma x`,
    :math:`\Sigma \leftarrow \Sigma - \beta \Sigma x x^\top \Sigma` with

    .. math::

        \text{SCW-I:}\ \alpha = \min\bigl(C, \max(0, \alpha_{\mathrm{CW}})\bigr),\quad
        \alpha_{\mathrm{CW}} = \frac{-m\psi + \sqrt{m^2\phi^4/4 + v\phi^2\zeta}}{v\zeta}

        \text{SCW-II:}\ \alpha = \max\Bigl(0, \frac{-(2mn + \phi^2 m v) + \gamma}{2(n^2 + nv\phi^2)}\Bigr)

        n = v + \frac{1}{2C},\qquad \gamma = \phi\sqrt{\phi^2 m^2 v^2 + 4nv(n + v\phi^2)}

        u = \tfrac14\bigl(-\alpha v\phi + \sqrt{\alpha^2 v^2\phi^2 + 4v}\bigr)^2

        \beta = \frac{\alpha\phi}{\sqrt{u} + v\alpha\phi}

    from :math:`\mu = 0`, :math:`\Sigma = I`.

    Parameters
    ----------
    variant : {"I", "II"}, default="I"
        SCW-I (the step capped by ``C``) or SCW-II (the step softened by ``C``).
    C : float, default=1.0
        The aggressiveness (> 0).
    eta : float, default=0.7
        The confidence, in (0.5, 1).  0.7 (φ ≈ 0.52) is the choice of LIBOL and SOL; a
        confidence near 1 makes each update collapse the variance along its example, which on
        noisy data leaves the weights stuck.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        As in :class:`~perceptrons.AROW`.
    average : bool, default=False
    fit_intercept, max_epochs, order, class_weight, random_state, warm_start, n_jobs, mix_every
        As in :class:`~perceptrons.AROW`; a sample or class weight ``a`` scales the example's
        loss: its update is SCW's with ``a·C``.

    Attributes
    ----------
    coef_, intercept_, classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_, covariance_
        As in :class:`~perceptrons.AROW`.

    References
    ----------
    Wang, J., Zhao, P. and Hoi, S. C. H. (2012). "Exact Soft Confidence-Weighted Learning".
    Proceedings of the 29th International Conference on Machine Learning, §4 (SCW-I, SCW-II).

    Examples
    --------
    >>> from perceptrons import SCW
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, -1.0]]
    >>> SCW(variant="II").fit(X, [1, 1, 0, 0]).predict([[3.0, 2.0], [-3.0, -2.0]]).tolist()
    [1, 0]
    """

    _parameter_constraints = {
        **COMMON_CONSTRAINTS,
        "variant": (Options("I", "II"),),
        "C": (Interval(Real, 0.0, None, closed="neither"),),
        "eta": (Interval(Real, 0.5, 1.0, closed="neither"),),
        "covariance": COVARIANCE,
        "average": (Kind(bool, "a bool"),),
    }
    second_order = True

    def __init__(
        self,
        *,
        variant: Literal["I", "II"] = "I",
        C: float = 1.0,
        eta: float = 0.7,
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
        self.variant = variant
        self.C = C
        self.eta = eta
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

    def rule_name(self) -> str:
        """``"scw1-…"`` or ``"scw2-…"`` with the covariance that runs.

        Returns
        -------
        str
        """
        return f"scw{len(self.variant)}-{self.covariance_}"

    def hyper(self) -> tuple[float, ...]:
        """``(C, φ)``.

        Returns
        -------
        tuple of float
        """
        return (float(self.C), confidence_quantile(self.eta))
