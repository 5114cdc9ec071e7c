"""The averaged perceptron (Freund & Schapire 1999; Collins 2002)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from perceptrons._core.averaging import mean_of_iterates
from perceptrons.linear._base import LinearPerceptronBase
from perceptrons.threads.jobs import MIX_EVERY, N_JOBS

if TYPE_CHECKING:
    from typing import Any, Literal

    import numpy as np


class AveragedPerceptron(LinearPerceptronBase):
    """Perceptron that predicts with the average of all its intermediate weight vectors.

    Training is the PLA of :class:`Perceptron`; prediction uses the mean of the weight vectors
    held after each example visited (one per visit, over all epochs and ``partial_fit`` calls).
    The mean is kept lazily (Daumé 2012): an update Δ at visit c also adds c·Δ to a second
    vector u, and after T visits the average is w − u/T — O(features touched) per update, never a
    copy of w per example.  The average approximates the voted perceptron and generalises better
    than the last iterate on inseparable data.

    Parameters
    ----------
    max_epochs : int, default=10
        Upper bound on passes (it was 1000).  The average settles within a few epochs: on a9a,
        MNIST, breast cancer and digits its test accuracy after 10 epochs is within 0.002 of
        (or above) its accuracy after 1000, at 1/100 of the cost on data that is not separable
        (``benchmarks/bench_defaults.py``).  Separable data still stop at the first epoch
        without mistakes; hitting the bound is the intended fit and raises no warning.
    fit_intercept, order, init, margin, class_weight, random_state, warm_start, n_jobs, mix_every
        As in :class:`Perceptron`.

    Attributes
    ----------
    coef_, intercept_ : the averaged weights.
    last_coef_, last_intercept_ : the last iterate of the PLA.
    classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_
        As in :class:`Perceptron`.

    Notes
    -----
    Training stops at the first epoch without mistakes, as the PLA does; the average then still
    includes the iterates of every epoch run.  See :class:`Perceptron` for sign(0) and for why
    scikit-learn's sample-weight equivalence check does not apply to online updates.

    References
    ----------
    Freund, Y. and Schapire, R. E. (1999). "Large margin classification using the perceptron
    algorithm". Machine Learning 37(3).
    Collins, M. (2002). "Discriminative training methods for hidden Markov models".
    Daumé III, H. (2012). "A Course in Machine Learning", §4.7 (the averaging trick).
    Gormley, lecture notes, "Extensions".

    Examples
    --------
    >>> from perceptrons.datasets import gormley_example
    >>> X, y = gormley_example()
    >>> clf = AveragedPerceptron(fit_intercept=False).fit(X, y)
    >>> clf.last_coef_.tolist(), clf.coef_.round(3).tolist()
    ([[3.0, 1.0]], [[2.5, 0.167]])
    """

    predicts_last_iterate = False
    _averaging = True

    _parameter_constraints = {**LinearPerceptronBase._parameter_constraints, "n_jobs": N_JOBS, "mix_every": MIX_EVERY}

    def __init__(
        self,
        *,
        fit_intercept: bool = True,
        max_epochs: int = 10,
        order: Literal["cyclic", "shuffle", "random-mistake"] = "cyclic",
        init: Literal["zeros", "random"] = "zeros",
        margin: float = 0.0,
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        random_state: int | np.random.RandomState | None = None,
        warm_start: bool = False,
        n_jobs: int | None = None,
        mix_every: int | None = None,
    ) -> None:
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.init = init
        self.margin = margin
        self.class_weight = class_weight
        self.random_state = random_state
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.mix_every = mix_every

    def _weights(self):
        s = self._state
        visits = int(s.count[0])
        # u stays float64 while training (a sum of c·Δ outgrows float32's 24 exact bits long
        # before w does); the mean is taken in float64, then rounded once to the weights' dtype
        # so that coef_ is float32 on float32 CSR input, as for the other linear estimators.
        w = mean_of_iterates(s.w, s.u, visits).astype(s.w.dtype, copy=False)
        return w, mean_of_iterates(s.b, s.ub, visits)

    def _finalize(self):
        self._set_coef(self._state.w, self._state.b)
        self.last_coef_, self.last_intercept_ = self.coef_, self.intercept_
        super()._finalize()

    def _from_state(self, st):
        super()._from_state(st)  # coef_ / intercept_: the stored average
        coef, intercept = self.coef_, self.intercept_
        self._set_coef(self._state.w, self._state.b)
        self.last_coef_, self.last_intercept_ = self.coef_, self.intercept_
        self.coef_, self.intercept_ = coef, intercept
        return self
