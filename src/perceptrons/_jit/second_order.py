"""Compiled epoch loops of the second-order learners: AROW, CW, SCW-I/II and the second-order
perceptron, with a diagonal or a full covariance.  The conventions (the state, the joint
vector of more classes, the bias as a constant feature, mistakes and updates) are those of
:mod:`perceptrons._jit.online`; the formulas are in :func:`second_order_step`.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT as NJIT
from perceptrons._jit.linear import _runner_up
from perceptrons._jit.online import finite
from perceptrons._jit.rows import (
    SPARSE_AHEAD,
    prefetch_row,
    row_dot,
    row_entry,
    row_nnz,
    row_scores,
)
from perceptrons._jit.visits import visit_count, visit_row

_INLINE = dict(NJIT, inline="always")

# rule codes: hyper[0] (perceptrons.online.rules names them)
AROW, CW, SCW1, SCW2, SOP = 0, 1, 2, 3, 4


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
def second_order_step(rule, m, v, p1, phi, a):
    """``(α, β)`` of a second-order rule for margin ``m``, variance ``v = zᵀΣz > 0`` and the
    example's weight ``a > 0``: ``μ += α·Σz`` and ``Σ −= β·Σz zᵀΣ`` (α = 0: no update).

    AROW (Crammer, Kulesza & Dredze 2009): on ``m < 1``, β = 1/(v + r/a), α = (1 − m)·β.
    CW and SCW-I/II (Wang, Zhao & Hoi 2012, which restates CW, Dredze et al. 2008, in closed form):
    α from the paper's equations with φ = Φ⁻¹(η), ψ = 1 + φ²/2, ζ = 1 + φ², SCW's C taken as
    a·C and CW's φ as a·φ, then u = ¼(−αvφ + √(α²v²φ² + 4v))², β = αφ/(√u + vαφ).
    The second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005): on a mistake (m ≤ 0),
    with Σ = (aI + Σ xxᵀ)⁻¹ kept by Sherman–Morrison, β = 1/(1/a + v), α = (1 − m)·β.

    The weight scales each rule's loss (AROW's 1/r, SCW's C, the count of the example in the
    perceptron's sums), so that the mean and the covariance move together; CW, which has no
    loss, asks a weighted example for a·φ standard deviations of confidence.  a = 1 is the
    papers' rule.  (Scaling only the mean's step, as before, made a weight of 10 on every row
    grow AROW's weights to 1e7 and CW's past 1e70.)
    """
    if rule == AROW:
        if m >= 1.0:
            return 0.0, 0.0
        beta = 1.0 / (v + p1 / a)
        return (1.0 - m) * beta, beta
    if rule == SOP:
        if m > 0.0:
            return 0.0, 0.0
        beta = 1.0 / (1.0 / a + v)
        return (1.0 - m) * beta, beta
    if rule == CW:
        phi *= a
    psi = 1.0 + phi * phi / 2.0
    zeta = 1.0 + phi * phi
    if rule == SCW2:
        n = v + 1.0 / (2.0 * p1 * a)
        gamma = phi * np.sqrt(phi * phi * m * m * v * v + 4.0 * n * v * (n + v * phi * phi))
        alpha = max(0.0, (-(2.0 * m * n + phi * phi * m * v) + gamma) / (2.0 * (n * n + n * v * phi * phi)))
    else:
        alpha = max(0.0, (-m * psi + np.sqrt(m * m * phi**4 / 4.0 + v * phi * phi * zeta)) / (v * zeta))
        if rule == SCW1:
            alpha = min(p1 * a, alpha)
    if alpha <= 0.0:
        return 0.0, 0.0
    # computed as the paper writes it, as LIBOL does.  Its difference of two near-equal terms
    # rounds √u towards 0 once αvφ is large (a small variance), and so β towards 1/v, which
    # empties the variance along x: the learner then stops moving there.  Written without the
    # cancellation (4v/(αvφ + √(…)), the same number), a small variance was kept instead, each
    # later mistake took a step α of about |m|/v, and CW's weights grew to overflow on a9a in
    # its tenth epoch (epochs 1, 2, 5: 0.737, 0.688, 0.648, against 0.691, 0.701, 0.733 and 0.714
    # at 10 as written)
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
        if not finite(score):
            return -1 - i, updates
        m = y * score
        if m <= 0.0:
            mistakes += 1
        if not may_update(rule, m):
            c += 1
            continue
        if not finite(v):  # the variance overflowed
            return -1 - i, updates
        if v <= 0.0:
            c += 1
            continue
        alpha, beta = second_order_step(rule, m, v, p1, phi, a)
        if alpha > 0.0:
            step = alpha * y
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
        if not finite(m):
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
        if not finite(v):  # the variance overflowed
            return -1 - i, updates
        if v <= 0.0:
            c += 1
            continue
        alpha, beta = second_order_step(rule, m, v, p1, phi, a)
        if alpha > 0.0:
            step = alpha
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
        if not finite(score):
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
        if not finite(v):  # the variance overflowed
            return -1 - i, updates
        if v <= 0.0:
            c += 1
            continue
        alpha, beta = second_order_step(rule, m, v, p1, phi, a)
        if alpha > 0.0:
            for q in range(d + 1):
                s = 0.0
                for r in range(d + 1):
                    s += S[q, r] * f[r]
                g[q] = s
            step = alpha * y
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
