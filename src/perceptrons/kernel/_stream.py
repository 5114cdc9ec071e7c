"""What a kernel perceptron carries from one call to the next: its support examples only.

After ``fit`` or ``partial_fit`` the model is the kept examples with their coefficients, the
averaging accumulators, the bias, the visit counter, the budget's age order and (voted) the
update log — O(support) memory (plus O(updates) for the vote log), never the data seen.
A ``partial_fit`` call visits ``[support; batch]`` with only the batch in the visiting order, so a
stream of calls makes exactly the mistakes of one epoch over the concatenated stream.
"""

import numpy as np
import scipy.sparse as sp

from perceptrons._validation import PerceptronsError
from perceptrons.kernel._train import DualState


def dense(X):
    # Kernel values are dense whatever the input, and the BLAS product X·Xᵀ wants dense rows;
    # sparse input (LIBSVM files) is densified once here.
    return np.ascontiguousarray(X.toarray()) if sp.issparse(X) else X


def streamable(est):
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
        S.update(log_j=np.zeros(0, np.int64), log_r=np.zeros(0, np.int64),
                 log_c=np.zeros(0, np.int64), log_a=np.zeros(0))
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
    T = float(S["count"][0])
    if averaged and T > 0:
        coef, bias = S["A"] - S["U"] / T, S["b"] - S["ub"] / T
    else:
        coef, bias = S["A"], S["b"]
    votes = None
    if voted:
        created = np.concatenate([[0], S["log_c"]])
        ends = np.concatenate([S["log_c"], [S["count"][0]]])
        votes = {"sv": S["log_j"], "true": S["y"][S["log_j"]], "runner": S["log_r"],
                 "step": S["log_a"], "weights": (ends - created).astype(np.float64)}
    return np.ascontiguousarray(coef.T), bias.copy(), votes


def to_state(est):
    """``KernelPerceptron._to_state``: metadata plus the carried arrays (``stream_*``)."""
    if callable(est.kernel):
        raise PerceptronsError(
            f"KernelPerceptron with the callable kernel {getattr(est.kernel, '__name__', est.kernel)!r} "
            "cannot be saved: model files store data, never code — use a named kernel or 'precomputed'"
        )
    meta = {
        "n_features_in": int(est.n_features_in_),
        "gamma": None if np.isnan(est.gamma_) else float(est.gamma_),
        "n_seen": int(est._n_seen),
        "n_updates": int(est.n_updates_),
        "n_removed": int(est.n_removed_),
        "n_epochs": int(est.n_epochs_),
        "converged": bool(est.converged_),
        "mistakes_per_epoch": [int(m) for m in est.mistakes_per_epoch_],
        "support_size_per_epoch": [int(m) for m in est.support_size_per_epoch_],
        # a later partial_fit draws its random drops from where this run stopped
        "rng_state": est._rng.bit_generator.state,
    }
    arrays = {"classes": est.classes_, **{f"stream_{k}": v for k, v in est._stream.items()}}
    return meta, arrays


def from_state(est, meta, arrays):
    """``KernelPerceptron._from_state`` (the caller rebuilds the public attributes)."""
    est.n_features_in_ = meta["n_features_in"]
    est.gamma_ = float("nan") if meta["gamma"] is None else meta["gamma"]
    est._n_seen = meta["n_seen"]
    est.n_updates_ = meta["n_updates"]
    est.n_removed_ = meta["n_removed"]
    est.n_epochs_ = meta["n_epochs"]
    est.converged_ = meta["converged"]
    est.mistakes_per_epoch_ = list(meta["mistakes_per_epoch"])
    est.support_size_per_epoch_ = list(meta["support_size_per_epoch"])
    est.n_kernel_rows_ = 0
    est.classes_ = arrays["classes"]
    est._stream = {k[len("stream_"):]: v for k, v in arrays.items() if k.startswith("stream_")}
    est.alpha_ = est._stream["alpha"]
    est._rng = np.random.default_rng()
    est._rng.bit_generator.state = meta["rng_state"]
