"""The pocket algorithm (Gallant 1990): the PLA that keeps the best weights it has seen."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.params import Kind
from perceptrons._core.visits import MAX_VISITS
from perceptrons._jit import linear as K
from perceptrons._jit.pocket import pocket_epoch_binary, pocket_epoch_multiclass
from perceptrons._jit.rows import dense_ahead
from perceptrons.linear._base import LinearPerceptronBase

if TYPE_CHECKING:
    from typing import Any, Literal


class PocketPerceptron(LinearPerceptronBase):
    """Pocket algorithm with ratchet: predicts with the weights of fewest training errors seen.

    The PLA runs as in :class:`Perceptron`; beside it a *pocket* holds the best weights so far.
    Following Gallant's run-length rule, the running weights become a candidate for the pocket
    once their run of consecutive correct classifications is longer than a bar: the pocketed
    weights' run, raised to the run of every candidate counted since (so that on noisy data not
    every short run is counted — see :mod:`perceptrons._jit.pocket`).  With ``ratchet=True`` the
    candidate's errors on the whole training set are counted (stopping as soon as they reach the
    pocket's) and it replaces the pocket only if it makes strictly fewer; so the pocket's
    training error never rises.  With ``ratchet=False`` the longer run alone decides.
    On non-separable data the last PLA iterate oscillates (Succinctly, Figure 18); the pocket
    does not.

    Parameters
    ----------
    ratchet : bool, default=True
        Replace the pocket only on a strict improvement of the (weighted) training error.
    max_epochs : int, default=20
        Upper bound on passes (it was 1000).  On a9a the pocket stops improving after 10
        epochs and on MNIST after ~20, while 1000 epochs on data that is not separable took
        up to 15 × as long for no better test accuracy (``benchmarks/bench_defaults.py``).
    fit_intercept, order, init, margin, class_weight, random_state, warm_start
        As in :class:`Perceptron`.  With ``order="random-mistake"`` every step already scans the
        data, so every new iterate is counted and ratcheted.

    Attributes
    ----------
    coef_, intercept_ : the pocket weights.
    pocket_errors_ : list of float
        The pocket's weighted training errors after each epoch (non-increasing with the ratchet).
    pocket_updates_ : int
        How many times the pocket was replaced.
    classes_, n_features_in_, n_updates_, mistakes_per_epoch_, n_epochs_, converged_
        As in :class:`Perceptron` (they describe the running PLA).

    Notes
    -----
    In ``partial_fit`` "the whole training set" is the batch given: the pocket's errors are
    re-counted on each new batch before the pass.  See :class:`Perceptron` for sign(0) and for
    why scikit-learn's sample-weight equivalence check does not apply to online updates.

    References
    ----------
    Gallant, S. I. (1990). "Perceptron-based learning algorithms". IEEE Trans. Neural Networks 1(2).
    Liang, lecture notes: the pocket algorithm.  Succinctly, Figures 18–19.

    Examples
    --------
    >>> from perceptrons.datasets import noisy_blobs
    >>> X, y = noisy_blobs(200, random_state=0)
    >>> import warnings
    >>> from sklearn.exceptions import ConvergenceWarning
    >>> with warnings.catch_warnings():  # noisy data: not converging is what is expected
    ...     warnings.simplefilter("ignore", ConvergenceWarning)
    ...     clf = PocketPerceptron(max_epochs=20).fit(X, y)
    >>> all(a >= b for a, b in zip(clf.pocket_errors_, clf.pocket_errors_[1:]))
    True
    """

    predicts_last_iterate = False

    _parameter_constraints = {**LinearPerceptronBase._parameter_constraints, "ratchet": (Kind(bool, "a bool"),)}
    _needs_every_row = (
        "the pocket is judged by its errors on the whole training set (Gallant's ratchet) and by "
        "runs of correct examples across it, so it needs every row at hand; use Perceptron or "
        "AveragedPerceptron, or train in memory"
    )

    def __init__(
        self,
        *,
        ratchet: bool = True,
        fit_intercept: bool = True,
        max_epochs: int = 20,
        order: Literal["cyclic", "shuffle", "random-mistake"] = "cyclic",
        init: Literal["zeros", "random"] = "zeros",
        margin: float = 0.0,
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        random_state: int | np.random.RandomState | None = None,
        warm_start: bool = False,
    ) -> None:
        self.ratchet = ratchet
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.init = init
        self.margin = margin
        self.class_weight = class_weight
        self.random_state = random_state
        self.warm_start = warm_start

    # The pocket's own arrays, beside the training state: its weights ``pw``/``pb``, the run
    # counters ``run`` of the compiled loop and the pocket's (weighted) error count ``perr``.
    def _init_state(self, d, rng, dtype=np.float64):
        super()._init_state(d, rng, dtype)
        self._pocket = {}  # a fresh state; partial_fit and warm_start keep the pocket they have

    def _widen_extra(self):
        self._pocket = {k: v.astype(np.float64) if v.dtype == np.float32 else v for k, v in self._pocket.items()}

    def _start_fit(self, X, Xop, yi, scale):
        s, p = self._state, self._pocket
        if "pw" not in p:
            p["pw"], p["pb"] = s.w.copy(), s.b.copy()
        else:  # a model loaded off a memory map
            p["pw"], p["pb"] = (a if a.flags.writeable else a.copy() for a in (p["pw"], p["pb"]))
        p["run"] = np.zeros(4, dtype=np.int64)
        p["perr"] = np.array([self._errors(Xop, yi, scale, p["pw"], p["pb"])])

    def _reset_history(self):
        super()._reset_history()
        self.pocket_errors_ = []
        self.pocket_updates_ = 0

    def _errors(self, Xop, yi, scale, w, b, limit=np.inf):
        if self._state.binary:
            return K.count_errors_binary(Xop, yi, scale, w, b[0], limit, dense_ahead(Xop))
        return K.count_errors_multiclass(Xop, yi, scale, w, b, limit, dense_ahead(Xop))

    def _loop(self, Xop, yi, scale, perm, log):
        # Gallant's pocket loop; the pocket is scored on all the rows, so it trains on rows in
        # memory only (``_needs_every_row``), and it logs nothing
        s, p = self._state, self._pocket
        loop = pocket_epoch_binary if s.binary else pocket_epoch_multiclass
        before = int(p["run"][3])
        rule = (bool(self.fit_intercept), float(self.margin))
        pocket = (p["pw"], p["pb"], p["run"], p["perr"], bool(self.ratchet))
        mistakes = loop(Xop, yi, scale, perm, s.w, s.b, rule, pocket, dense_ahead(Xop))
        self.pocket_updates_ += int(p["run"][3]) - before
        return int(mistakes), 0

    def _random_mistake_step(self, Xop, yi, scale, buf, r):
        m, updated = super()._random_mistake_step(Xop, yi, scale, buf, r)
        s, p = self._state, self._pocket
        e = self._errors(Xop, yi, scale, s.w, s.b, np.inf if not self.ratchet else p["perr"][0])
        if e < p["perr"][0] or (not self.ratchet and updated):
            p["pw"][...], p["pb"][...], p["perr"][0] = s.w, s.b, e
            self.pocket_updates_ += 1
        return m, updated

    def _after_epoch(self, Xop, yi, scale):
        p = self._pocket
        if not self.ratchet:
            p["perr"][0] = self._errors(Xop, yi, scale, p["pw"], p["pb"])
        self.pocket_errors_.append(float(p["perr"][0]))

    def _weights(self):
        return self._pocket["pw"], self._pocket["pb"]

    def _to_state(self):
        meta, arrays = super()._to_state()
        meta["pocket_errors"] = self.pocket_errors_
        meta["pocket_updates"] = int(self.pocket_updates_)
        arrays.update({f"state_{k}": self._pocket[k] for k in ("pw", "pb", "run", "perr")})
        return meta, arrays

    def _from_state(self, st):
        super()._from_state(st)
        s = self._state
        p = self._pocket = {}
        p["pw"] = st.array("state_pw", (s.w.dtype.name,), s.w.shape)
        p["pb"] = st.array("state_pb", ("float64",), s.b.shape)
        p["run"] = st.array("state_run", ("int64",), (4,), lo=0)
        # a weighted count of errors, below the sum of the weights, which fit keeps finite
        p["perr"] = st.array("state_perr", ("float64",), (1,))
        st.require(p["perr"][0] >= 0, "state_perr", "expected a count of errors ≥ 0")
        self.pocket_errors_ = st.list("pocket_errors", "float", length=self.n_epochs_)
        self.pocket_updates_ = st.int("pocket_updates", hi=MAX_VISITS)
        return self
