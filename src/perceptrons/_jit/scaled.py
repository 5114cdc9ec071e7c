"""Compiled epoch loops of ALMA₂ and ROMMA, which rescale the whole weight vector at an update.
The conventions are those of :mod:`perceptrons._jit.online`.

The vector is kept as mult·v, so that an update costs the row's entries, not d: ``extra = (k,
mult, ‖w‖²)`` carries the scale and the squared norm from block to block of an epoch (k is ALMA's
update count, from 1).  At the end of every epoch :func:`fold_scale` writes mult into the weights,
so that the state between epochs is the weights themselves, which parameter mixing can average,
and the epoch's arithmetic is the same whether its rows came in one block or many.  ‖w‖² < 0
means "not known": the next pass computes it.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT as NJIT
from perceptrons._jit.linear import _runner_up
from perceptrons._jit.online import finite, row_sqnorm
from perceptrons._jit.rows import (
    SPARSE_AHEAD,
    prefetch_row,
    row_axpy,
    row_axpy_col,
    row_dot,
    row_scores,
)
from perceptrons._jit.visits import visit_count, visit_row

_INLINE = dict(NJIT, inline="always")

# rule codes: hyper[0] (perceptrons.online.rules names them)
ALMA, ROMMA, ROMMA_AGGRESSIVE = 0, 1, 2

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
        if not (finite(gap) and finite(nz2)):  # a score, or ‖x‖², overflowed
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
        if not (finite(gap) and finite(nz2)):
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
