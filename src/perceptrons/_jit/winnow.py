"""Compiled epoch loops of Winnow, positive and balanced (Littlestone 1988).  The conventions
are those of :mod:`perceptrons._jit.online`.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT as NJIT
from perceptrons._jit.linear import _runner_up
from perceptrons._jit.online import finite
from perceptrons._jit.rows import (
    SPARSE_AHEAD,
    prefetch_row,
    row_entry,
    row_nnz,
)
from perceptrons._jit.visits import visit_count, visit_row

_INLINE = dict(NJIT, inline="always")

# rule codes: hyper[0] (perceptrons.online.rules names them)
WINNOW_POSITIVE, WINNOW_BALANCED = 0, 1


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
        if not finite(score):
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
        if not finite(gap):
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
