"""The linear family's training protocol: its state, its pure step, and the four operations that
every way of training drives.

``fit``, ``partial_fit``, a streamed fit (:mod:`perceptrons.stream`) and parameter mixing
(:mod:`perceptrons.distributed`) all train a linear perceptron through the same public methods
of the estimator, and through nothing else:

``est.check_training(how)``
    refuse, before any work, a way of training (``"memory"``, ``"stream"`` or ``"mixing"``)
    that this estimator and its parameters cannot take, with the reason;
``state = est.begin(n_features, classes, w_dtype)``
    start afresh: fresh weights for ``n_features`` columns and these classes, empty histories;
    returns the :class:`LinearState` it trains;
``mistakes = est.epoch(Xop, yi, scale, perm)``
    one epoch's pass over one block of rows, in the estimator's own variant (the plain last
    iterate, the averaging sums, the pocket, the voted log); a block may be all the rows (fit) or
    one block of a stream;
``est.end_epoch(mistakes, updates)``
    the book-keeping of one finished epoch (``mistakes_per_epoch_``, ``n_updates_``, ...);
``est.finish(top_feature, state)``
    the fitted ``coef_`` / ``intercept_`` from the state (``state`` given: the one parameter
    mixing ended with), refused if it overflowed or lost its features to underflow.

Parameter mixing needs a step that runs on a worker without the estimator: :func:`step`, a pure
function ``(parameters, state, shard, epoch) -> (state, mistakes)`` that runs the very compiled
epoch loop of ``est.epoch``, with the parameters :meth:`est.step_params` gives.

A new linear algorithm implements ``epoch`` (and, where it keeps more than the weights, its
state's persistence); every way of training, the model files and the command line then take it.
"""

from typing import NamedTuple

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import SCALE_FEATURES, largest_magnitude, overflow_error
from perceptrons._core.memory import check_allocation
from perceptrons._core.operands import operand_values
from perceptrons._core.visits import MAX_VISITS
from perceptrons._jit import linear as K
from perceptrons._jit.rows import dense_ahead
from perceptrons.io.model_state import FLOATS
from perceptrons.online.rules import end_epoch as end_rule_epoch
from perceptrons.online.rules import run_rule


class LinearState(NamedTuple):
    """The arrays a linear fit carries from example to example, block to block and epoch to epoch.

    Attributes
    ----------
    w : ndarray of shape (d,) or (d, K)
        The current weights (one column per class for more than two classes).
    b : ndarray of shape (1,) or (K,)
        The current intercepts, float64.
    u, ub : ndarray
        The averaging sums of ``w`` and ``b`` (Daumé's trick, :mod:`perceptrons._core.averaging`),
        float64; of length 0 along the features when the estimator does not average.
    count : ndarray of shape (1,), int64
        Example visits so far: the ``c`` the averaging sums weigh each update by.
    extra : ndarray, float64
        What an algorithm carries beside its weights, of the shape it declares
        (:attr:`~perceptrons.online.OnlineLearner.extra_shape`): a second-order learner's
        covariance, Winnow's negative weights, ALMA's update count.  Empty (shape (0,)) for the
        perceptrons.  Parameter mixing averages it as it averages the weights.
    """

    w: np.ndarray
    b: np.ndarray
    u: np.ndarray
    ub: np.ndarray
    count: np.ndarray
    extra: np.ndarray = np.zeros(0)

    @property
    def binary(self):
        """Whether the state is of two classes (one weight vector)."""
        return self.w.ndim == 1

    def writable(self):
        """The state with every read-only array replaced by a writable copy: a model unpickled off
        a memory map (``joblib.load(..., mmap_mode="r")``) holds read-only arrays, and numba refuses
        a write to one with an internal typing error.
        """
        return LinearState(*(a if a.flags.writeable else a.copy() for a in self))

    @classmethod
    def start(cls, d, k, dtype, averaging, fit_intercept, rng=None):
        """The state a fit starts from, for ``d`` features and ``k`` classes: zero weights, or
        uniform in [0, 1) drawn from ``rng`` (the bias too, when it is fitted).
        """
        binary = k == 2
        shape, nb = ((d,), 1) if binary else ((d, k), k)
        check_allocation(
            # w, then coef_ (float64) at the end of the fit, and the averaging sum u
            d * (1 if binary else k) * (np.dtype(dtype).itemsize + 8 + (8 if averaging else 0)),
            f"the weights of {d:,} features" + ("" if binary else f" for {k:,} classes"),
            "the largest feature index sets their number: renumber the features, or hash them into fewer columns",
        )
        if rng is not None:
            w = rng.random(shape).astype(dtype)
            b = rng.random(nb) if fit_intercept else np.zeros(nb)
        else:
            w, b = np.zeros(shape, dtype=dtype), np.zeros(nb)
        avg_shape = shape if averaging else (0,) + shape[1:]
        return cls(w, b, np.zeros(avg_shape), np.zeros(nb), np.zeros(1, dtype=np.int64))

    @classmethod
    def read(cls, st, d, k, binary, averaging, extra_shape=None):
        """The state of a model file (a :class:`~perceptrons.io.model_state.ModelState`), every
        array checked against its dtype and shape (``d`` features, ``k`` classes; ``extra_shape``
        the algorithm's :attr:`LinearState.extra`, None for none).
        """
        shape, nb = ((d,), 1) if binary else ((d, k), k)
        return cls(
            w=st.array("state_w", FLOATS, shape),
            b=st.array("state_b", ("float64",), (nb,)),
            u=st.array("state_u", ("float64",), shape if averaging else (0,) + shape[1:]),
            ub=st.array("state_ub", ("float64",), (nb,)),
            count=st.array("state_count", ("int64",), (1,), lo=0, hi=MAX_VISITS + 1),
            extra=np.zeros(0) if extra_shape is None else st.array("state_extra", ("float64",), extra_shape),
        )

    def widened(self):
        """The state with float32 arrays made float64 (the values are unchanged)."""
        return LinearState(*(a.astype(np.float64) if a.dtype == np.float32 else a for a in self))


#: features up to this |x| overflow no score by themselves: an overflow on them is the learner's
#: weights diverging (ROMMA and CW on standardised, inseparable rows), which scaling may not cure
DIVERGED_BELOW = 1e3


def overflow_in_training(what, top, weight=1.0):
    """``what`` is not finite although the row it came from is: an overflow, unless X holds
    NaN/inf elsewhere (``top``, its largest ``|x|``, is not finite: a cold fit finds those only
    when it scores their row).  ``weight``, the largest sample or class weight, is named with
    the features when above 1: a step a thousand times longer (Winnow's, a thousandth power)
    overflows on features that need no scaling.
    """
    if not np.isfinite(top):
        return PerceptronsError("Input X contains NaN or infinity; expected finite values")
    if weight > 1.0:
        return overflow_error(
            what,
            top,
            what=f"sample or class weights up to {weight:.3g}, features",
            fix=f"lower the weights, or {SCALE_FEATURES}",
        )
    diverged = "the learner's weights grew without bound: train fewer epochs, or choose a learner whose steps are bounded (AROW, SCW, PA-I)"
    if top <= 1.0:  # features already in [-1, 1]: scaling them is no remedy
        return overflow_error(what, top, fix=diverged.replace("bound:", "bound on features that need no scaling:"))
    if top <= DIVERGED_BELOW:  # standardised columns, say: such features overflow nothing by themselves
        return overflow_error(what, top, fix=f"{diverged}, or {SCALE_FEATURES}")
    return overflow_error(what, top)


def nonfinite_score_error(Xop, row, scale=None):
    """The compiled loops stop at the first row whose score is not finite: NaN/inf in that row, or
    finite features so large (or rows weighted so heavily: ``scale``, each row's weight) that the
    score (or the weights) overflowed.
    """
    if not np.isfinite(operand_values(Xop, row)).all():
        return PerceptronsError(f"Input X contains NaN or infinity (row {row}); expected finite values")
    weight = largest_magnitude(scale) if scale is not None else 1.0
    return overflow_in_training(f"score of row {row}", largest_magnitude(operand_values(Xop)), weight)


def top_of(Xop):
    """The largest ``|x|`` of ``Xop``'s rows, as a callable (a pass over them, made only when needed)."""
    return lambda: largest_magnitude(operand_values(Xop))


class StepParams(NamedTuple):
    """The parameters of :func:`step`: what of an estimator the compiled epoch loop needs.

    ``averaging``: keep the sums ``u``/``ub``.  ``order``: ``"cyclic"`` or ``"shuffle"``.
    ``seed``: of the shuffles, drawn from (seed, epoch, shard index), so that an epoch run again
    (a lost worker's task) visits the rows in the same order.  ``rule`` and ``hyper``: an online
    learner's update rule and its parameters (:mod:`perceptrons.online.rules`); None for the
    perceptron's own loop, which reads ``margin``.
    """

    fit_intercept: bool
    margin: float
    averaging: bool
    order: str
    seed: int
    rule: str | None = None
    hyper: tuple = ()


def run_epoch(fit_intercept, margin, averaging, state, Xop, yi, scale, perm, log):
    """One pass of the compiled epoch loop (:mod:`perceptrons._jit.linear`) over ``Xop``, updating
    ``state``'s arrays in place.

    Returns
    -------
    (mistakes, n_logged) : (int, int)
        ``mistakes`` < 0 is ``−1 − i`` for row ``i`` whose score is not finite; ``n_logged`` the
        rows written to ``log`` (an (n, 3) int64 array or None).
    """
    loop = K.epoch_binary if state.binary else K.epoch_multiclass
    mistakes, n_log = loop(
        Xop,
        yi,
        scale,
        perm,
        state.w,
        state.b,
        (bool(fit_intercept), float(margin)),
        state.u if averaging else None,
        state.ub,
        state.count,
        log,
        dense_ahead(Xop),
    )
    return int(mistakes), int(n_log)


def step(params, state, shard, epoch, index=0, part=(0, 1)):
    """The pure step of parameter mixing: one epoch of the perceptron (or of an online learner's
    rule) over ``shard`` from ``state``, or part of one.

    Parameters
    ----------
    params : StepParams
    state : LinearState
        The task's own copy: its arrays are updated in place and returned.
    shard : object with ``X`` (a compiled loop's operand), ``yi`` and ``scale``
    epoch, index : int
        The epoch (from 1) and the shard's index, which seed a shuffled order.
    part : (int, int), default=(0, 1)
        ``(r, R)``: the r-th of R consecutive parts of the epoch's order (mixing R times an
        epoch); (0, 1) is the whole epoch.

    Returns
    -------
    (LinearState, (int, int))
        The state after the pass, and its (mistakes, updates): an online learner's rule may
        update on a row it got right.  Mistakes are ``−1 − i`` when row ``i``'s score is not
        finite.

    References
    ----------
    McDonald, R., Hall, K. and Mann, G. (2010). "Distributed Training Strategies for the
    Structured Perceptron". NAACL-HLT, §4: each shard runs one epoch of the serial perceptron
    from the mixed weights.
    """
    n = shard.yi.shape[0]
    perm = None  # in order
    if params.order == "shuffle":
        perm = np.random.default_rng([params.seed, epoch, index]).permutation(n).astype(np.int64)
    r, R = part
    if R > 1:
        perm = (np.arange(n, dtype=np.int64) if perm is None else perm)[r * n // R : (r + 1) * n // R]
    if params.rule is None:
        mistakes, _ = run_epoch(
            params.fit_intercept, params.margin, params.averaging, state, shard.X, shard.yi, shard.scale, perm, None
        )
        updates = mistakes
    else:
        mistakes, updates = run_rule(
            params.rule, params.hyper, params.fit_intercept, state, shard.X, shard.yi, shard.scale, perm
        )
        end_rule_epoch(params.rule, state)
    return state, (mistakes, updates)


#: what parameter mixing mixes of a :class:`LinearState`: each weight array and its averaging
#: sums, and an online learner's ``extra`` (a covariance, say) as weights
MIXED = (("w", "u"), ("b", "ub"), ("extra", None))


def threaded(params, Xop, yi, scale):
    """How a fit in threads (:class:`perceptrons.threads.mixing.MixedCopies`) trains a thread's
    copy of the state on its part of an epoch's rows: :func:`step`'s loop on a chunk of rows.

    Parameters
    ----------
    params : StepParams
        The estimator's (its ``order`` and ``seed`` are not read: the chunk is the order).
    Xop, yi, scale
        The rows as the compiled loops read them, their class indices and update scales.

    Returns
    -------
    callable
        ``train(copy, chunk) -> (mistakes, updates)``: a pass over the rows ``chunk`` on
        ``copy`` (a dict of a :class:`LinearState`'s arrays).

    Raises
    ------
    PerceptronsError
        From ``train``: a row whose score is not finite.
    """

    def train(copy, chunk):
        state = LinearState(**copy)
        if params.rule is None:
            mistakes, _ = run_epoch(
                params.fit_intercept, params.margin, params.averaging, state, Xop, yi, scale, chunk, None
            )
            updates = mistakes
        else:
            mistakes, updates = run_rule(params.rule, params.hyper, params.fit_intercept, state, Xop, yi, scale, chunk)
            end_rule_epoch(params.rule, state)
        if mistakes < 0:
            raise nonfinite_score_error(Xop, -1 - mistakes, scale)
        return mistakes, updates

    return train


def row_sizes(Xop):
    """What each row costs an epoch, for cutting an epoch into chunks of equal cost (None: dense
    rows, all alike).
    """
    if not isinstance(Xop, tuple):
        return None
    return np.diff(Xop[-1]).astype(np.int64) + 1  # its values, and a visit
