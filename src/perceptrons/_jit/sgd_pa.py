"""One epoch of scikit-learn's passive-aggressive learner, in its own order and arithmetic.

scikit-learn's ``PassiveAggressiveClassifier`` (deprecated in 1.8, removed in 1.10) runs PA-I and
PA-II through its SGD loop (``sklearn/linear_model/_sgd_fast.pyx.tp``, ``_plain_sgd``) with a
binary classifier per class.  These loops reproduce one epoch of that loop for one binary
classifier, so that :class:`perceptrons.online.sklearn_pa.PassiveAggressiveClassifier` gives its
results on the same data and order:

* the rows in the order of ``index`` (scikit-learn's dataset index), shuffled first, in place,
  by its Fisher–Yates shuffle driven by its xorshift generator (``our_rand_r``) from the same
  ``seed`` every epoch, so that each epoch's order is a shuffle of the last one's;
* a row of the validation set is skipped; every other row adds its hinge loss
  ``max(0, 1 − y·p)`` (before its update) to the epoch's loss;
* PA-I: a row of zeros is skipped altogether (no update, no count), else
  ``τ = min(C, loss/‖x‖²)``; PA-II: ``τ = loss/(‖x‖² + 1/(2C))``; the update ``τ·y``, times
  the class weight (positive or negative) and the sample weight, is added to the weights and,
  times ``intercept_decay`` (0.01 for sparse rows), to the intercept;
* with averaging from visit ``average``, the averaged SGD weights of scikit-learn's
  ``WeightVector.add_average`` (the scalars ``average_a`` and ``average_b`` of its lazy form).

Every sum runs in the order scikit-learn's runs it (row entries in order, one accumulator), and
the loops are compiled without fast-math, so that the floats are its floats.

``state`` (float64, 6): intercept, average intercept, average_a, average_b, t (the visit
counter, from scikit-learn's ``t_``), the epoch's summed loss.
``params`` (float64, 7): C, PA-II (1) or PA-I (0), intercept_decay, positive and negative
class weights, fit_intercept (1/0), average (0: none).
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit.rows import row_entry, row_nnz

INTERCEPT, AVG_INTERCEPT, AVG_A, AVG_B, T, SUMLOSS = range(6)
OK, NOT_FINITE = -1, -2
RAND_R_MAX = np.uint32(0x7FFFFFFF)


@njit(**NJIT_STRICT)
def our_rand_r(seed):
    """scikit-learn's xorshift generator (``sklearn/utils/_random.pxd``): ``(value, next seed)``."""
    s = np.uint32(seed)
    if s == 0:
        s = np.uint32(1)
    s ^= np.uint32(s << np.uint32(13))
    s ^= np.uint32(s >> np.uint32(17))
    s ^= np.uint32(s << np.uint32(5))
    return np.uint32(s % np.uint32(RAND_R_MAX + np.uint32(1))), s


@njit(**NJIT_STRICT)
def shuffle(index, seed):
    """scikit-learn's ``SequentialDataset.shuffle``: Fisher–Yates on ``index`` in place."""
    n = index.shape[0]
    s = np.uint32(seed)
    for i in range(n - 1):
        r, s = our_rand_r(s)
        j = i + np.int64(r % np.uint32(n - i))
        index[i], index[j] = index[j], index[i]


@njit(**NJIT_STRICT)
def pa_epoch(X, y, sample_weight, validation, index, w, aw, state, params):
    """One epoch over ``index`` (already shuffled when asked) of scikit-learn's PA loop.

    Parameters
    ----------
    X : operand
        Dense rows or CSR (the rows a compiled loop reads, :mod:`perceptrons._jit.rows`).
    y : ndarray of shape (n,), float64
        ±1.
    sample_weight : ndarray of shape (n,), float64
    validation : ndarray of shape (n,), bool
        Rows that are not learned from.
    index : ndarray of shape (n,), int64
        The visit order.
    w : ndarray of shape (d,), float64
        The weights, updated in place.
    aw : ndarray of shape (d,) or (0,), float64
        The averaged weights in scikit-learn's lazy form, updated in place.
    state, params : ndarray of float64
        See the module notes.

    Returns
    -------
    int
        ``OK``; ``NOT_FINITE`` when the weights or the intercept are not finite after the epoch;
        or the row ``i ≥ 0`` whose ‖x‖² overflowed (scikit-learn's step is then 0 and the row is
        silently not learned from: refused here instead).
    """
    C, pa2, decay = params[0], params[1] != 0.0, params[2]
    weight_pos, weight_neg, fit_b, average = params[3], params[4], params[5] != 0.0, params[6]
    intercept = state[INTERCEPT]
    avg_intercept = state[AVG_INTERCEPT]
    average_a, average_b = state[AVG_A], state[AVG_B]
    t = state[T]
    sumloss = 0.0
    for k in range(index.shape[0]):
        i = index[k]
        if validation[i]:
            continue
        p = 0.0
        sq = 0.0
        for q in range(row_nnz(X, i)):
            j, v = row_entry(X, i, q)
            p += w[j] * v
        p += intercept
        yi = y[i]
        z = p * yi
        loss = 1.0 - z if z <= 1.0 else 0.0
        sumloss += loss
        class_weight = weight_pos if yi > 0.0 else weight_neg
        for q in range(row_nnz(X, i)):
            v = row_entry(X, i, q)[1]
            sq += v * v
        if not np.isfinite(sq):
            return i
        if pa2:
            update = loss / (sq + 0.5 / C)
        else:
            if sq == 0.0:
                continue
            update = min(C, loss / sq)
        update *= yi
        update *= class_weight * sample_weight[i]
        if update != 0.0:
            for q in range(row_nnz(X, i)):
                j, v = row_entry(X, i, q)
                w[j] += v * update
            if fit_b:
                intercept += update * decay
        if average > 0.0 and average <= t:
            num_iter = t - average + 1.0
            mu = 1.0 / num_iter
            for q in range(row_nnz(X, i)):
                j, v = row_entry(X, i, q)
                aw[j] += average_a * v * -update
            if num_iter > 1.0:
                average_b /= 1.0 - mu
            average_a += mu * average_b
            avg_intercept += (intercept - avg_intercept) / num_iter
        t += 1.0
    state[INTERCEPT] = intercept
    state[AVG_INTERCEPT] = avg_intercept
    state[AVG_A], state[AVG_B] = average_a, average_b
    state[T] = t
    state[SUMLOSS] = sumloss
    if not np.isfinite(intercept):
        return NOT_FINITE
    for v in w:
        if not np.isfinite(v):
            return NOT_FINITE
    return OK
