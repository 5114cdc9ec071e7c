"""Winnow: multiplicative updates (Littlestone 1988)."""

from __future__ import annotations

import math
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.params import Interval, Kind, Options
from perceptrons.online.learner import COMMON_CONSTRAINTS, OnlineLearner

if TYPE_CHECKING:
    from typing import Any, Literal


class Winnow(OnlineLearner):
    r"""Winnow: weights that start at 1 and are multiplied, not added to, on a mistake, which
    learns a target of few relevant features among many with few mistakes.

    Positive Winnow (``balanced=False``, Littlestone's WINNOW2) predicts the positive class when
    :math:`w\cdot x \ge \theta` and on a mistake multiplies each weight by
    :math:`\alpha^{y x_j}` (promotes the features of a missed positive, demotes those of a false
    positive).  Balanced Winnow keeps a second, negative set of weights and predicts with
    :math:`(w^+ - w^-)\cdot x \ge \theta`; on a mistake

    .. math::

        w^+_j \leftarrow w^+_j\,\alpha^{y x_j},\qquad w^-_j \leftarrow w^-_j\,\alpha^{-y x_j},

    so features can weigh against a class.  The bias is a constant feature 1 with its own
    weights.  More than two classes: the true class's weights of the row's features are
    promoted and the runner-up's demoted (the threshold cancels).

    Parameters
    ----------
    alpha : float, default=2.0
        The promotion factor (> 1); 1/α demotes.
    threshold : float or "auto", default="auto"
        θ.  ``"auto"``: the number of features for positive Winnow (Littlestone's choice for
        Boolean features), 0 for balanced Winnow (its bias weights learn a threshold).
    balanced : bool, default=True
    fit_intercept, max_epochs, order, class_weight, random_state, warm_start, n_jobs, mix_every
        As in :class:`~perceptrons.PassiveAggressive`; a sample or class weight raises the
        factor to its power.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        :math:`w^+ - w^-` (positive Winnow: :math:`w`).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias weights less θ.
    threshold_ : float
        θ as used.
    classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_
        As in :class:`~perceptrons.PassiveAggressive` (every update is a mistake).

    Notes
    -----
    Littlestone's bounds are for Boolean features (0/1); real values are accepted and act as
    exponents.  Many mistakes on the same feature can overflow its weight: the fit then stops
    with the row named.

    References
    ----------
    Littlestone, N. (1988). "Learning Quickly When Irrelevant Attributes Abound: A New
    Linear-threshold Algorithm". Machine Learning 2, 285-318; §5 (WINNOW1, WINNOW2).
    Littlestone, N. (1989). "Mistake Bounds and Logarithmic Linear-threshold Learning
    Algorithms". PhD thesis, UC Santa Cruz (balanced Winnow).

    Examples
    --------
    >>> from perceptrons import Winnow
    >>> X = [[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 0, 1]]
    >>> Winnow().fit(X, [1, 1, 0, 0]).predict(X).tolist()
    [1, 1, 0, 0]
    """

    _parameter_constraints = {
        **COMMON_CONSTRAINTS,
        "alpha": (Interval(Real, 1.0, None, closed="neither"),),
        "threshold": (Interval(Real, None, None), Options("auto")),
        "balanced": (Kind(bool, "a bool"),),
    }

    def __init__(
        self,
        *,
        alpha: float = 2.0,
        threshold: float | Literal["auto"] = "auto",
        balanced: bool = True,
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
        self.threshold = threshold
        self.balanced = balanced
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.class_weight = class_weight
        self.random_state = random_state
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.mix_every = mix_every

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # positive Winnow weighs every feature for the positive class: on real-valued features
        # of either sign it cannot reach the training accuracy scikit-learn's checks ask
        tags.classifier_tags.poor_score = not self.balanced
        return tags

    def rule_name(self) -> str:
        """``"winnow-balanced"`` or ``"winnow-positive"``.

        Returns
        -------
        str
        """
        return "winnow-balanced" if self.balanced else "winnow-positive"

    def hyper(self) -> tuple[float, ...]:
        """``(ln α, θ)``.

        Returns
        -------
        tuple of float
        """
        return (math.log(self.alpha), self.threshold_)

    def extra_shape(self, n_features: int, n_classes: int) -> tuple[int, ...] | None:
        """The negative weights of balanced Winnow, the bias's last: (d + 1,) or (d + 1, K).

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        tuple of int or None
        """
        if not self.balanced:
            return None
        return (n_features + 1,) if n_classes == 2 else (n_features + 1, n_classes)

    def state_problem(self, w: np.ndarray, extra: np.ndarray) -> tuple[str, str] | None:
        """Multiplicative updates keep every weight, positive or negative part, at least 0.

        Parameters
        ----------
        w, extra : ndarray

        Returns
        -------
        tuple of (str, str) or None
        """
        for field, a in (("state_w", w), ("state_extra", extra)):
            if a.size and a.min() < 0:
                return field, f"Winnow's weights are at least 0, got {a.min():.6g}"
        return None

    def initial_extra(self, n_features: int, n_classes: int) -> np.ndarray:
        """Ones (balanced), or nothing.

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        ndarray
        """
        shape = self.extra_shape(n_features, n_classes)
        return np.zeros(0) if shape is None else np.ones(shape)

    def initial_weights(self, n_features: int, n_classes: int) -> float:
        """1, with θ set for these data.

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        float
        """
        self.threshold_ = self._threshold(n_features)
        return 1.0

    def _threshold(self, n_features):
        if self.threshold != "auto":
            return float(self.threshold)
        return 0.0 if self.balanced else float(n_features)

    def _weights(self):
        s = self._state
        w, b = s.w, s.b.copy() if self.fit_intercept else np.zeros_like(s.b)
        if self.balanced:
            d = w.shape[0]
            w = w - s.extra[:d]
            if self.fit_intercept:
                b -= s.extra[d]
        return w, b - self.threshold_

    def _from_state(self, st):
        super()._from_state(st)
        self.threshold_ = self._threshold(self.n_features_in_)
        return self
