"""The arrays a compiled loop reads for ``X`` (:mod:`perceptrons._jit.rows` has the convention):
chosen in Python, without importing numba, so that a process whose kernels were compiled ahead
of time (:mod:`perceptrons._compile.aot`) never starts it.
"""

import numpy as np

from perceptrons._core.readonly import read_only


def to_operand(X, assume_binary=False):
    """The arrays a compiled loop reads for ``X``, with as few bytes per value as possible.

    Dense C-contiguous float32/float64 input is passed through untouched (no copy).  For CSR
    the decision is taken once per fit: indices become int32 whenever the column count allows
    it, and indptr whenever the number of stored values does (also when int64 come in), and
    the value array is dropped when every stored value is 1 (binary features), leaving
    ``(indices, indptr)``; otherwise ``(data, indices, indptr)``.  A CSR epoch streams values +
    indices, so this is what makes it faster than 12 bytes per non-zero.  ``assume_binary``: the caller built ``X`` with 1s only (a
    :class:`~perceptrons.structured.features.FeatureMap` does) and the scan is skipped.  Every
    array is handed over read-only (:func:`~perceptrons._core.readonly.read_only`): one compiled
    specialisation, whether the caller's rows are writable or a read-only memory map.
    """
    if isinstance(X, np.ndarray):  # dense rows (validated input is an ndarray or scipy sparse)
        return read_only(X)
    int32_max = np.iinfo(np.int32).max
    indices = X.indices
    if indices.dtype != np.int32 and X.shape[1] <= int32_max:
        indices = indices.astype(np.int32)
    indptr = X.indptr
    if indptr.dtype != np.int32 and X.nnz <= int32_max:
        indptr = indptr.astype(np.int32)  # one compiled specialisation for int32 and int64 input
    from perceptrons._jit.rows import all_ones  # CSR only: dense rows need no numba here

    if assume_binary or (X.nnz and all_ones(X.data)):
        return (read_only(indices), read_only(indptr))
    return (read_only(X.data), read_only(indices), read_only(indptr))


def weight_dtype(Xop):
    """float32 weights for CSR whose values are float32 or all ones, float64 otherwise.

    A sparse epoch is bound by gathering w[j] for every non-zero from a vector as wide as the
    vocabulary; half the bytes keep twice as many weights in cache (measured 1.5x faster per
    epoch on 1M Zipf-distributed columns).  With ±1 features and unit sample weights every
    update is an integer, exact in float32 while |w_j| < 2**24.  Dense rows reuse a small w
    that stays in cache, so dense input keeps float64 weights.
    """
    if is_binary(Xop) or (isinstance(Xop, tuple) and Xop[0].dtype == np.float32):
        return np.float32
    return np.float64


def operand_values(Xop, row=None):
    """The stored values of a kernel operand (all of them, or one row's); ones for binary CSR."""
    if not isinstance(Xop, tuple):
        return Xop if row is None else Xop[row]
    if len(Xop) == 2:  # binary CSR: every stored value is 1
        return np.ones(1)
    data, _, indptr = Xop
    return data if row is None else data[indptr[row] : indptr[row + 1]]


def is_binary(Xop):
    """Whether the operand is CSR without a value array (every value 1)."""
    return isinstance(Xop, tuple) and len(Xop) == 2
