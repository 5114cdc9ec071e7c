"""Compiled loops of the kernel (dual) perceptron: arrays in, arrays out.

The dual hypothesis is ``f_k(x) = Σ_j A[j, k]·K(x_j, x) + b[k]`` (binary: one column,
``A[j, 0] = Σ a·y_j`` over the mistakes on ``j``).  Instead of re-summing over the support
examples at every visit, the epoch keeps ``Ft[k, i] = Σ_j A[j, k]·K(x_j, x_i)`` for every
training example and, on a mistake on example ``j``, adds ``±a·K(x_j, ·)`` (one kernel row) to
the one or two columns that change.  A visit then costs O(K) and a mistake O(n): the loop only
ever reads the kernel rows of support examples — which is what makes it fast when most visits
are correct.  Kernel rows live in a row cache owned by Python (``rows``/``slot_of``); when the
loop needs a row that is not cached it returns early, Python computes a block of rows with BLAS,
and the loop resumes at the same visit (nothing has been changed for that visit yet).

Conventions as in :mod:`perceptrons._jit.linear`: a mistake is ``y·f(x) ≤ tau`` (multiclass:
true score minus runner-up score ≤ tau, runner-up ties to the lowest index); the update is
``a·y`` with ``a`` the example's weight; zero-weight examples are skipped as if absent; the
averaged coefficients use Daumé's trick (``U += c·Δ``, mean of the T iterates ``= A − U/T``).
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT

NEED_NOTHING = -1


@njit(**NJIT)
def _runner_up(Ft, b, i, k_true):
    """Best class other than ``k_true`` for example ``i``; ties go to the lowest index."""
    best = -np.inf
    r = -1
    for k in range(Ft.shape[0]):
        if k != k_true:
            s = Ft[k, i] + b[k]
            if r < 0 or s > best:
                best = s
                r = k
    return r


@njit(**dict(NJIT, inline="always"))  # a literal row 0 would compile it again
def _add_row(Ft, k, coef, row):
    """Ft[k, :] += coef · row (row may be float32; the scores stay float64)."""
    for q in range(Ft.shape[1]):
        Ft[k, q] += coef * row[q]


@njit(**NJIT)
def epoch_dual(data, start, rule, weights, gram, budgeted, log, stats):
    """Visit ``perm[start:]``; returns ``(position, example)`` of a missing kernel row, or
    ``(len(perm), -1)`` when the epoch is complete.

    The arguments, bundled by what they are (each a tuple, unpacked below):

    * ``data = (yi, scale, perm)``: class indices (n,) int64, update scales (n,) float64, the
      visiting order (m,) int64;
    * ``start``: the position in ``perm`` to go on from;
    * ``rule = (tau, fit_b, binary)``: the margin, whether the bias learns, two classes or more;
    * ``weights = (Ft, b, A, U, ub, alpha, count)``: Ft (K, n) float64 scores; b, ub (K,);
      A (n, K) coefficients; U (n, K) or (0, K) when not averaging; alpha (n,) int64 mistakes
      per example; count (1,) visits so far;
    * ``gram = (rows, slot_of, stamp, clock)``: the Gram rows kept (capacity, n); slot_of (n,)
      int64 (-1: not kept); stamp (capacity,) int64 last use; clock (1,);
    * ``budgeted = (budget, policy, ring, ring_state, in_support, rand)``: with ``budget > 0``,
      ring (budget,) int64 of kept examples, ring_state [head, size], in_support (n,) uint8,
      rand (len(perm),) uniforms; ``policy`` 0 drops a random kept example, 1 the oldest;
    * ``log = (log_j, log_r, log_c, log_a, n_log)`` (voted): example, runner-up (-1 binary),
      visit counter and signed step of each update, written from ``n_log[0]`` on while there
      is room;
    * ``stats`` (2,) int64 accumulates [mistakes, removals].
    """
    yi, scale, perm = data
    tau, fit_b, binary = rule
    Ft, b, A, U, ub, alpha, count = weights
    rows, slot_of, stamp, clock = gram
    budget, policy, ring, ring_state, in_support, rand = budgeted
    log_j, log_r, log_c, log_a, n_log = log
    averaging = U.shape[0] > 0
    c = count[0]
    for t in range(start, perm.shape[0]):
        i = perm[t]
        a = scale[i]
        if a == 0.0:
            continue
        if binary:
            y = 1.0 if yi[i] == 1 else -1.0
            mistake = y * (Ft[0, i] + b[0]) <= tau
            k = 0
            r = -1
        else:
            k = yi[i]
            r = _runner_up(Ft, b, i, k)
            mistake = (Ft[k, i] + b[k]) - (Ft[r, i] + b[r]) <= tau
        if mistake:
            si = slot_of[i]
            if si < 0:
                count[0] = c
                return t, i
            if budget > 0 and in_support[i] == 0:
                head = ring_state[0]
                size = ring_state[1]
                if size == budget:
                    if policy == 0:
                        q = min(int(rand[t] * size), size - 1)
                    else:
                        q = 0
                    pos = (head + q) % budget
                    m = ring[pos]
                    sm = slot_of[m]
                    if sm < 0:
                        count[0] = c
                        return t, m
                    # The bias is the weight of a constant feature that every kept example
                    # carries, so a dropped example takes its share of the bias with it.
                    for kk in range(A.shape[1]):
                        if A[m, kk] != 0.0:
                            _add_row(Ft, kk, -A[m, kk], rows[sm])
                            if fit_b:
                                b[kk] -= A[m, kk]
                            A[m, kk] = 0.0
                        if averaging:
                            if fit_b:
                                ub[kk] -= U[m, kk]
                            U[m, kk] = 0.0
                    in_support[m] = 0
                    # The slot at ``head`` fills the hole, then ``head`` advances: for the
                    # oldest policy q == 0 and this is a plain FIFO pop.
                    ring[pos] = ring[head]
                    head = (head + 1) % budget
                    size -= 1
                    stats[1] += 1
                ring[(head + size) % budget] = i
                ring_state[0] = head
                ring_state[1] = size + 1
                in_support[i] = 1
            row = rows[si]
            stamp[si] = clock[0]
            clock[0] += 1
            if binary:
                step = a * y
                A[i, 0] += step
                _add_row(Ft, 0, step, row)
                if fit_b:
                    b[0] += step
                if averaging:
                    U[i, 0] += c * step
                    if fit_b:
                        ub[0] += c * step
            else:
                step = a
                A[i, k] += a
                A[i, r] -= a
                _add_row(Ft, k, a, row)
                _add_row(Ft, r, -a, row)
                if fit_b:
                    b[k] += a
                    b[r] -= a
                if averaging:
                    U[i, k] += c * a
                    U[i, r] -= c * a
                    if fit_b:
                        ub[k] += c * a
                        ub[r] -= c * a
            alpha[i] += 1
            stats[0] += 1
            p = n_log[0]
            if p < log_j.shape[0]:
                log_j[p] = i
                log_r[p] = r
                log_c[p] = c
                log_a[p] = step
                n_log[0] = p + 1
        c += 1
    count[0] = c
    return perm.shape[0], NEED_NOTHING


@njit(**NJIT)
def voted_scores(Kb, upd_sv, upd_true, upd_runner, upd_step, weights, fit_b, binary, out):
    """Survival-weighted votes of every intermediate hypothesis, replayed from the update log.

    Kb (n_test, n_sv) kernel values against the support examples; update t touched support
    example ``upd_sv[t]`` with ``upd_step[t]`` (binary: signed ``a·y``; multiclass: ``+a`` to
    class ``upd_true[t]``, ``−a`` to ``upd_runner[t]``); ``weights`` (m + 1,) is the number of
    visits each hypothesis survived (index 0: the initial zero hypothesis).  ``out`` receives
    (n_test, 2) votes for (negative, positive) when binary, else (n_test, n_classes).
    The state per test point is one score vector: O(K) memory, O(m·K) time.
    """
    m = upd_sv.shape[0]
    k_s = 1 if binary else out.shape[1]
    s = np.zeros(k_s)
    for p in range(Kb.shape[0]):
        s[:] = 0.0
        for q in range(out.shape[1]):
            out[p, q] = 0.0
        for t in range(m + 1):
            if t > 0:
                kv = Kb[p, upd_sv[t - 1]]
                a = upd_step[t - 1]
                if binary:
                    s[0] += a * kv + (a if fit_b else 0.0)
                else:
                    d = a * kv + (a if fit_b else 0.0)
                    s[upd_true[t - 1]] += d
                    s[upd_runner[t - 1]] -= d
            w = weights[t]
            if w == 0.0:
                continue
            if binary:
                out[p, 1 if s[0] >= 0.0 else 0] += w
            else:
                best = 0
                for q in range(1, k_s):
                    if s[q] > s[best]:
                        best = q
                out[p, best] += w
    return out
