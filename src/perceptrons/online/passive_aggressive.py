"""Online passive-aggressive learning (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006)."""

from __future__ import annotations

from numbers import Real
from typing import TYPE_CHECKING

from perceptrons._core.params import Interval, Kind, Options
from perceptrons.online.learner import COMMON_CONSTRAINTS, OnlineLearner

if TYPE_CHECKING:
    from typing import Any, Literal

    import numpy as np


class PassiveAggressive(OnlineLearner):
    r"""Passive-aggressive classifier: PA, PA-I and PA-II, two classes or more.

    On each example the hinge loss :math:`\ell = \max(0, 1 - y\,(w\cdot x + b))` is computed;
    with no loss the learner is passive, otherwise it moves the least distance that puts the
    example at margin 1 (PA), capped by ``C`` (PA-I) or softened by it (PA-II):

    .. math::

        w \leftarrow w + \tau\, y\, x,\qquad
        \tau = \frac{\ell}{\|x\|^2}\ \text{(PA)},\quad
        \min\Bigl(C, \frac{\ell}{\|x\|^2}\Bigr)\ \text{(PA-I)},\quad
        \frac{\ell}{\|x\|^2 + \frac{1}{2C}}\ \text{(PA-II)}.

    The bias is the weight of a constant feature 1 (so :math:`\|x\|^2` counts it).  With more
    than two classes, the margin is the true class's score minus the best other class's, and the
    update adds :math:`\tau x` to the true class and takes it from that runner-up, with
    :math:`\|x\|^2` doubled (the norm of the joint feature vector; §7 of the paper).

    Parameters
    ----------
    variant : {"pa", "pa1", "pa2"}, default="pa1"
        PA, PA-I or PA-II.  PA-I is the default: on data that are not separable, PA's steps grow
        without bound on outliers, and PA-I's are capped.
    C : float, default=1.0
        The aggressiveness of PA-I and PA-II (> 0): the largest step (PA-I), or the weight of
        the loss against the step (PA-II).  Not used by PA.
    average : bool, default=False
        Predict with the mean of the weight vectors held after each example (as
        :class:`~perceptrons.AveragedPerceptron` does), kept lazily.
    fit_intercept : bool, default=True
    max_epochs : int, default=10
        Passes over the data.  An epoch without an update (every example at margin ≥ 1) ends
        training early.
    order : {"cyclic", "shuffle"}, default="cyclic"
    class_weight : dict, "balanced" or None, default=None
        Multiplies each example's step by its class's weight (sample weights too).
    random_state : int, RandomState or None, default=None
        Seeds ``order="shuffle"``.
    warm_start : bool, default=False
    n_jobs : int or None, default=None
        Threads to train in (:doc:`/threads`): each trains an S-th of every epoch from the mixed
        weights, and the copies (their second-order state too) are mixed after it; as in
        :class:`~perceptrons.Perceptron`.
    mix_every : int or None, default=None
        Rows a thread trains on between two mixes, as in :class:`~perceptrons.Perceptron`.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    n_updates_ : int
        Examples with a positive loss (each made an update).
    mistakes_per_epoch_ : list of int
        Examples predicted wrong in each epoch, before their update.
    n_epochs_ : int
    converged_ : bool
        Whether the last epoch made no update.

    See Also
    --------
    perceptrons.online.sklearn_pa.PassiveAggressiveClassifier :
        scikit-learn's class of the same name, its parameters and results.

    Notes
    -----
    A row of zeros (with ``fit_intercept=False``) has no direction to move along and is
    skipped.  A score of exactly 0 counts as a mistake, as for the perceptron.

    References
    ----------
    Crammer, K., Dekel, O., Keshet, J., Shalev-Shwartz, S. and Singer, Y. (2006). "Online
    Passive-Aggressive Algorithms". Journal of Machine Learning Research 7, 551-585; Fig. 1
    (the three updates), §7 (multiclass).

    Examples
    --------
    >>> from perceptrons import PassiveAggressive
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, -1.0]]
    >>> clf = PassiveAggressive(variant="pa").fit(X, [1, 1, 0, 0])
    >>> clf.predict([[3.0, 2.0], [-3.0, -2.0]]).tolist()
    [1, 0]
    """

    _parameter_constraints = {
        **COMMON_CONSTRAINTS,
        "variant": (Options("pa", "pa1", "pa2"),),
        "C": (Interval(Real, 0.0, None, closed="neither"),),
        "average": (Kind(bool, "a bool"),),
    }

    def __init__(
        self,
        *,
        variant: Literal["pa", "pa1", "pa2"] = "pa1",
        C: float = 1.0,
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
        """``"pa"``, ``"pa1"`` or ``"pa2"``: the variant.

        Returns
        -------
        str
        """
        return self.variant

    def hyper(self) -> tuple[float, ...]:
        """``(C,)``.

        Returns
        -------
        tuple of float
        """
        return (float(self.C),)
