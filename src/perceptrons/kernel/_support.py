"""What a kernel perceptron carries from one call to the next: its support examples only.

After ``fit`` or ``partial_fit`` the model is the kept examples with their coefficients, the
averaging accumulators, the bias, the visit counter, the budget's age order and (voted) the
update log — O(support) memory (plus O(updates) for the vote log), never the data seen.
A ``partial_fit`` call visits ``[support; batch]`` with only the batch in the visiting order, so a
stream of calls makes exactly the mistakes of one epoch over the concatenated stream.
"""

from typing import NamedTuple

import numpy as np

from perceptrons._core.averaging import mean_of_iterates
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import densify
from perceptrons._core.visits import MAX_VISITS
from perceptrons.io.model_state import FLOATS
from perceptrons.kernel._train import DualState
from perceptrons.kernel.kernels import USES_GAMMA


def dense(X):
    # Kernel values are dense whatever the input, and the BLAS product X·Xᵀ wants dense rows;
    # sparse input (LIBSVM files) is densified once here.
    # the support rows kept in the model can be every row: a second dense copy
    return densify(X, copies=2, why="kernel values are dense")


def extensible(est):
    # A precomputed kernel matrix cannot be extended by a new batch, so the method is absent
    # (as scikit-learn hides methods an estimator's parameters rule out).
    return est.kernel != "precomputed"


def export(state, X, yi, index, keep_x=True):
    """The carried state of a finished run over ``X`` (rows ``index`` in the stream)."""
    support = state.support()
    S = {
        "X": X[support] if keep_x else np.zeros((0, X.shape[1]), dtype=X.dtype),
        "y": yi[support].astype(np.int64),
        "index": index[support].astype(np.int64),
        "A": state.A[support].copy(),
        "U": state.U[support].copy() if state.U.shape[0] else np.zeros((0, state.A.shape[1])),
        "alpha": state.alpha[support].copy(),
        "b": state.b.copy(),
        "ub": state.ub.copy(),
        "count": np.array([state.count[0]], dtype=np.int64),
    }
    if state.budget:
        head, size = state.ring_state
        ages = state.ring[(head + np.arange(size)) % state.budget]
        S["ring"] = np.searchsorted(support, ages).astype(np.int64)
    else:
        S["ring"] = np.zeros(0, dtype=np.int64)
    if state.log:
        parts = state.logs or [(np.zeros(0, np.int64),) * 3 + (np.zeros(0),)]
        j, r, c, a = (np.concatenate(p) for p in zip(*parts))
        S["log_j"] = np.searchsorted(support, j).astype(np.int64)
        S["log_r"], S["log_c"], S["log_a"] = r.astype(np.int64), c.astype(np.int64), a.astype(np.float64)
    return S


def empty(n_features, n_cols, dtype, averaged, voted):
    """The carried state of a model that has seen nothing."""
    S = {
        "X": np.zeros((0, n_features), dtype=dtype),
        "y": np.zeros(0, dtype=np.int64),
        "index": np.zeros(0, dtype=np.int64),
        "A": np.zeros((0, n_cols)),
        "U": np.zeros((0, n_cols)),
        "alpha": np.zeros(0, dtype=np.int64),
        "b": np.zeros(n_cols),
        "ub": np.zeros(n_cols),
        "count": np.zeros(1, dtype=np.int64),
        "ring": np.zeros(0, dtype=np.int64),
    }
    if voted:
        S.update(
            log_j=np.zeros(0, np.int64), log_r=np.zeros(0, np.int64), log_c=np.zeros(0, np.int64), log_a=np.zeros(0)
        )
    return S


def preload(S, n, averaged, budget, voted):
    """A :class:`DualState` over ``[support; batch]`` (n rows) continuing from ``S``."""
    s = S["X"].shape[0]
    state = DualState(n, S["A"].shape[1], averaged, budget, voted)
    state.A[:s] = S["A"]
    if averaged:
        state.U[:s] = S["U"]
    state.alpha[:s] = S["alpha"]
    state.b[:] = S["b"]
    state.ub[:] = S["ub"]
    state.count[0] = S["count"][0]
    if budget:
        state.ring[: S["ring"].shape[0]] = S["ring"]
        state.ring_state[:] = (0, S["ring"].shape[0])
        state.in_support[:s] = 1
    if voted and S["log_j"].shape[0]:
        state.logs.append((S["log_j"], S["log_r"], S["log_c"], S["log_a"]))
    return state


def model_arrays(S, averaged, voted):
    """(dual_coef (K, n_sv), intercept (K,), votes or None) of a carried state."""
    T = float(S["count"][0]) if averaged else 0.0
    coef, bias = mean_of_iterates(S["A"], S["U"], T), mean_of_iterates(S["b"], S["ub"], T)
    votes = None
    if voted:
        created = np.concatenate([[0], S["log_c"]])
        ends = np.concatenate([S["log_c"], [S["count"][0]]])
        votes = {
            "sv": S["log_j"],
            "true": S["y"][S["log_j"]],
            "runner": S["log_r"],
            "step": S["log_a"],
            "weights": (ends - created).astype(np.float64),
        }
    return np.ascontiguousarray(coef.T), bias.copy(), votes


class Stored(NamedTuple):
    """What a model file holds of a fitted ``KernelPerceptron``, besides its parameters."""

    n_features_in: int
    gamma: float  # NaN for the kernels without one
    n_seen: int  # examples seen: the stream position of the next partial_fit batch
    n_updates: int
    n_removed: int
    n_epochs: int
    converged: bool
    mistakes_per_epoch: list
    support_size_per_epoch: list
    classes: np.ndarray
    support: dict  # the carried state (see the module docstring)
    rng: np.random.Generator  # a later partial_fit draws its random drops from where this run stopped


def to_state(kernel, stored):
    """``KernelPerceptron._to_state``: metadata plus the carried arrays of the :class:`Stored`
    part of a model with this ``kernel``.  In the file they keep the names the first release gave
    them, ``stream_*`` (the support a ``partial_fit`` stream continues from), so that every model
    file written since reads alike."""
    if callable(kernel):
        raise PerceptronsError(
            f"KernelPerceptron with the callable kernel {getattr(kernel, '__name__', kernel)!r} "
            "cannot be saved: model files store data, never code — use a named kernel or 'precomputed'"
        )
    meta = {
        "n_features_in": int(stored.n_features_in),
        "gamma": None if np.isnan(stored.gamma) else float(stored.gamma),
        "n_seen": int(stored.n_seen),
        "n_updates": int(stored.n_updates),
        "n_removed": int(stored.n_removed),
        "n_epochs": int(stored.n_epochs),
        "converged": bool(stored.converged),
        "mistakes_per_epoch": [int(m) for m in stored.mistakes_per_epoch],
        "support_size_per_epoch": [int(m) for m in stored.support_size_per_epoch],
        "rng_state": stored.rng.bit_generator.state,
    }
    arrays = {"classes": stored.classes, **{f"stream_{k}": v for k, v in stored.support.items()}}
    return meta, arrays


def _rng_from(st):
    """The stored PCG64 state, checked field by field before numpy sees it."""
    raw = st.raw("rng_state")
    inner = raw.get("state") if isinstance(raw, dict) else None
    ok = (
        isinstance(raw, dict)
        and set(raw) == {"bit_generator", "state", "has_uint32", "uinteger"}
        and raw["bit_generator"] == "PCG64"
        and isinstance(inner, dict)
        and set(inner) == {"state", "inc"}
        and all(type(v) is int and 0 <= v < 2**128 for v in inner.values())
        and raw["has_uint32"] in (0, 1)
        and type(raw["has_uint32"]) is int
        and type(raw["uinteger"]) is int
        and 0 <= raw["uinteger"] < 2**32
    )
    st.require(ok, "rng_state", "expected a PCG64 state (bit_generator, state {state, inc}, has_uint32, uinteger)")
    rng = np.random.default_rng()
    try:
        rng.bit_generator.state = raw
    except (TypeError, ValueError) as exc:
        st.fail("rng_state", f"refused by numpy ({exc})")
    return rng


def from_state(st, kernel, averaged, voted, budget):
    """``KernelPerceptron._from_state``: the :class:`Stored` part of a model with these
    parameters, read from a :class:`~perceptrons.io.model_state.ModelState` (the caller sets
    its attributes from it and rebuilds the public ones).

    Every array is checked against the others before use: the support rows, their labels and
    coefficients agree in length, the update log and the budget's age order index the support,
    the log's visit counters grow and stay within the visits made.
    """

    d = st.int("n_features_in", lo=1, hi=2**31 - 1)
    gamma = st.float("gamma", lo=0.0, none=True)

    st.require(
        (gamma is not None and gamma > 0) == (kernel in USES_GAMMA),
        "gamma",
        f"expected a number > 0 for kernel={kernel!r}, else null; got {gamma}",
    )
    n_seen = st.int("n_seen", hi=MAX_VISITS)
    n_epochs = st.int("n_epochs", hi=MAX_VISITS)
    history = {
        "mistakes_per_epoch": st.list("mistakes_per_epoch", "int", length=n_epochs),
        "support_size_per_epoch": st.list("support_size_per_epoch", "int", length=n_epochs),
    }
    counts = {k: st.int(k, hi=MAX_VISITS) for k in ("n_updates", "n_removed")}
    converged = st.bool("converged")
    rng = _rng_from(st)
    classes = st.labels("classes")
    k = classes.shape[0]
    cols = 1 if k == 2 else k
    precomputed = kernel == "precomputed"
    X = st.array("stream_X", FLOATS, (0 if precomputed else None, d))
    y = st.array("stream_y", ("int64",), (None,), lo=0, hi=k)
    sv = y.shape[0]
    st.require(precomputed or X.shape[0] == sv, "stream_X", f"{X.shape[0]} rows for {sv} support labels")
    S = {
        "X": X,
        "y": y,
        "index": st.array("stream_index", ("int64",), (sv,), lo=0, hi=d if precomputed else max(n_seen, 1)),
        "A": st.array("stream_A", ("float64",), (sv, cols)),
        "U": st.array("stream_U", ("float64",), (sv if averaged else 0, cols)),
        "alpha": st.array("stream_alpha", ("int64",), (sv,), lo=0, hi=MAX_VISITS + 1),
        "b": st.array("stream_b", ("float64",), (cols,)),
        "ub": st.array("stream_ub", ("float64",), (cols,)),
        "count": st.array("stream_count", ("int64",), (1,), lo=0, hi=MAX_VISITS + 1),
    }
    ring = S["ring"] = st.array("stream_ring", ("int64",), (None,), lo=0, hi=max(sv, 1))
    if budget:
        st.require(
            sv <= budget and ring.shape[0] == sv and np.unique(ring).shape[0] == sv,
            "stream_ring",
            f"expected each of the {sv} support examples once, within budget={budget}",
        )
    else:
        st.require(ring.shape[0] == 0, "stream_ring", "expected no age order without a budget")
    if voted:
        j = S["log_j"] = st.array("stream_log_j", ("int64",), (None,), lo=0, hi=max(sv, 1))
        m = j.shape[0]
        st.require(m == 0 or sv > 0, "stream_log_j", "update log without support examples")
        S["log_r"] = st.array("stream_log_r", ("int64",), (m,), lo=-1, hi=k)
        S["log_c"] = st.array("stream_log_c", ("int64",), (m,), lo=0, hi=int(S["count"][0]) + 1, increasing=True)
        S["log_a"] = st.array("stream_log_a", ("float64",), (m,))
        if cols > 1:
            st.require(bool(np.all(S["log_r"] >= 0)), "stream_log_r", "multiclass updates need a runner-up class")
    return Stored(
        d,
        float("nan") if gamma is None else gamma,
        n_seen,
        counts["n_updates"],
        counts["n_removed"],
        n_epochs,
        converged,
        history["mistakes_per_epoch"],
        history["support_size_per_epoch"],
        classes,
        S,
        rng,
    )
