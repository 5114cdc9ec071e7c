"""Compiled loops of a streamed fit's column scaling: arrays in, arrays out.

A streamed fit (:mod:`perceptrons.io.block_scaling`) divides each column of every block by its
scale, in every epoch.  numpy's gather-and-multiply made a copy and a temporary per block, and
scikit-learn's ``MaxAbsScaler.partial_fit`` a CSC copy per block: on 1M Zipf columns the
scaled fit took 3.7x the time of the unscaled one, most of it there.  These loops make one pass.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT


@njit(**NJIT_STRICT)
def max_abs_columns(data, indices, out):
    """``out[j] = max(out[j], |v|)`` for every stored value ``v`` of column ``j`` (``data`` None:
    every value is 1)."""
    for p in range(indices.shape[0]):
        j = indices[p]
        v = 1.0 if data is None else abs(np.float64(data[p]))
        if v > out[j]:
            out[j] = v


@njit(**NJIT_STRICT)
def scaled_values(data, indices, reciprocal, out):
    """``out[p] = data[p] · reciprocal[indices[p]]`` in ``out``'s type (``out`` may be ``data``):
    scikit-learn's ``inplace_column_scale``, value for value."""
    for p in range(indices.shape[0]):
        out[p] = data[p] * reciprocal[indices[p]]
