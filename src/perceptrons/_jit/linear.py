"""Compiled epoch loops of the linear perceptron family: arrays in, arrays out.

Every loop takes ``X`` in one of the storages of :mod:`perceptrons._jit.rows` and mutates
the weight arrays it is given in place.  Conventions (see DESIGN §2):

* binary labels are class indices ``yi ∈ {0, 1}``; ``y = +1`` for index 1;
* an example is a mistake when ``y·(w·x + b) ≤ tau`` (``tau = 0``: a point on the hyperplane is a
  mistake, which is what lets the zero vector move); the update is ``w += a·y·x``, ``b += a·y``
  with ``a`` the example's weight (sample_weight × class_weight);
* multiclass keeps ``Wt`` of shape (d, K) — column k is class k's vector, laid out so that one
  non-zero feature touches K contiguous weights — and an example is a mistake when the true
  class's score exceeds the best other class's by ≤ tau (ties to the lowest index); the update
  adds ``a·x`` to the true class and subtracts it from that runner-up (Kalyanakrishnan §4,
  Crammer & Singer 2003);
* a zero-weight example is skipped as if it were absent;
* a non-finite score (NaN or inf in the row, since the weights are finite) stops the pass before
  any update and returns ``mistakes = −1 − i`` for row ``i``: the first epoch of a fit is then
  also its finiteness check, instead of a separate pass over X;
* ``perm`` None visits the rows in order, else in the order of ``perm``;
* averaging (``u`` an array, not None or empty) uses the trick of Daumé (2012): with ``c`` the
  number of examples visited before the current one, every update ``Δ`` also adds ``c·Δ`` to
  ``u``; after ``T`` visits the mean of the T intermediate vectors is ``w − u/T``.
  O(features touched) per update;
* ``log`` (shape (m, 3), or None) receives, in order, the example index, the visit counter
  ``c`` and the runner-up class (−1 when binary) of every update: enough to replay the run
  exactly (trace, voted perceptron) without re-deciding any tie.

``perm``, ``u`` and ``log`` given as None are left out when the loop compiles
(:mod:`perceptrons._jit.visits`), and so is the prefetch of dense rows: ``dense_k``, the visits
ahead a loop asks for a dense row, is None except for rows it pays on
(:func:`~perceptrons._jit.rows.dense_ahead`).
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT
from perceptrons._jit.arrays import copy_into
from perceptrons._jit.rows import SPARSE_AHEAD, prefetch_row, row_axpy, row_axpy_col, row_dot, row_scores
from perceptrons._jit.visits import averaging, log_update, prefetch_visit, visit_count, visit_row

# `not abs(s) <= _FLOAT_MAX` is true for NaN and ±inf.  np.isfinite would not do: under the
# re-association flags LLVM folds its x − x == 0 test away.
_FLOAT_MAX = np.finfo(np.float64).max


@njit(**NJIT)
def _runner_up(scores, k_true):
    """Best class other than ``k_true``; ties go to the lowest index."""
    best = -np.inf
    r = -1
    for k in range(scores.shape[0]):
        if k != k_true and (r < 0 or scores[k] > best):
            best = scores[k]
            r = k
    return r


_INLINE = dict(NJIT, inline="always")


@njit(**_INLINE)
def visit_ahead(X, t, perm, n_visit, W, dense_k):
    """Prefetch for later visits: the weights of the sparse row ``SPARSE_AHEAD`` visits after
    ``t`` (the last row's again near the end), and the dense row ``dense_k`` visits after it
    (``dense_k`` None: not compiled in)."""
    # min, not an `if`: a branch around the inlined row loop kept numba's reference counting of
    # the arrays of X (three atomic NRT_incref and three NRT_decref calls a row, 1.2x the time of
    # a CSR epoch, benchmarks/HISTORY.md, issue 15.1).  Asking twice for the last row is harmless.
    prefetch_row(X, visit_row(perm, min(t + SPARSE_AHEAD, n_visit - 1)), W)
    prefetch_visit(X, perm, t, n_visit, dense_k)


@njit(**_INLINE)
def judge_binary(score, y, tau):
    """The verdict on a row with label ``y`` = ±1 and ``score`` = w·x + b: 1 for a mistake
    (``y·score ≤ tau``), 0 if not, −1 when the score is not finite (NaN or inf in the row: the
    caller stops).  The caller computes ``row_dot`` in its own body (see :func:`visit_ahead`)."""
    if not abs(score) <= _FLOAT_MAX:
        return -1
    return 1 if y * score <= tau else 0


@njit(**_INLINE)
def judge_multiclass(X, i, k, Wt, bias, tau, scores):
    """Visit row ``i`` of class ``k``: (1 for a mistake — the margin over the runner-up class is
    ≤ tau —, 0 if not, −1 for a non-finite score; the runner-up class)."""
    row_scores(X, i, Wt, bias, scores)
    r = _runner_up(scores, k)
    gap = scores[k] - scores[r]
    if not abs(gap) <= _FLOAT_MAX:
        return -1, r
    return (1 if gap <= tau else 0), r


@njit(**_INLINE)
def update_multiclass(X, i, a, k, r, Wt, bias, fit_b, Ut, ubias, c):
    """``a·x_i`` added to class ``k``'s column and taken from the runner-up ``r``'s (biases too),
    and ``c`` times that into the averaging sums when ``Ut`` is an array, not None or empty."""
    row_axpy_col(X, i, a, Wt, k)
    row_axpy_col(X, i, -a, Wt, r)
    if fit_b:
        bias[k] += a
        bias[r] -= a
    if averaging(Ut):
        row_axpy_col(X, i, a * c, Ut, k)
        row_axpy_col(X, i, -a * c, Ut, r)
        if fit_b:
            ubias[k] += a * c
            ubias[r] -= a * c


@njit(**NJIT)
def epoch_binary(X, yi, scale, perm, w, b, rule, u, ub, count, log, dense_k):
    """One pass over ``perm`` (None: the examples in their own order); returns (mistakes, updates logged).

    Shapes: w, u (d,) float64 (u None when not averaging); b, ub (1,); count (1,) int64;
    ``rule = (fit_b, tau)``: whether the bias learns, and the margin of a mistake.
    """
    fit_b, tau = rule
    n_log = 0
    mistakes = 0
    c = count[0]
    bias = b[0]
    ubias = ub[0]
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        visit_ahead(X, t, perm, n_visit, w, dense_k)
        a = scale[i]
        if a == 0.0:
            continue
        y = 1.0 if yi[i] == 1 else -1.0
        verdict = judge_binary(row_dot(X, i, w) + bias, y, tau)
        if verdict < 0:
            mistakes = -1 - i
            break
        if verdict:
            mistakes += 1
            # written here, not in an inlined helper: one whose body branches keeps numba's
            # reference counting of X's arrays, every row (see visit_ahead)
            step = a * y
            row_axpy(X, i, step, w)
            if fit_b:
                bias += step
            if averaging(u):
                row_axpy(X, i, step * c, u)
                if fit_b:
                    ubias += step * c
            n_log = log_update(log, n_log, i, c, -1)
        c += 1
    count[0] = c
    b[0] = bias
    ub[0] = ubias
    return mistakes, n_log


@njit(**NJIT)
def epoch_multiclass(X, yi, scale, perm, Wt, bias, rule, Ut, ubias, count, log, dense_k):
    """One pass over ``perm`` (None: in order) with K weight columns; returns (mistakes, updates logged).

    Shapes: Wt, Ut (d, K) float64 (Ut None when not averaging); bias, ubias (K,); count (1,) int64;
    ``rule = (fit_b, tau)`` as in :func:`epoch_binary`.
    """
    fit_b, tau = rule
    scores = np.empty(Wt.shape[1])
    n_log = 0
    mistakes = 0
    c = count[0]
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        visit_ahead(X, t, perm, n_visit, Wt, dense_k)
        a = scale[i]
        if a == 0.0:
            continue
        k = yi[i]
        verdict, r = judge_multiclass(X, i, k, Wt, bias, tau, scores)
        if verdict < 0:
            mistakes = -1 - i
            break
        if verdict:
            mistakes += 1
            update_multiclass(X, i, a, k, r, Wt, bias, fit_b, Ut, ubias, c)
            n_log = log_update(log, n_log, i, c, r)
        c += 1
    count[0] = c
    return mistakes, n_log


@njit(**NJIT)
def random_mistake_binary(X, yi, scale, w, b, fit_b, tau, u, ub, count, buf, r):
    """Scan every example, then update on one mistake drawn uniformly (``r`` ∈ [0, 1)).

    This is the loop of the Succinctly chapter: "pick a random misclassified example".
    Returns (mistakes found in the scan, index updated or -1, -1).
    """
    m = 0
    for i in range(yi.shape[0]):
        if scale[i] == 0.0:
            continue
        verdict = judge_binary(row_dot(X, i, w) + b[0], 1.0 if yi[i] == 1 else -1.0, tau)
        if verdict < 0:
            return -1 - i, -1, -1
        if verdict:
            buf[m] = i
            m += 1
    if m == 0:
        return 0, -1, -1
    i = buf[min(int(r * m), m - 1)]
    step = scale[i] * (1.0 if yi[i] == 1 else -1.0)
    row_axpy(X, i, step, w)
    if fit_b:
        b[0] += step
    if averaging(u):
        row_axpy(X, i, step * count[0], u)
        if fit_b:
            ub[0] += step * count[0]
    count[0] += 1
    return m, i, -1


@njit(**NJIT)
def random_mistake_multiclass(X, yi, scale, Wt, bias, fit_b, tau, Ut, ubias, count, buf, r):
    """Multiclass twin of :func:`random_mistake_binary`; returns (mistakes, index, runner-up)."""
    scores = np.empty(Wt.shape[1])
    m = 0
    for i in range(yi.shape[0]):
        if scale[i] == 0.0:
            continue
        verdict, _ = judge_multiclass(X, i, yi[i], Wt, bias, tau, scores)
        if verdict < 0:
            return -1 - i, -1, -1
        if verdict:
            buf[m] = i
            m += 1
    if m == 0:
        return 0, -1, -1
    i = buf[min(int(r * m), m - 1)]
    k = yi[i]
    _, q = judge_multiclass(X, i, k, Wt, bias, tau, scores)
    update_multiclass(X, i, scale[i], k, q, Wt, bias, fit_b, Ut, ubias, count[0])
    count[0] += 1
    return m, i, q


@njit(**NJIT)
def count_errors_binary(X, yi, scale, w, b, limit, dense_k):
    """Weighted training errors of (w, b) under the prediction rule sign(0) = +1.

    Stops as soon as the count reaches ``limit`` (the caller only needs to know it is not below).
    """
    err = 0.0
    n = yi.shape[0]
    for i in range(n):
        visit_ahead(X, i, None, n, w, dense_k)
        s = row_dot(X, i, w) + b
        pred = 1 if s >= 0.0 else 0
        if pred != yi[i]:
            err += scale[i]
            if err >= limit:
                return err
    return err


@njit(**NJIT)
def count_errors_multiclass(X, yi, scale, Wt, bias, limit, dense_k):
    """Weighted training errors of argmax prediction (ties to the lowest index); stops at ``limit``."""
    scores = np.empty(Wt.shape[1])
    err = 0.0
    n = yi.shape[0]
    for i in range(n):
        visit_ahead(X, i, None, n, Wt, dense_k)
        row_scores(X, i, Wt, bias, scores)
        if np.argmax(scores) != yi[i]:
            err += scale[i]
            if err >= limit:
                return err
    return err


@njit(**NJIT)
def replay_binary(X, yi, scale, log, w, b, fit_b, vectors, intercepts):
    """Apply the updates of ``log`` (rows as :func:`epoch_binary` logs them) to ``w``, ``b`` in
    order with the epoch's own update step; ``vectors[j]``, ``intercepts[j]`` receive the weights
    after update j (the voted perceptron's j-th vector)."""
    bias = b[0]
    for j in range(log.shape[0]):
        i = log[j, 0]
        step = scale[i] * (1.0 if yi[i] == 1 else -1.0)
        row_axpy(X, i, step, w)
        if fit_b:
            bias += step
        copy_into(vectors[j], w)
        intercepts[j] = bias
    b[0] = bias


@njit(**NJIT)
def replay_multiclass(X, yi, scale, log, Wt, bias, fit_b, vectors, intercepts):
    """Multiclass twin of :func:`replay_binary`: ``vectors`` (m, d, K), ``intercepts`` (m, K)."""
    for j in range(log.shape[0]):
        i = log[j, 0]
        update_multiclass(X, i, scale[i], yi[i], log[j, 2], Wt, bias, fit_b, None, bias, 0)
        copy_into(vectors[j], Wt)
        copy_into(intercepts[j], bias)
