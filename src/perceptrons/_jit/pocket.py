"""The pocket algorithm's epoch (Gallant 1990): the PLA plus a pocket of the best weights seen.

Gallant's run-length rule keeps the cost honest: the current weights are a *candidate* only once
their run of consecutive correct classifications exceeds the run the pocket weights had when they
were pocketed.  With the ratchet, a candidate's errors on the whole training set are counted once
(O(n·d)) and it replaces the pocket only if it makes strictly fewer; without it, the longer run
alone replaces the pocket.  Each weight vector is counted at most once, and as the pocket's run
grows, candidates become rare, so an epoch costs a small multiple of a PLA epoch in practice.

State arrays (mutated in place):
* ``run`` int64 (4,): current run, pocket's run, candidate already counted (0/1), replacements;
* ``perr`` float64 (1,): the pocket's weighted training errors.
Mistake rule, update rule, labels and the non-finite return (−1 − row) as in
:mod:`perceptrons._jit.linear`.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT
from perceptrons._jit.arrays import copy_into
from perceptrons._jit.linear import (
    count_errors_binary,
    count_errors_multiclass,
    judge_binary,
    judge_multiclass,
    update_multiclass,
    visit_ahead,
)
from perceptrons._jit.rows import row_axpy, row_dot
from perceptrons._jit.visits import visit_count, visit_row


@njit(**NJIT)
def pocket_epoch_binary(X, yi, scale, perm, w, b, rule, pocket, dense_k):
    """One pocket epoch; returns the mistakes of the running PLA.

    ``rule = (fit_b, tau)`` as in :func:`perceptrons._jit.linear.epoch_binary`; ``pocket =
    (pw, pb, run, perr, ratchet)``: the pocket's weights and bias, its state arrays (see the
    module's docstring) and whether the ratchet is on.
    """
    fit_b, tau = rule
    # by index, not unpacked: see perceptrons._jit
    pw = pocket[0]
    pb = pocket[1]
    run = pocket[2]
    perr = pocket[3]
    ratchet = pocket[4]
    mistakes = 0
    n_visit = visit_count(perm, yi.shape[0])
    for t in range(n_visit):
        i = visit_row(perm, t)
        visit_ahead(X, t, perm, n_visit, w, dense_k)
        a = scale[i]
        if a == 0.0:
            continue
        y = 1.0 if yi[i] == 1 else -1.0
        verdict = judge_binary(row_dot(X, i, w) + b[0], y, tau)
        if verdict < 0:
            return -1 - i
        if verdict:
            mistakes += 1
            row_axpy(X, i, a * y, w)  # the pocket keeps no averaging sums
            if fit_b:
                b[0] += a * y
            run[0] = 0
            run[2] = 0
            continue
        run[0] += 1
        if run[0] > run[1] and run[2] == 0:
            if ratchet:
                run[2] = 1
                e = count_errors_binary(X, yi, scale, w, b[0], perr[0], dense_k)
                run[1] = run[0]
                if e < perr[0]:
                    copy_into(pw, w)
                    pb[0] = b[0]
                    perr[0] = e
                    run[3] += 1
            else:
                copy_into(pw, w)
                pb[0] = b[0]
                run[1] = run[0]
                run[3] += 1
    return mistakes


@njit(**NJIT)
def pocket_epoch_multiclass(X, yi, scale, perm, Wt, bias, rule, pocket, dense_k):
    """Multiclass twin of :func:`pocket_epoch_binary` (argmax over the columns of ``Wt``)."""
    fit_b, tau = rule
    pW = pocket[0]
    pbias = pocket[1]
    run = pocket[2]
    perr = pocket[3]
    ratchet = pocket[4]
    scores = np.empty(Wt.shape[1])
    mistakes = 0
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
            return -1 - i
        if verdict:
            mistakes += 1
            update_multiclass(X, i, a, k, r, Wt, bias, fit_b, None, bias, 0)
            run[0] = 0
            run[2] = 0
            continue
        run[0] += 1
        if run[0] > run[1] and run[2] == 0:
            if ratchet:
                run[2] = 1
                e = count_errors_multiclass(X, yi, scale, Wt, bias, perr[0], dense_k)
                run[1] = run[0]
                if e < perr[0]:
                    copy_into(pW, Wt)
                    copy_into(pbias, bias)
                    perr[0] = e
                    run[3] += 1
            else:
                copy_into(pW, Wt)
                copy_into(pbias, bias)
                run[1] = run[0]
                run[3] += 1
    return mistakes
