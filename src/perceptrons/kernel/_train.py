"""The epoch driver of the kernel perceptron: state arrays, row prefetching, budget bookkeeping.

Kept apart from the estimator so that :mod:`perceptrons.kernel.perceptron` reads as parameters,
validation and prediction, and this module as "how an epoch runs".
"""

import time

import numpy as np

from perceptrons._core.finite import largest_magnitude, overflow_error
from perceptrons._jit.dual import epoch_dual

_EMPTY_I = np.zeros(0, dtype=np.int64)
_EMPTY_F = np.zeros(0, dtype=np.float64)


class DualState:
    """Everything the compiled loop mutates, for n examples and K score columns.

    Parameters
    ----------
    n : int
    n_cols : int
        1 for a binary problem, else the number of classes.
    averaging : bool
        Keep the Daumé accumulators ``U``/``ub`` (averaged perceptron).
    budget : int or None
    log : bool
        Record every update (voted perceptron).
    """

    def __init__(self, n, n_cols, averaging, budget, log):
        self.Ft = np.zeros((n_cols, n))
        self.b = np.zeros(n_cols)
        self.A = np.zeros((n, n_cols))
        self.U = np.zeros((n, n_cols)) if averaging else np.zeros((0, n_cols))
        self.ub = np.zeros(n_cols)
        self.alpha = np.zeros(n, dtype=np.int64)
        self.count = np.zeros(1, dtype=np.int64)
        self.budget = int(budget or 0)
        self.ring = np.zeros(max(self.budget, 1), dtype=np.int64)
        self.ring_state = np.zeros(2, dtype=np.int64)
        self.in_support = np.zeros(n, dtype=np.uint8)
        self.kdiag = _EMPTY_F  # the kernel's diagonal, set where a policy reads it (BPA)
        self.forget = np.zeros(1)  # the Forgetron's running Q
        self.Kinv = np.zeros((1, 1))  # the projectrons' inverse Gram matrix of the kept examples
        self.eta = 0.0
        self.log = log
        self.logs = []
        self.stats = np.zeros(2, dtype=np.int64)

    def project(self, gram, eta):
        """Make ready for a projectron: ``Kinv`` the inverse of the kept examples' Gram matrix,
        over their ring positions (a projectron's ring only grows, so its head must be 0), and
        the tolerance ``eta``.  ``gram(kept)`` gives the Gram matrix of the kept examples, in
        the ring's order.  Rebuilt at each call to ``fit``/``partial_fit``: O(|S|³) once,
        rather than a field of the model file."""
        head, size = (int(v) for v in self.ring_state)
        kept = self.ring[(head + np.arange(size)) % self.budget]
        self.ring[:size] = kept
        self.ring_state[:] = (0, size)
        self.Kinv = np.zeros((self.budget, self.budget))
        if size:
            self.Kinv[:size, :size] = np.linalg.pinv(np.asarray(gram(kept), dtype=np.float64), hermitian=True)
        self.eta = float(eta)

    def support(self):
        """Indices (sorted) of the examples whose coefficients the model keeps."""
        if self.budget:
            return np.flatnonzero(self.in_support)
        return np.flatnonzero(self.alpha)


def _at_risk(state, yi, cand, tau, binary):
    """Which candidates are currently inside the margin (would be updated if visited now)."""
    if binary:
        y = np.where(yi[cand] == 1, 1.0, -1.0)
        return y * (state.Ft[0, cand] + state.b[0]) <= tau
    S = state.Ft[:, cand].T + state.b
    k = yi[cand]
    true = S[np.arange(cand.shape[0]), k]
    S[np.arange(cand.shape[0]), k] = -np.inf
    return true - S.max(axis=1) <= tau


def run_epochs(
    state,
    cache,
    yi,
    scale,
    *,
    binary,
    fit_intercept,
    margin,
    max_epochs,
    order,
    policy,
    rng,
    block,
    callback,
    visit=None,
    progress=None,
):
    """Train for up to ``max_epochs`` epochs over the examples ``visit`` (default: all);
    returns (mistakes per epoch, support sizes per epoch, stopped_by_callback).

    ``progress(epoch, visited, total)``, if given, is called within an epoch each time the
    compiled loop stops for a kernel row it needs: an epoch of a large set can take minutes,
    and these stops are the only moments Python runs during it.

    Stops early, after the epoch, when a score is no longer finite (``state.Ft`` or
    ``state.b``); the caller checks for that and raises."""
    visit = np.arange(yi.shape[0], dtype=np.int64) if visit is None else visit
    tau = float(margin)
    mistakes_per_epoch, support_sizes = [], []
    stopped = False
    start_time = time.perf_counter()
    n_log = np.zeros(1, dtype=np.int64)
    weights = (state.Ft, state.b, state.A, state.U, state.ub, state.alpha, state.count)
    gram = (cache.rows, cache.slot_of, cache.stamp, cache.clock)
    for epoch in range(1, max_epochs + 1):
        perm = rng.permutation(visit) if order == "shuffle" else visit
        rand = rng.random(perm.shape[0]) if state.budget and policy == 0 else _EMPTY_F
        if state.log:
            log_j, log_r, log_c = (np.empty(perm.shape[0], dtype=np.int64) for _ in range(3))
            log_a = np.empty(perm.shape[0])
        else:
            log_j = log_r = log_c = _EMPTY_I
            log_a = _EMPTY_F
        n_log[0] = 0
        before = int(state.stats[0])
        t = 0
        while True:
            t, need = epoch_dual(
                (yi, scale, perm),
                t,
                (tau, fit_intercept, binary),
                weights,
                gram,
                (
                    state.budget,
                    policy,
                    state.ring,
                    state.ring_state,
                    state.in_support,
                    rand,
                    state.kdiag,
                    state.forget,
                    state.Kinv,
                    state.eta,
                ),
                (log_j, log_r, log_c, log_a, n_log),
                state.stats,
            )
            if need < 0:
                break
            _prefetch(cache, state, yi, scale, perm, t, need, tau, binary, block)
            if progress is not None:
                progress(epoch, t, perm.shape[0])
        if state.log and n_log[0]:
            m = int(n_log[0])
            state.logs.append((log_j[:m].copy(), log_r[:m].copy(), log_c[:m].copy(), log_a[:m].copy()))
        mistakes = int(state.stats[0]) - before
        mistakes_per_epoch.append(mistakes)
        support_sizes.append(int(state.support().shape[0]))
        if not (np.isfinite(state.Ft).all() and np.isfinite(state.b).all()):
            # An overflowed score compares false with everything, so the epoch's mistakes mean
            # nothing (NaN scores would even look like convergence); the caller reports it.
            break
        if callback is not None and callback(epoch, mistakes, time.perf_counter() - start_time) is False:
            stopped = True
            break
        if mistakes == 0:
            break
    return mistakes_per_epoch, support_sizes, stopped


def _prefetch(cache, state, yi, scale, perm, t, need, tau, binary, block):
    """Fetch the row the loop is waiting for plus, in the same BLAS call, the rows of the next
    uncached examples that are inside the margin right now (likely to be updated soon)."""
    # Speculative rows may only take slots that hold no support example's row: those are the
    # rows read again, and flushing them for guesses makes a small cache thrash.
    valued = (state.in_support if state.budget else state.alpha) > 0
    owners = cache.owner[cache.owner >= 0]
    room = min(block, cache.capacity - 2 - int(np.count_nonzero(valued[owners])))
    idx = [need]
    if room > 1:
        window = perm[t + 1 : t + 1 + 4 * block]
        cand = window[(cache.slot_of[window] < 0) & (scale[window] != 0) & (window != need)]
        if cand.shape[0]:
            cand = cand[_at_risk(state, yi, cand, tau, binary)][: room - 1]
            idx.extend(cand.tolist())
    cache.fetch(np.array(idx, dtype=np.int64), pinned=(int(perm[t]), int(need)), valued=valued)


def training_overflow(kernel, X, i, first):
    """The error for a training score that overflowed: X is finite (validated), so the cause is
    the scale of the features (or of a precomputed kernel), not bad input.  ``i`` is the row of
    ``X`` (whose rows from ``first`` on are the batch, the others the support kept)."""
    where = f"row {i - first}" if i >= first else f"support example {i}"
    what = f"KernelPerceptron: the decision value of training {where}"
    if kernel == "precomputed":
        return overflow_error(what, largest_magnitude(X), "kernel values", "scale the kernel matrix")
    return overflow_error(what, largest_magnitude(X))
