"""What every learner of the online family shares: an update rule behind the linear family's
training protocol.

An online learner is a linear classifier that learns example by example, as the perceptron does,
with another update.  It keeps the linear family's state (:class:`~perceptrons.linear.trainer.LinearState`:
weights, bias, averaging sums, the visit counter, and its own ``extra`` array) and drives it
through the same protocol (``check_training``, ``begin``, ``epoch``, ``end_epoch``, ``finish``
and the pure step), so that ``fit``, ``partial_fit``, a streamed fit, parameter mixing, model
files and the command line take every rule alike.  A learner names its rule
(:mod:`perceptrons.online.rules`), its parameters and, where it has one, the shape and start of
its ``extra`` array; nothing else.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from perceptrons._core.averaging import mean_of_iterates
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import RANDOM_STATE, Interval, Kind, Options, seed_of
from perceptrons.linear import _model_file as model_file
from perceptrons.linear._base import LinearPerceptronBase
from perceptrons.linear.trainer import LinearState, StepParams
from perceptrons.online.rules import end_epoch as end_rule_epoch
from perceptrons.online.rules import run_rule
from perceptrons.threads.jobs import MIX_EVERY, N_JOBS

#: the parameters every online learner takes
COMMON_CONSTRAINTS = {
    "fit_intercept": (Kind(bool, "a bool"),),
    "max_epochs": (Interval(Integral, 1, None),),
    "order": (Options("cyclic", "shuffle"),),
    "class_weight": (None, Options("balanced"), Kind(dict, "a dict")),
    "random_state": RANDOM_STATE,
    "warm_start": (Kind(bool, "a bool"),),
    "n_jobs": N_JOBS,
    "mix_every": MIX_EVERY,
}


#: the most features ``covariance="auto"`` keeps a full covariance for
FULL_COVARIANCE_MAX = 1000
#: a second-order learner's ``covariance`` parameter
COVARIANCE = (Options("auto", "full", "diagonal"),)


def scaled_state_problem(learner: OnlineLearner, w: np.ndarray, extra: np.ndarray) -> tuple[str, str] | None:
    """:meth:`OnlineLearner.state_problem` of a learner that keeps its weights scaled (ALMA,
    ROMMA: :mod:`perceptrons._jit.scaled`), whose ``extra`` is ``(k, scale, ‖w‖²)``: the scale is
    positive, and the squared norm −1 (not known) or at least 0.

    Parameters
    ----------
    learner : OnlineLearner
    w, extra : ndarray

    Returns
    -------
    tuple of (str, str) or None
    """
    if extra[1] <= 0:
        return "state_extra", f"the weights' scale must be positive, got {extra[1]:.6g}"
    if extra[2] < 0 and extra[2] != -1:
        return "state_extra", f"the weights' squared norm must be -1 (not known) or at least 0, got {extra[2]:.6g}"
    return None


class OnlineLearner(LinearPerceptronBase):
    """Base of the online family (see :mod:`perceptrons.online.learner`).

    A subclass sets :attr:`rule` (or overrides :meth:`rule_name`), :meth:`hyper` and, where
    its rule keeps more than the weights, :meth:`extra_shape` and :meth:`initial_extra`.

    Every learner counts, per epoch, its **mistakes** (rows predicted wrong before the update,
    a score of exactly 0 included: ``mistakes_per_epoch_``) and its **updates** (rows the rule
    learned from, ``n_updates_``; a margin rule learns from rows it predicted right, too).  An
    epoch without an update ends ``fit`` (``converged_``); parameter mixing, whose workers
    report mistakes only, ends at an epoch without mistakes.  Training stopped at
    ``max_epochs`` raises no warning: a fixed number of passes is how online learners are run.
    """

    _parameter_constraints = COMMON_CONSTRAINTS
    predicts_last_iterate = False
    #: the rule of :data:`perceptrons.online.rules.RULES` the learner runs; a second-order
    #: learner's is completed by its covariance (``"arow"`` runs ``"arow-full"`` or ``"arow-diagonal"``)
    rule = None
    #: whether the learner keeps a covariance Σ of its weights (its ``extra`` array)
    second_order = False

    # ------------------------------------------------------------------ what a learner names
    def rule_name(self) -> str:
        """The rule this learner runs, with its parameters as they are now.

        Returns
        -------
        str
        """
        return f"{self.rule}-{self.covariance_}" if self.second_order else self.rule

    def hyper(self) -> tuple[float, ...]:
        """The rule's parameters, as its compiled loop reads them.

        Returns
        -------
        tuple of float
        """
        return ()

    def extra_shape(self, n_features: int, n_classes: int) -> tuple[int, ...] | None:
        """The shape of the state's ``extra`` array for these data, or None when the rule keeps none.

        A second-order learner's is its covariance over the features and the bias (last):
        the full Σ as its square root S (Σ = S Sᵀ, (d + 1, d + 1), see
        :func:`perceptrons._jit.second_order.second_order_full_binary`), or the diagonal of Σ,
        (d + 1,), or (d + 1, K) with K > 2 classes.

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        tuple of int or None
        """
        if not self.second_order:
            return None
        d1 = n_features + 1
        if self.covariance_ == "full":
            return (d1, d1)
        return (d1,) if n_classes == 2 else (d1, n_classes)

    def initial_extra(self, n_features: int, n_classes: int) -> np.ndarray:
        """The ``extra`` array a fit starts from: zeros of :meth:`extra_shape`, or a second-order
        learner's Σ₀ = :meth:`initial_variance` · I.

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        ndarray
        """
        shape = self.extra_shape(n_features, n_classes)
        if shape is None:
            return np.zeros(0)
        if not self.second_order:
            return np.zeros(shape)
        s0 = self.initial_variance()
        return np.eye(shape[0]) * np.sqrt(s0) if self.covariance_ == "full" else np.full(shape, s0)

    def state_problem(self, w: np.ndarray, extra: np.ndarray) -> tuple[str, str] | None:
        """What a model file's weights ``w`` or ``extra`` array hold that this rule can never
        reach, as ``(field, message)``, or None: a second-order learner's variances (a diagonal
        Σ) are positive.  Their dtypes, shapes and finiteness are checked before.

        Parameters
        ----------
        w : ndarray
            The state's weights.
        extra : ndarray
            The state's :meth:`extra_shape` array.

        Returns
        -------
        tuple of (str, str) or None
        """
        if self.second_order and self.covariance_ == "diagonal" and extra.size and extra.min() <= 0:
            return "state_extra", f"a variance must be positive, got {extra.min():.6g}"
        return None

    def initial_variance(self) -> float:
        """A second-order learner's Σ₀ = this · I (1 unless the learner says otherwise).

        Returns
        -------
        float
        """
        return 1.0

    def choose_covariance(self, n_features: int, n_classes: int) -> str:
        """``covariance_`` of a second-order learner for these data: its ``covariance``
        parameter, or with ``"auto"`` the full Σ for two classes and at most
        :data:`FULL_COVARIANCE_MAX` features (an update costs O(d²)), the diagonal otherwise.

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        {"full", "diagonal"}
        """
        if self.covariance == "full" and n_classes > 2:
            raise PerceptronsError(
                f"{type(self).__name__}(covariance='full') takes two classes; with {n_classes} it keeps "
                "a diagonal covariance per class: use covariance='diagonal' or 'auto'"
            )
        if self.covariance != "auto":
            return self.covariance
        return "full" if n_classes == 2 and n_features <= FULL_COVARIANCE_MAX else "diagonal"

    def initial_weights(self, n_features: int, n_classes: int) -> float:
        """The value every weight and bias starts from (0; Winnow's 1).

        Parameters
        ----------
        n_features, n_classes : int

        Returns
        -------
        float
        """
        return 0.0

    @property
    def _averaging(self):
        return bool(getattr(self, "average", False))

    # ------------------------------------------------------------------ the protocol
    def _init_state(self, d, rng, dtype=np.float64):
        # float64 always: the steps are fractions, which float32 weights would round at every update
        k = len(self.classes_)
        if self.second_order:
            self.covariance_ = self.choose_covariance(d, k)
        state = LinearState.start(d, k, np.float64, self._averaging, self.fit_intercept)
        start = self.initial_weights(d, k)
        if start:
            state.w[...] = start
            if self.fit_intercept:
                state.b[...] = start
        self._state = LinearState(state.w, state.b, state.u, state.ub, state.count, self.initial_extra(d, k))
        self._pending_updates = None

    def _widen_unless_exact(self, Xop, scale):
        """Nothing to widen: an online learner's weights are float64 from the start."""

    def _loop(self, Xop, yi, scale, perm, log):
        mistakes, updates = run_rule(
            self.rule_name(), self.hyper(), self.fit_intercept, self._state, Xop, yi, scale, perm
        )
        if mistakes >= 0:
            self._pending_updates = (getattr(self, "_pending_updates", None) or 0) + updates
        return mistakes, 0

    def end_epoch(self, mistakes: int, updates: int | None = None) -> None:
        """The book-keeping of one finished epoch: its mistakes and the updates its passes made
        join the histories; ``converged_`` says whether it made no update (no mistake, when the
        passes ran elsewhere: parameter mixing).

        Part of the training protocol (:mod:`perceptrons.linear.trainer`).

        Parameters
        ----------
        mistakes : int
        updates : int, optional
            The epoch's updates when the caller counted them; else those of this learner's own
            passes since the last epoch ended, or the mistakes when it made none.
        """
        end_rule_epoch(self.rule_name(), self._state)
        pending = getattr(self, "_pending_updates", None)
        if updates is None:
            updates = mistakes if pending is None else pending
        self._pending_updates = None
        self.n_epochs_ += 1
        self.mistakes_per_epoch_.append(int(mistakes))
        self.n_updates_ += int(updates)
        self.converged_ = updates == 0

    def step_params(self, seed: int) -> StepParams:
        """The parameters of the pure step :func:`perceptrons.linear.trainer.step`: the rule
        and its parameters, with the shuffles' ``seed``.

        Parameters
        ----------
        seed : int

        Returns
        -------
        StepParams
        """
        return StepParams(
            bool(self.fit_intercept), 0.0, self._averaging, self.order, int(seed), self.rule_name(), self.hyper()
        )

    def _weights(self):
        s = self._state
        if not self._averaging:
            return s.w, s.b
        visits = int(s.count[0])
        return mean_of_iterates(s.w, s.u, visits), mean_of_iterates(s.b, s.ub, visits)

    # ------------------------------------------------------------------ persistence
    def _to_state(self):
        meta, arrays = super()._to_state()
        if self.second_order:
            meta["covariance"] = self.covariance_
        return meta, arrays

    def _from_state(self, st):
        if self.second_order:
            self.covariance_ = st.str("covariance", choices=("full", "diagonal"))
        fitted, self._state = model_file.from_state(st, self._averaging, self.class_weight, self.extra_shape)
        problem = self.state_problem(self._state.w, self._state.extra)
        if problem is not None:
            st.fail(*problem)
        for name, value in fitted.items():
            setattr(self, name, value)
        self._pending_updates = None
        self._rng = np.random.default_rng(seed_of(self.random_state))  # partial_fit's shuffles
        return self
