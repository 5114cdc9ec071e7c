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

from perceptrons._config import NJIT
from perceptrons._jit.linear import _FLOAT_MAX, _runner_up, count_errors_binary, count_errors_multiclass
from perceptrons._jit.storage import row_axpy, row_axpy_col, row_dot, row_scores


@njit(**NJIT)
def pocket_epoch_binary(X, yi, scale, perm, w, b, fit_b, tau, pw, pb, run, perr, ratchet):
    """One pocket epoch; returns the mistakes of the running PLA."""
    mistakes = 0
    cyclic = perm.shape[0] == 0
    for t in range(yi.shape[0] if cyclic else perm.shape[0]):
        i = t if cyclic else perm[t]
        a = scale[i]
        if a == 0.0:
            continue
        y = 1.0 if yi[i] == 1 else -1.0
        score = row_dot(X, i, w) + b[0]
        if not abs(score) <= _FLOAT_MAX:
            return -1 - i
        if y * score <= tau:
            mistakes += 1
            row_axpy(X, i, a * y, w)
            if fit_b:
                b[0] += a * y
            run[0] = 0
            run[2] = 0
            continue
        run[0] += 1
        if run[0] > run[1] and run[2] == 0:
            if ratchet:
                run[2] = 1
                e = count_errors_binary(X, yi, scale, w, b[0], perr[0])
                run[1] = run[0]
                if e < perr[0]:
                    pw[:] = w
                    pb[0] = b[0]
                    perr[0] = e
                    run[3] += 1
            else:
                pw[:] = w
                pb[0] = b[0]
                run[1] = run[0]
                run[3] += 1
    return mistakes


@njit(**NJIT)
def pocket_epoch_multiclass(X, yi, scale, perm, Wt, bias, fit_b, tau, pW, pbias, run, perr, ratchet):
    """Multiclass twin of :func:`pocket_epoch_binary` (argmax over the columns of ``Wt``)."""
    scores = np.empty(Wt.shape[1])
    mistakes = 0
    cyclic = perm.shape[0] == 0
    for t in range(yi.shape[0] if cyclic else perm.shape[0]):
        i = t if cyclic else perm[t]
        a = scale[i]
        if a == 0.0:
            continue
        k = yi[i]
        row_scores(X, i, Wt, bias, scores)
        r = _runner_up(scores, k)
        gap = scores[k] - scores[r]
        if not abs(gap) <= _FLOAT_MAX:
            return -1 - i
        if gap <= tau:
            mistakes += 1
            row_axpy_col(X, i, a, Wt, k)
            row_axpy_col(X, i, -a, Wt, r)
            if fit_b:
                bias[k] += a
                bias[r] -= a
            run[0] = 0
            run[2] = 0
            continue
        run[0] += 1
        if run[0] > run[1] and run[2] == 0:
            if ratchet:
                run[2] = 1
                e = count_errors_multiclass(X, yi, scale, Wt, bias, perr[0])
                run[1] = run[0]
                if e < perr[0]:
                    pW[:, :] = Wt
                    pbias[:] = bias
                    perr[0] = e
                    run[3] += 1
            else:
                pW[:, :] = Wt
                pbias[:] = bias
                run[1] = run[0]
                run[3] += 1
    return mistakes
