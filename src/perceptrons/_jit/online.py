r"""Compiled epoch loops of the online family: arrays in, arrays out.

Each loop makes one pass over the rows (``perm`` None: in order) from a linear state
``state = (w, b, u, ub, count, extra)`` (:class:`~perceptrons.linear.trainer.LinearState`),
updates its arrays in place and returns ``(mistakes, updates)``: the rows predicted wrong
(``y·score ≤ 0``, a score of exactly 0 is a mistake as for the PLA) and the rows the rule
learned from.  A non-finite score stops the pass before any update and returns
``mistakes = −1 − i`` for row ``i``, as the perceptron's loops do (:mod:`perceptrons._jit.linear`).

Conventions shared with the perceptron's loops:

* binary labels are class indices ``yi ∈ {0, 1}`` (``y = +1`` for 1); ``w`` is (d,);
* more than two classes keep ``W`` (d, K) and learn on the joint feature vector
  ``z = Φ(x, y) − Φ(x, r)`` of the true class ``y`` and the runner-up ``r`` (the best other
  class, ties to the lowest index): the binary rule with label +1, margin ``s_y − s_r`` and
  ``‖z‖² = 2‖x‖²`` (Crammer et al. 2006, §7; Crammer & Singer 2003), so the update adds to
  class ``y``'s column and takes from ``r``'s;
* the bias is the weight of a constant feature ``x₀ = 1`` when ``fit_b`` (the θ trick of
  DESIGN §2): it counts in ``‖x‖²`` and, for the second-order rules, has a variance of its own;
* ``a = scale[i]`` (sample weight × class weight) multiplies the step; 0 skips the row;
* averaging (``u`` with rows) adds ``c·Δ`` to ``u`` for every additive update ``Δ`` of ``w``
  at visit ``c`` (Daumé 2012), as the averaged perceptron does.

The loops are compiled without fast-math (:data:`~perceptrons._compile.flags.NJIT_STRICT`):
every sum is the one written, in the order written, as ``tests/reference.py`` computes it.  With
re-association, ``s + (w⁺ − w⁻)·1`` became ``(s + w⁺) − w⁻`` in a binary row, and exact ties
between Winnow's classes broke the other way.

Each rule's parameters come in ``hyper`` (float64), its first entry the rule's code; the
Python side (:mod:`perceptrons.online.rules`) names them.  The formulas are in the docstrings of
the estimators of :mod:`perceptrons.online`, with their sources.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT as NJIT
from perceptrons._jit.linear import _runner_up
from perceptrons._jit.rows import (
    SPARSE_AHEAD,
    prefetch_row,
    row_axpy,
    row_axpy_col,
    row_dot,
    row_entry,
    row_nnz,
    row_scores,
)
from perceptrons._jit.visits import visit_count, visit_row

_FLOAT_MAX = np.finfo(np.float64).max
_INLINE = dict(NJIT, inline="always")

# rule codes: hyper[0] of each loop (perceptrons.online.rules names them)
PA, PA1, PA2 = 0, 1, 2


@njit(**_INLINE)
def row_sqnorm(X, i):
    """‖x_i‖²."""
    s = 0.0
    for p in range(row_nnz(X, i)):
        v = row_entry(X, i, p)[1]
        s += v * v
    return s


@njit(**_INLINE)
def finite(s):
    return abs(s) <= _FLOAT_MAX


# ----------------------------------------------------------------------------- passive-aggressive
@njit(**_INLINE)
def pa_step(variant, C, loss, q):
    """τ of PA, PA-I and PA-II for a loss > 0 and ``q = ‖z‖² > 0`` (Crammer et al. 2006, eq. 7)."""
    if variant == PA:
        return loss / q
    if variant == PA1:
        return min(C, loss / q)
    return loss / (q + 1.0 / (2.0 * C))


@njit(**NJIT)
def pa_binary(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of PA / PA-I / PA-II on two classes; ``hyper = (variant, C)``."""
    w, b, u, ub, count, _ = state
    variant, C = int(hyper[0]), hyper[1]
    averaging = u.shape[0] > 0
    mistakes = updates = 0
    c = count[0]
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        ahead = visit_row(perm, min(t + SPARSE_AHEAD, n_visit - 1))
        prefetch_row(X, ahead, w)  # the weights of a row ahead (perceptrons._jit.rows)
        a = scale[i]
        if a == 0.0:
            continue
        y = 1.0 if yi[i] == 1 else -1.0
        score = row_dot(X, i, w) + b[0]
        if not finite(score):
            return -1 - i, updates
        m = y * score
        if m <= 0.0:
            mistakes += 1
        if m < 1.0:  # ‖x‖² only for a row that updates: most rows of a long fit do not
            q = row_sqnorm(X, i) + (1.0 if fit_b else 0.0)
            if not finite(q):  # ‖x‖² overflowed: a step of 0 would be silent
                return -1 - i, updates
            if q > 0.0:
                step = a * pa_step(variant, C, 1.0 - m, q) * y
                row_axpy(X, i, step, w)
                if fit_b:
                    b[0] += step
                if averaging:
                    row_axpy(X, i, step * c, u)
                    if fit_b:
                        ub[0] += step * c
                updates += 1
        c += 1
    count[0] = c
    return mistakes, updates


@njit(**_INLINE)
def _joint_update(X, i, step, k, r, W, bias, fit_b, U, ubias, c, averaging):
    """``step·z`` added to the weights (``step·x`` to class k, ``−step·x`` to r), and ``c`` times
    that to the averaging sums."""
    row_axpy_col(X, i, step, W, k)
    row_axpy_col(X, i, -step, W, r)
    if fit_b:
        bias[k] += step
        bias[r] -= step
    if averaging:
        row_axpy_col(X, i, step * c, U, k)
        row_axpy_col(X, i, -step * c, U, r)
        if fit_b:
            ubias[k] += step * c
            ubias[r] -= step * c


@njit(**NJIT)
def pa_multiclass(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of PA / PA-I / PA-II with K classes (the joint vector of the true class and the
    runner-up); ``hyper = (variant, C)``."""
    W, bias, U, ubias, count, _ = state
    variant, C = int(hyper[0]), hyper[1]
    averaging = U.shape[0] > 0
    scores = np.empty(W.shape[1])
    mistakes = updates = 0
    c = count[0]
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        ahead = visit_row(perm, min(t + SPARSE_AHEAD, n_visit - 1))
        prefetch_row(X, ahead, W)  # the weights of a row ahead (perceptrons._jit.rows)
        a = scale[i]
        if a == 0.0:
            continue
        k = yi[i]
        row_scores(X, i, W, bias, scores)
        r = _runner_up(scores, k)
        m = scores[k] - scores[r]
        if not finite(m):
            return -1 - i, updates
        if m <= 0.0:
            mistakes += 1
        if m < 1.0:
            q = 2.0 * (row_sqnorm(X, i) + (1.0 if fit_b else 0.0))
            if not finite(q):
                return -1 - i, updates
            if q > 0.0:
                _joint_update(X, i, a * pa_step(variant, C, 1.0 - m, q), k, r, W, bias, fit_b, U, ubias, c, averaging)
                updates += 1
        c += 1
    count[0] = c
    return mistakes, updates
