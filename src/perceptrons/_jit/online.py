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
AROW, CW, SCW1, SCW2, SOP = 0, 1, 2, 3, 4
ALMA, ROMMA, ROMMA_AGGRESSIVE = 0, 1, 2
WINNOW_POSITIVE, WINNOW_BALANCED = 0, 1


@njit(**_INLINE)
def row_sqnorm(X, i):
    """‖x_i‖²."""
    s = 0.0
    for p in range(row_nnz(X, i)):
        v = row_entry(X, i, p)[1]
        s += v * v
    return s


@njit(**_INLINE)
def _finite(s):
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
        if not _finite(score):
            return -1 - i, updates
        m = y * score
        if m <= 0.0:
            mistakes += 1
        if m < 1.0:  # ‖x‖² only for a row that updates: most rows of a long fit do not
            q = row_sqnorm(X, i) + (1.0 if fit_b else 0.0)
            if not _finite(q):  # ‖x‖² overflowed: a step of 0 would be silent
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
        if not _finite(m):
            return -1 - i, updates
        if m <= 0.0:
            mistakes += 1
        if m < 1.0:
            q = 2.0 * (row_sqnorm(X, i) + (1.0 if fit_b else 0.0))
            if not _finite(q):
                return -1 - i, updates
            if q > 0.0:
                _joint_update(X, i, a * pa_step(variant, C, 1.0 - m, q), k, r, W, bias, fit_b, U, ubias, c, averaging)
                updates += 1
        c += 1
    count[0] = c
    return mistakes, updates


# ----------------------------------------------------------------------------- second order
@njit(**_INLINE)
def may_update(rule, m):
    """Whether the rule can update at margin ``m``: AROW only below 1, the second-order
    perceptron only on a mistake (their variance is then not needed); CW and SCW ask it."""
    if rule == AROW:
        return m < 1.0
    if rule == SOP:
        return m <= 0.0
    return True


@njit(**_INLINE)
def second_order_step(rule, m, v, p1, phi):
    """``(α, β)`` of a second-order rule for margin ``m`` and variance ``v = zᵀΣz > 0``:
    ``μ += α·Σz`` and ``Σ −= β·Σz zᵀΣ`` (α = 0: no update).

    AROW (Crammer, Kulesza & Dredze 2009): on ``m < 1``, β = 1/(v + r), α = (1 − m)·β.
    CW and SCW-I/II (Wang, Zhao & Hoi 2012, which restates CW, Dredze et al. 2008, in closed form):
    α from the paper's equations with φ = Φ⁻¹(η), ψ = 1 + φ²/2, ζ = 1 + φ², then
    u = ¼(−αvφ + √(α²v²φ² + 4v))², β = αφ/(√u + vαφ).
    The second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005): on a mistake (m ≤ 0),
    with Σ = (aI + Σ xxᵀ)⁻¹ kept by Sherman–Morrison, β = 1/(1 + v), α = (1 − m)·β.
    """
    if rule == AROW:
        if m >= 1.0:
            return 0.0, 0.0
        beta = 1.0 / (v + p1)
        return (1.0 - m) * beta, beta
    if rule == SOP:
        if m > 0.0:
            return 0.0, 0.0
        beta = 1.0 / (1.0 + v)
        return (1.0 - m) * beta, beta
    psi = 1.0 + phi * phi / 2.0
    zeta = 1.0 + phi * phi
    if rule == SCW2:
        n = v + 1.0 / (2.0 * p1)
        gamma = phi * np.sqrt(phi * phi * m * m * v * v + 4.0 * n * v * (n + v * phi * phi))
        alpha = max(0.0, (-(2.0 * m * n + phi * phi * m * v) + gamma) / (2.0 * (n * n + n * v * phi * phi)))
    else:
        alpha = max(0.0, (-m * psi + np.sqrt(m * m * phi**4 / 4.0 + v * phi * phi * zeta)) / (v * zeta))
        if rule == SCW1:
            alpha = min(p1, alpha)
    if alpha <= 0.0:
        return 0.0, 0.0
    root = -alpha * v * phi + np.sqrt(alpha * alpha * v * v * phi * phi + 4.0 * v)
    uu = root * root / 4.0
    return alpha, alpha * phi / (np.sqrt(uu) + v * alpha * phi)


@njit(**NJIT)
def second_order_diag_binary(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of a second-order rule with a diagonal Σ; ``extra`` (d + 1,) holds the features'
    variances and the bias's last; ``hyper = (rule, p1, φ)``."""
    w, b, u, ub, count, S = state
    rule, p1, phi = int(hyper[0]), hyper[1], hyper[2]
    averaging = u.shape[0] > 0
    d = w.shape[0]
    mistakes = updates = 0
    c = count[0]
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        ahead = visit_row(perm, min(t + SPARSE_AHEAD, n_visit - 1))
        prefetch_row(X, ahead, w)  # the weights of a row ahead (perceptrons._jit.rows)
        prefetch_row(X, ahead, S)
        a = scale[i]
        if a == 0.0:
            continue
        y = 1.0 if yi[i] == 1 else -1.0
        # the score and the variance in one pass: the two gathers of a column, w[j] and S[j],
        # are in flight together
        score = b[0]
        v = S[d] if fit_b else 0.0
        for p in range(row_nnz(X, i)):
            j, x = row_entry(X, i, p)
            score += w[j] * x
            v += S[j] * x * x
        if not _finite(score):
            return -1 - i, updates
        m = y * score
        if m <= 0.0:
            mistakes += 1
        if not may_update(rule, m):
            c += 1
            continue
        if not _finite(v):  # the variance overflowed
            return -1 - i, updates
        if v <= 0.0:
            c += 1
            continue
        alpha, beta = second_order_step(rule, m, v, p1, phi)
        if alpha > 0.0:
            step = a * alpha * y
            for p in range(row_nnz(X, i)):
                j, x = row_entry(X, i, p)
                g = S[j] * x
                w[j] += step * g
                if averaging:
                    u[j] += step * c * g
                S[j] -= beta * g * g
            if fit_b:
                g = S[d]
                b[0] += step * g
                if averaging:
                    ub[0] += step * c * g
                S[d] -= beta * g * g
            updates += 1
        c += 1
    count[0] = c
    return mistakes, updates


@njit(**NJIT)
def second_order_diag_multiclass(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of a second-order rule with K classes and a diagonal Σ over the joint features:
    ``extra`` (d + 1, K), each class's variances (the bias's in the last row)."""
    W, bias, U, ubias, count, S = state
    rule, p1, phi = int(hyper[0]), hyper[1], hyper[2]
    averaging = U.shape[0] > 0
    d = W.shape[0]
    scores = np.empty(W.shape[1])
    mistakes = updates = 0
    c = count[0]
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        ahead = visit_row(perm, min(t + SPARSE_AHEAD, n_visit - 1))
        prefetch_row(X, ahead, W)  # the weights of a row ahead (perceptrons._jit.rows)
        prefetch_row(X, ahead, S)
        a = scale[i]
        if a == 0.0:
            continue
        k = yi[i]
        row_scores(X, i, W, bias, scores)
        r = _runner_up(scores, k)
        m = scores[k] - scores[r]
        if not _finite(m):
            return -1 - i, updates
        if m <= 0.0:
            mistakes += 1
        if not may_update(rule, m):
            c += 1
            continue
        v = (S[d, k] + S[d, r]) if fit_b else 0.0
        for p in range(row_nnz(X, i)):
            j, x = row_entry(X, i, p)
            v += (S[j, k] + S[j, r]) * x * x
        if not _finite(v):  # the variance overflowed
            return -1 - i, updates
        if v <= 0.0:
            c += 1
            continue
        alpha, beta = second_order_step(rule, m, v, p1, phi)
        if alpha > 0.0:
            step = a * alpha
            for p in range(row_nnz(X, i)):
                j, x = row_entry(X, i, p)
                gk = S[j, k] * x
                gr = S[j, r] * x
                W[j, k] += step * gk
                W[j, r] -= step * gr
                if averaging:
                    U[j, k] += step * c * gk
                    U[j, r] -= step * c * gr
                S[j, k] -= beta * gk * gk
                S[j, r] -= beta * gr * gr
            if fit_b:
                gk, gr = S[d, k], S[d, r]
                bias[k] += step * gk
                bias[r] -= step * gr
                if averaging:
                    ubias[k] += step * c * gk
                    ubias[r] -= step * c * gr
                S[d, k] -= beta * gk * gk
                S[d, r] -= beta * gr * gr
            updates += 1
        c += 1
    count[0] = c
    return mistakes, updates


@njit(**NJIT)
def second_order_full_binary(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of a second-order rule with the full Σ, kept as a square root: ``extra``
    (d + 1, d + 1) is S with Σ = S Sᵀ, the bias's row last.

    Σ − β Σz zᵀΣ written on Σ itself loses its positive definiteness to rounding after a few
    thousand updates that each shrink a direction to almost nothing (CW on a9a: the variances
    went negative within the first epoch, and the fit stopped learning at 0.57 test accuracy).
    Potter's square-root update keeps Σ = S Sᵀ positive by construction: with f = Sᵀz, v = ‖f‖²,
    g = S f = Σz, S ← S − α′ g fᵀ and α′ = β / (1 + √(1 − βv)) gives S Sᵀ − β g gᵀ exactly.
    O(d·nnz) to score a row's variance, O(d²) an update.
    """
    w, b, u, ub, count, S = state
    rule, p1, phi = int(hyper[0]), hyper[1], hyper[2]
    averaging = u.shape[0] > 0
    d = w.shape[0]
    f = np.empty(d + 1)  # Sᵀz
    g = np.empty(d + 1)  # S f = Σz
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
        if not _finite(score):
            return -1 - i, updates
        m = y * score
        if m <= 0.0:
            mistakes += 1
        if not may_update(rule, m):
            c += 1
            continue
        for q in range(d + 1):
            f[q] = S[d, q] if fit_b else 0.0
        for p in range(row_nnz(X, i)):
            j, x = row_entry(X, i, p)
            for q in range(d + 1):
                f[q] += S[j, q] * x
        v = 0.0
        for q in range(d + 1):
            v += f[q] * f[q]
        if not _finite(v):  # the variance overflowed
            return -1 - i, updates
        if v <= 0.0:
            c += 1
            continue
        alpha, beta = second_order_step(rule, m, v, p1, phi)
        if alpha > 0.0:
            for q in range(d + 1):
                s = 0.0
                for r in range(d + 1):
                    s += S[q, r] * f[r]
                g[q] = s
            step = a * alpha * y
            for q in range(d):
                w[q] += step * g[q]
                if averaging:
                    u[q] += step * c * g[q]
            if fit_b:
                b[0] += step * g[d]
                if averaging:
                    ub[0] += step * c * g[d]
            shrink = beta / (1.0 + np.sqrt(max(0.0, 1.0 - beta * v)))
            for q in range(d + 1):
                for r in range(d + 1):
                    S[q, r] -= shrink * g[q] * f[r]
            updates += 1
        c += 1
    count[0] = c
    return mistakes, updates


# ----------------------------------------------------------------------------- ALMA and ROMMA
# Both rescale the whole weight vector at an update.  The vector is kept as mult·v, so that an
# update costs the row's entries, not d: ``extra = (k, mult, ‖w‖²)`` carries the scale and the
# squared norm from block to block of an epoch (k is ALMA's update count, from 1).  At the end
# of every epoch :func:`fold_scale` writes mult into the weights, so that the state between
# epochs is the weights themselves, which parameter mixing can average, and the epoch's
# arithmetic is the same whether its rows came in one block or many.  ‖w‖² < 0 means "not
# known": the next pass computes it.
_FOLD_BELOW = 1e-100
K_ALMA, MULT, NORM2 = 0, 1, 2


@njit(**NJIT)
def fold_scale(W, bias, extra):
    """Write the scale ``extra[MULT]`` into the weights ``W`` and ``bias``; the squared norm is
    then not known (``extra[NORM2] = −1``)."""
    mult = extra[MULT]
    if mult != 1.0:
        W *= mult
        bias *= mult
    extra[MULT] = 1.0
    extra[NORM2] = -1.0


@njit(**_INLINE)
def _sqnorm(W, bias, fit_b):
    s = 0.0
    for v in W.ravel():
        s += v * v
    if fit_b:
        for v in bias:
            s += v * v
    return s


@njit(**_INLINE)
def scaled_step(rule, gap, nz2, n2, k, a, hyper):
    """``(update?, c, dd)``: the weights become ``c·w + dd·z`` (``z`` the joint vector of label
    +1, ``gap = w·z``, ``nz2 = ‖z‖²``, ``n2 = ‖w‖²``, ``k`` the ALMA update count, ``a`` the
    example's weight).

    ALMA₂ (Gentile 2001, p = 2, on ẑ = z/‖z‖): an update when ``w·ẑ ≤ (1 − α)·B/√k``, with
    η = a·C/√k: ``w ← (w + η ẑ) / max(1, ‖w + η ẑ‖)``.
    ROMMA (Li & Long 2002): on a mistake (``gap ≤ 0``; aggressive: ``gap < a``), ``w ← a·z/‖z‖²``
    from w = 0, else ``w ← c·w + d·z`` with ``c = (‖z‖²‖w‖² − a·gap) / D``,
    ``d = ‖w‖²(a − gap) / D``, ``D = ‖z‖²‖w‖² − gap²``: the shortest vector with
    ``w·w_old ≥ ‖w_old‖²`` and margin ``a`` on the example (the paper's margin 1, weighted).
    Where D ≤ 0 (z parallel to w) the first-step rule is taken again.
    """
    if rule == ALMA:
        alpha, B, C = hyper[1], hyper[2], hyper[3]
        nz = np.sqrt(nz2)
        if gap / nz > (1.0 - alpha) * B / np.sqrt(k):
            return False, 1.0, 0.0
        eta = a * C / np.sqrt(k)
        new_n2 = n2 + 2.0 * eta * gap / nz + eta * eta
        shrink = 1.0 / np.sqrt(new_n2) if new_n2 > 1.0 else 1.0
        return True, shrink, shrink * eta / nz
    if gap >= a if rule == ROMMA_AGGRESSIVE else gap > 0.0:
        return False, 1.0, 0.0
    D = nz2 * n2 - gap * gap
    if n2 == 0.0 or D <= 1e-12 * nz2 * n2:
        return True, 0.0, a / nz2
    return True, (nz2 * n2 - a * gap) / D, n2 * (a - gap) / D


@njit(**NJIT)
def scaled_binary(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of ALMA₂ or ROMMA on two classes; ``extra = (k, mult, ‖w‖²)``;
    ``hyper = (rule, α, B, C)`` (ALMA) or ``(rule,)`` (ROMMA)."""
    w, b, _, _, count, extra = state
    rule = int(hyper[0])
    mult, n2 = extra[MULT], extra[NORM2]
    if n2 < 0.0:
        n2 = mult * mult * _sqnorm(w, b, fit_b)
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
        gap = mult * y * (row_dot(X, i, w) + b[0])
        nz2 = row_sqnorm(X, i) + (1.0 if fit_b else 0.0)
        if not (_finite(gap) and _finite(nz2)):  # a score, or ‖x‖², overflowed
            mistakes = -1 - i
            break
        if gap <= 0.0:
            mistakes += 1
        if nz2 > 0.0:
            go, cc, dd = scaled_step(rule, gap, nz2, n2, extra[K_ALMA], a, hyper)
            if go:
                if cc == 0.0:  # w ← dd·z: start from zero
                    w[:] = 0.0
                    b[:] = 0.0
                    mult, n2, gap, cc = 1.0, 0.0, 0.0, 1.0
                n2 = cc * cc * n2 + 2.0 * cc * dd * gap + dd * dd * nz2
                mult *= cc
                row_axpy(X, i, dd * y / mult, w)
                if fit_b:
                    b[0] += dd * y / mult
                if rule == ALMA:
                    extra[K_ALMA] += 1.0
                updates += 1
                if mult < _FOLD_BELOW:  # before v outgrows float64
                    extra[MULT] = mult
                    fold_scale(w, b, extra)
                    mult = 1.0
        c += 1
    extra[MULT], extra[NORM2] = mult, n2
    count[0] = c
    return mistakes, updates


@njit(**NJIT)
def scaled_multiclass(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of ALMA₂ or ROMMA with K classes (the joint vector of the true class and the
    runner-up, ``‖z‖² = 2(‖x‖² + [fit_b])``)."""
    W, bias, _, _, count, extra = state
    rule = int(hyper[0])
    mult, n2 = extra[MULT], extra[NORM2]
    if n2 < 0.0:
        n2 = mult * mult * _sqnorm(W, bias, fit_b)
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
        gap = mult * (scores[k] - scores[r])
        nz2 = 2.0 * (row_sqnorm(X, i) + (1.0 if fit_b else 0.0))
        if not (_finite(gap) and _finite(nz2)):
            mistakes = -1 - i
            break
        if gap <= 0.0:
            mistakes += 1
        if nz2 > 0.0:
            go, cc, dd = scaled_step(rule, gap, nz2, n2, extra[K_ALMA], a, hyper)
            if go:
                if cc == 0.0:  # w ← dd·z: start from zero
                    W[:] = 0.0
                    bias[:] = 0.0
                    mult, n2, gap, cc = 1.0, 0.0, 0.0, 1.0
                n2 = cc * cc * n2 + 2.0 * cc * dd * gap + dd * dd * nz2
                mult *= cc
                step = dd / mult
                row_axpy_col(X, i, step, W, k)
                row_axpy_col(X, i, -step, W, r)
                if fit_b:
                    bias[k] += step
                    bias[r] -= step
                if rule == ALMA:
                    extra[K_ALMA] += 1.0
                updates += 1
                if mult < _FOLD_BELOW:
                    extra[MULT] = mult
                    fold_scale(W, bias, extra)
                    mult = 1.0
        c += 1
    extra[MULT], extra[NORM2] = mult, n2
    count[0] = c
    return mistakes, updates


# ----------------------------------------------------------------------------- Winnow
@njit(**NJIT)
def winnow_binary(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of Winnow on two classes (Littlestone 1988): ``w`` the (positive) weights,
    ``extra`` (d + 1,) the negative weights of balanced Winnow and the bias's last (empty for
    positive Winnow, whose bias is ``b``).  The score is ``w·x + b − θ`` (positive) or
    ``(w − w⁻)·x + (b − b⁻)`` (balanced); on a mistake each weight of a feature in the row is
    multiplied by ``α^(a·y·x_j)`` (the negative ones by ``α^(−a·y·x_j)``).
    ``hyper = (variant, ln α, θ)``."""
    w, b, _, _, count, neg = state
    balanced = int(hyper[0]) == WINNOW_BALANCED
    log_alpha, theta = hyper[1], hyper[2]
    d = w.shape[0]
    mistakes = 0
    c = count[0]
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        ahead = visit_row(perm, min(t + SPARSE_AHEAD, n_visit - 1))
        prefetch_row(X, ahead, w)  # the weights of a row ahead (perceptrons._jit.rows)
        prefetch_row(X, ahead, neg)
        a = scale[i]
        if a == 0.0:
            continue
        y = 1.0 if yi[i] == 1 else -1.0
        score = 0.0
        for p in range(row_nnz(X, i)):  # one pass over the row for both sets of weights
            j, x = row_entry(X, i, p)
            score += (w[j] - neg[j]) * x if balanced else w[j] * x
        if fit_b:  # the constant feature last, as (x, 1)
            score += b[0] - neg[d] if balanced else b[0]
        score -= theta
        if not _finite(score):
            return -1 - i, mistakes
        if y * score <= 0.0:
            mistakes += 1
            for p in range(row_nnz(X, i)):
                j, x = row_entry(X, i, p)
                f = np.exp(a * y * x * log_alpha)
                w[j] *= f
                if balanced:
                    neg[j] /= f
            if fit_b:
                f = np.exp(a * y * log_alpha)
                b[0] *= f
                if balanced:
                    neg[d] /= f
        c += 1
    count[0] = c
    return mistakes, mistakes


@njit(**NJIT)
def winnow_multiclass(X, yi, scale, perm, state, fit_b, hyper):
    """One pass of Winnow with K classes (the joint vector of the true class and the
    runner-up): on a mistake class k's weights of the row's features are multiplied by
    ``α^(a·x_j)`` and the runner-up's divided by it (the negative weights the other way).
    ``extra`` (d + 1, K) the negative weights (balanced), or empty; θ cancels between classes."""
    W, bias, _, _, count, neg = state
    balanced = int(hyper[0]) == WINNOW_BALANCED
    log_alpha = hyper[1]
    d, K = W.shape
    scores = np.empty(K)
    mistakes = 0
    c = count[0]
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        ahead = visit_row(perm, min(t + SPARSE_AHEAD, n_visit - 1))
        prefetch_row(X, ahead, W)  # the weights of a row ahead (perceptrons._jit.rows)
        prefetch_row(X, ahead, neg)
        a = scale[i]
        if a == 0.0:
            continue
        k = yi[i]
        scores[:] = 0.0
        for p in range(row_nnz(X, i)):
            j, x = row_entry(X, i, p)
            for q in range(K):
                scores[q] += (W[j, q] - neg[j, q]) * x if balanced else W[j, q] * x
        if fit_b:  # the constant feature last, as (x, 1)
            for q in range(K):
                scores[q] += bias[q] - neg[d, q] if balanced else bias[q]
        r = _runner_up(scores, k)
        gap = scores[k] - scores[r]
        if not _finite(gap):
            return -1 - i, mistakes
        if gap <= 0.0:
            mistakes += 1
            for p in range(row_nnz(X, i)):
                j, x = row_entry(X, i, p)
                f = np.exp(a * x * log_alpha)
                W[j, k] *= f
                W[j, r] /= f
                if balanced:
                    neg[j, k] /= f
                    neg[j, r] *= f
            if fit_b:
                f = np.exp(a * log_alpha)
                bias[k] *= f
                bias[r] /= f
                if balanced:
                    neg[d, k] /= f
                    neg[d, r] *= f
        c += 1
    count[0] = c
    return mistakes, mistakes
