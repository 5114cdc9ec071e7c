"""ROMMA, the relaxed online maximum margin algorithm (Li & Long 2002)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.params import Kind
from perceptrons.online.learner import COMMON_CONSTRAINTS, OnlineLearner, scaled_state_problem

if TYPE_CHECKING:
    from typing import Any, Literal


class ROMMA(OnlineLearner):
    r"""ROMMA: on a mistake, the shortest weight vector that classifies the example with margin
    1 and lies in the half-space the previous vector defined (a relaxation of the maximum margin
    problem over every example seen).

    On a mistake (:math:`y\,w\cdot x \le 0`; aggressive: :math:`< 1`), from :math:`w = 0` the
    first update sets :math:`w = y x/\|x\|^2`; later ones

    .. math::

        w \leftarrow c\, w + d\, y\, x

        D = \|x\|^2\|w\|^2 - (w\cdot x)^2

        c = \bigl(\|x\|^2\|w\|^2 - y\,(w\cdot x)\bigr) / D

        d = \|w\|^2\,\bigl(1 - y\,(w\cdot x)\bigr) / D

    Where :math:`D` vanishes (x parallel to w) the first update is made again.

    Parameters
    ----------
    aggressive : bool, default=False
        Update on every example with margin below 1, not only on mistakes (aggressive ROMMA).
    fit_intercept, max_epochs, order, class_weight, random_state, warm_start, n_jobs, mix_every
        As in :class:`~perceptrons.PassiveAggressive`; a sample or class weight scales ``d``.

    Attributes
    ----------
    coef_, intercept_, classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_
        As in :class:`~perceptrons.PassiveAggressive`.

    References
    ----------
    Li, Y. and Long, P. M. (2002). "The Relaxed Online Maximum Margin Algorithm". Machine
    Learning 46, 361-387; §3 (the update), §5 (aggressive ROMMA).

    Examples
    --------
    >>> from perceptrons import ROMMA
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, -1.0]]
    >>> ROMMA(aggressive=True).fit(X, [1, 1, 0, 0]).predict([[3.0, 2.0], [-3.0, -2.0]]).tolist()
    [1, 0]
    """

    _parameter_constraints = {**COMMON_CONSTRAINTS, "aggressive": (Kind(bool, "a bool"),)}

    def __init__(
        self,
        *,
        aggressive: bool = False,
        fit_intercept: bool = True,
        max_epochs: int = 10,
        order: Literal["cyclic", "shuffle"] = "cyclic",
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        random_state: int | np.random.RandomState | None = None,
        warm_start: bool = False,
        n_jobs: int | None = None,
        mix_every: int | None = None,
    ) -> None:
        self.aggressive = aggressive
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.class_weight = class_weight
        self.random_state = random_state
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.mix_every = mix_every

    def extra_shape(self, n_features: int, n_classes: int) -> tuple[int, ...]:
        """``(3,)``: unused, the weights' scale within an epoch and their squared norm
        (:mod:`perceptrons._jit.scaled`).

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        tuple of int or None
        """
        return (3,)

    state_problem = scaled_state_problem

    def initial_extra(self, n_features: int, n_classes: int) -> np.ndarray:
        """The scale 1, the norm not known.

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        ndarray
        """
        return np.array([1.0, 1.0, -1.0])

    def rule_name(self) -> str:
        """``"romma"`` or ``"romma-aggressive"``.

        Returns
        -------
        str
        """
        return "romma-aggressive" if self.aggressive else "romma"
