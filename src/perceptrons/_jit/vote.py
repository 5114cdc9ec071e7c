"""The voted perceptron's two-class vote over dense rows (Freund & Schapire 1999, Section 2).

Vector by vector, each row's score is summed in the order the oracle sums it,
``(Σ_j x_j·v_j) + b``, and the vector's count is added to the row's vote (score ≥ 0) or taken
from it.  The rows are the inner loop, over ``X`` transposed, so the loop runs down contiguous
columns and is vectorised across rows: on rows that stay in cache (the report's, at most
100,000 values), under a nanosecond a (row, vector) pair against about five for NumPy's
product, sign and second product.  Each vector streams all the rows once, so wide data that
does not fit in cache is left to the blocked product of ``VotedPerceptron.decision_function``.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT


@njit(**NJIT_STRICT)  # the oracle's order: no contraction into fused multiply-adds
def binary_votes(XT, V, b, c, out, s):
    """Add Σ_k c_k·sign(v_k·x + b_k) to ``out`` for each row x of ``X`` (given as ``XT``).

    Parameters
    ----------
    XT : float64 (d, n), C-contiguous: the rows as columns.
    V : float64 (m, d); b, c : float64 (m,): vectors, intercepts, counts.
    out : float64 (n,), added to.  s : float64 (n,), scratch.

    Returns
    -------
    int
        -1, or the first row whose score is not finite (``out`` is then incomplete).
    """
    d, n = XT.shape
    for k in range(V.shape[0]):
        for i in range(n):
            s[i] = 0.0
        for j in range(d):
            v = V[k, j]
            for i in range(n):
                s[i] += XT[j, i] * v
        bk, ck = b[k], c[k]
        bad = False
        for i in range(n):
            t = s[i] + bk
            bad |= not np.isfinite(t)
            out[i] += ck if t >= 0 else -ck
        if bad:
            for i in range(n):
                if not np.isfinite(s[i] + bk):
                    return i
    return -1
