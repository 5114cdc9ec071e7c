"""Compiled loops of the LP-by-perceptron solvers: arrays in, arrays out.

Rows of ``A`` (shape (m, n), float64, C-contiguous) are the homogenised constraints; a solution
is any x with ``A x > 0`` componentwise.  Oracles: ``tests/reference.py`` (section "theory").
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT


@njit(**NJIT_STRICT)
def _dot(A, i, x):
    s = 0.0
    for j in range(x.shape[0]):
        s += A[i, j] * x[j]
    return s


@njit(**NJIT_STRICT)
def perceptron_phase(A, x, max_updates):
    """Cyclic PLA on ``A x > 0`` from ``x`` (updated in place): ``x += a_i`` when ``a_i·x ≤ 0``.

    Scans rows 0, 1, …, m−1, 0, … and stops after m consecutive rows without a mistake
    (returns ``(updates, True)``) or after ``max_updates`` updates (``(updates, False)``).
    """
    m = A.shape[0]
    updates = 0
    clean = 0
    i = 0
    while True:
        if _dot(A, i, x) <= 0.0:
            if updates >= max_updates:
                return updates, False
            for j in range(x.shape[0]):
                x[j] += A[i, j]
            updates += 1
            clean = 0
        else:
            clean += 1
            if clean >= m:
                return updates, True
        i += 1
        if i == m:
            i = 0


@njit(**NJIT_STRICT)
def improvement_phase(A, z, sigma, max_steps):
    """Dunagan–Vempala perceptron improvement from the unit vector ``z`` (updated in place).

    Each step takes the most violated row i (smallest ``a_i·z``): if ``a_i·z > 0`` z solves the
    system (status 1); if ``a_i·z ≥ −σ`` z is a rescaling direction (status 2); otherwise
    ``z ← z − (a_i·z) a_i`` and z is renormalised.  Status 0 when ``max_steps`` run out.
    Returns ``(status, steps)``.
    """
    m, n = A.shape
    for step in range(max_steps):
        best = np.inf
        k = -1
        for i in range(m):
            s = _dot(A, i, z)
            if s < best:
                best = s
                k = i
        if best > 0.0:
            return 1, step
        if best >= -sigma:
            return 2, step
        norm = 0.0
        for j in range(n):
            z[j] -= best * A[k, j]
            norm += z[j] * z[j]
        norm = np.sqrt(norm)
        for j in range(n):
            z[j] /= norm
    return 0, max_steps
