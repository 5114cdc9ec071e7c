"""The one convention for handing rows to compiled loops, and the row access they use.

A compiled loop sees ``X`` in one of three storages, built by :func:`perceptrons._core.operands.to_operand`:

* ``X`` a C-contiguous 2-D float32/float64 array (dense rows);
* ``X == (data, indices, indptr)`` — CSR with values;
* ``X == (indices, indptr)`` — CSR whose stored values are all 1 (binary features): no value
  array is streamed at all, which is where sparse epochs win their bandwidth.

Every loop — linear, pocket, structured — is written once against ``row_dot`` / ``row_axpy`` /
``row_scores`` / ``row_axpy_col``, and numba compiles one specialisation per storage type, so
no loop branches on "binary" itself.  The plain-Python bodies below are the same algorithms,
summed in the same order, and are what runs under ``NUMBA_DISABLE_JIT=1``; the ``@overload``
versions are what compiled loops inline.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from perceptrons._compile.flags import NJIT
from perceptrons._jit.fence import fenced
from perceptrons._jit.index import unsigned
from perceptrons._jit.prefetch import prefetch

_OPTS = {"fastmath": NJIT["fastmath"]}


def _row(X, i):
    """(values, columns) of row ``i`` (Python fallback only)."""
    if isinstance(X, tuple):
        if len(X) == 2:
            ind, ptr = X
            cols = ind[ptr[i] : ptr[i + 1]]
            return np.ones(cols.shape[0]), cols
        data, ind, ptr = X
        return data[ptr[i] : ptr[i + 1]], ind[ptr[i] : ptr[i + 1]]
    return X[i], None


def row_dot(X, i, w):
    """x_i · w."""
    vals, cols = _row(X, i)
    if cols is None:
        return float(np.dot(vals, w))
    return float(np.dot(vals, w[cols]))


def prefetch_row(X, i, W):
    """Ask the CPU to start loading the weights row ``i`` will gather (``W[j]`` for its columns j).

    A loop calls it a few rows ahead.  Whether the current row is a mistake is a branch the CPU
    cannot predict, and until it resolves the next row's gathers do not start; issued early, they
    overlap the current row's work (measured 1.4x per CSR epoch, issue 15.1).  Dense rows: nothing.
    """


# How many rows ahead a sparse loop asks for its weights: 2 measured best of 1, 2, 4, 8 on
# 1M-column Zipf data; farther ahead, the lines are evicted before use.
SPARSE_AHEAD = 2
# How far ahead a loop asks for short dense rows.  Rows of 256-1024 bytes only: there an epoch
# over 400-byte rows measured 1.1-1.2x faster, and over rows of 200 bytes or of 1.6 KB and
# more slower, where the prefetches cost more than they save (benchmarks/HISTORY.md, issue 15.2).
_DENSE_AHEAD_BYTES = 3072


def dense_ahead(Xop):
    """How many visits ahead a loop asks for a dense row (:func:`prefetch_values`), or None for
    never: CSR rows, and dense rows outside 256-1024 bytes.  A loop given None compiles without
    the prefetch, so the rows that do not gain from it do not pay for it either."""
    if isinstance(Xop, tuple):
        return None
    row_bytes = Xop.shape[1] * Xop.itemsize
    return _DENSE_AHEAD_BYTES // row_bytes if 256 < row_bytes <= 1024 else None


def prefetch_values(X, i):
    """Ask the CPU to start loading dense row ``i``'s own values.

    Dense rows stream in order, and the hardware prefetcher has them while nothing interrupts
    the loop.  But a mistake is a mispredicted branch, and a loop over short rows, which mistakes
    interrupt every ~2 KB, measured faster when it asked for its rows itself (float32 x 100,
    medians, issue 15.2): the epoch without mistakes from 0.90 to 1.13 of the read bandwidth,
    the epoch with them from 0.78 to 0.87.
    """


def row_axpy(X, i, a, w):
    """w += a · x_i."""
    vals, cols = _row(X, i)
    if cols is None:
        w += a * vals
    else:
        np.add.at(w, cols, a * vals)


def row_scores(X, i, Wt, bias, out):
    """out[k] = bias[k] + x_i · Wt[:, k]  for a (d, K) weight matrix, summed feature by feature."""
    vals, cols = _row(X, i)
    out[:] = bias
    if cols is None:
        cols = np.flatnonzero(vals)
        vals = vals[cols]
    for v, j in zip(vals.tolist(), cols.tolist()):
        out += v * Wt[j]


def row_axpy_col(X, i, a, Wt, k):
    """Wt[:, k] += a · x_i."""
    vals, cols = _row(X, i)
    if cols is None:
        Wt[:, k] += a * vals
    else:
        np.add.at(Wt[:, k], cols, a * vals)


def row_nnz(X, i):
    """How many entries of row ``i`` a loop visits with :func:`row_entry`: every column of a
    dense row, the stored values of a CSR row."""
    return _row(X, i)[0].shape[0]


def row_entry(X, i, p):
    """``(column, value)`` of the ``p``-th entry of row ``i`` (the value as float64).

    The online family's loops (:mod:`perceptrons._jit.online`) walk a row entry by entry with
    these two, written once for every storage: their updates touch a second array per feature
    (a variance, a negative weight), which ``row_dot`` and ``row_axpy`` do not.
    """
    vals, cols = _row(X, i)
    return (p if cols is None else int(cols[p])), float(vals[p])


def _kind(X):  # pragma: no cover - compile-time only (numba types)
    if isinstance(X, types.Array):
        return "dense"
    if isinstance(X, types.BaseTuple) and len(X) == 2:
        return "ones"
    if isinstance(X, types.BaseTuple) and len(X) == 3:
        return "csr"
    return None


@overload(row_dot, jit_options=_OPTS, inline="always")
def _row_dot_dense(X, i, w):  # pragma: no cover - compile-time only; the JIT runs it
    if _kind(X) != "dense":
        return None

    def impl(X, i, w):
        s = 0.0
        for j in range(X.shape[1]):
            s += X[i, j] * w[j]
        return s

    return impl


# The sparse dot products and updates are inlined into the loops, and fenced (perceptrons._jit.fence):
# each sum and product is the one written, in the order written, on every machine and build, as
# tests/reference.py computes it, while the loop around keeps its fastmath flags.  Unfenced under
# re-association, LLVM unrolled the gather loop into vectors assembled from scalar loads (2.5x the
# instructions, 1.3-1.5x slower on 1M-column Zipf data); called as functions of their own, every
# row passed the arrays field by field on the stack (benchmarks/HISTORY.md, issue 15.1).  Every
# index goes through `unsigned` (perceptrons._jit.index): no wraparound code in the gathers.
def _dot_ones(X, i, w):  # pragma: no cover - compiled; row_dot's Python body is the oracle
    # Four independent sums let the gathers w[ind[p]] miss the cache in parallel; a single
    # accumulator serialises them (measured 3-4x slower on 1M-column Zipf data).
    ind, ptr = X
    p, end = ptr[i], ptr[i + 1]
    s0 = s1 = s2 = s3 = 0.0
    while p + 4 <= end:
        s0 = fenced(s0 + w[unsigned(ind[unsigned(p)])])
        s1 = fenced(s1 + w[unsigned(ind[unsigned(p + 1)])])
        s2 = fenced(s2 + w[unsigned(ind[unsigned(p + 2)])])
        s3 = fenced(s3 + w[unsigned(ind[unsigned(p + 3)])])
        p += 4
    while p < end:
        s0 = fenced(s0 + w[unsigned(ind[unsigned(p)])])
        p += 1
    return fenced(fenced(s0 + s1) + fenced(s2 + s3))


def _dot_csr(X, i, w):  # pragma: no cover - compiled; row_dot's Python body is the oracle
    data, ind, ptr = X
    p, end = ptr[i], ptr[i + 1]
    s0 = s1 = s2 = s3 = 0.0
    while p + 4 <= end:
        s0 = fenced(s0 + fenced(data[unsigned(p)] * w[unsigned(ind[unsigned(p)])]))
        s1 = fenced(s1 + fenced(data[unsigned(p + 1)] * w[unsigned(ind[unsigned(p + 1)])]))
        s2 = fenced(s2 + fenced(data[unsigned(p + 2)] * w[unsigned(ind[unsigned(p + 2)])]))
        s3 = fenced(s3 + fenced(data[unsigned(p + 3)] * w[unsigned(ind[unsigned(p + 3)])]))
        p += 4
    while p < end:
        s0 = fenced(s0 + fenced(data[unsigned(p)] * w[unsigned(ind[unsigned(p)])]))
        p += 1
    return fenced(fenced(s0 + s1) + fenced(s2 + s3))


@overload(row_dot, inline="always")
def _row_dot_sparse(X, i, w):  # pragma: no cover - compile-time only; the JIT runs it
    return {"ones": _dot_ones, "csr": _dot_csr}.get(_kind(X))


@overload(prefetch_row, jit_options=_OPTS, inline="always")
def _prefetch_row(X, i, W):  # pragma: no cover - compile-time only; the JIT runs it
    kind = _kind(X)
    if kind == "dense":

        def impl(X, i, W):
            pass  # dense rows stream in order: the hardware prefetcher already has them

    elif kind in ("ones", "csr"):

        def impl(X, i, W):
            ind, ptr = X[-2], X[-1]
            for p in range(ptr[i], ptr[i + 1]):
                prefetch(W, unsigned(ind[unsigned(p)]))

    else:
        return None
    return impl


@overload(prefetch_values, jit_options=_OPTS, inline="always")
def _prefetch_values(X, i):  # pragma: no cover - compile-time only; the JIT runs it
    if _kind(X) != "dense":
        return None

    def impl(X, i):
        prefetch(X, i)

    return impl


# The averaging sums of a loop that keeps none are None (perceptrons._jit.visits): a loop's
# `if averaging(u): row_axpy(X, i, a, u)` is typed even where it can never run.
@overload(row_axpy, inline="always")
def _row_axpy_none(X, i, a, w):  # pragma: no cover - compile-time only; the JIT runs it
    if isinstance(w, types.NoneType):
        return lambda X, i, a, w: None
    return None


@overload(row_axpy_col, inline="always")
def _row_axpy_col_none(X, i, a, Wt, k):  # pragma: no cover - compile-time only; the JIT runs it
    if isinstance(Wt, types.NoneType):
        return lambda X, i, a, Wt, k: None
    return None


@overload(row_axpy, jit_options=_OPTS, inline="always")
def _row_axpy_dense(X, i, a, w):  # pragma: no cover - compile-time only; the JIT runs it
    if _kind(X) != "dense" or isinstance(w, types.NoneType):
        return None

    def impl(X, i, a, w):
        for j in range(X.shape[1]):
            w[j] += a * X[i, j]

    return impl


# Fenced for the reason of _dot_csr, and so that a·x is rounded before the add (no fused
# multiply-add), as tests/reference.py computes an update.
def _axpy_ones(X, i, a, w):  # pragma: no cover - compiled; row_axpy's Python body is the oracle
    ind, ptr = X
    for p in range(ptr[i], ptr[i + 1]):
        j = unsigned(ind[unsigned(p)])
        w[j] = fenced(w[j] + a)


def _axpy_csr(X, i, a, w):  # pragma: no cover - compiled; row_axpy's Python body is the oracle
    data, ind, ptr = X
    for p in range(ptr[i], ptr[i + 1]):
        j = unsigned(ind[unsigned(p)])
        w[j] = fenced(w[j] + fenced(a * data[unsigned(p)]))


@overload(row_axpy, inline="always")
def _row_axpy_sparse(X, i, a, w):  # pragma: no cover - compile-time only; the JIT runs it
    if isinstance(w, types.NoneType):
        return None
    return {"ones": _axpy_ones, "csr": _axpy_csr}.get(_kind(X))


@overload(row_scores, jit_options=_OPTS, inline="always")
def _row_scores(X, i, Wt, bias, out):  # pragma: no cover - compile-time only; the JIT runs it
    kind = _kind(X)
    if kind == "dense":

        def impl(X, i, Wt, bias, out):
            K = out.shape[0]
            for k in range(K):
                out[k] = bias[k]
            for j in range(X.shape[1]):
                v = X[i, j]
                if v != 0.0:  # images and one-hot blocks are mostly zeros
                    for k in range(K):
                        out[k] += v * Wt[j, k]

    elif kind == "ones":

        def impl(X, i, Wt, bias, out):
            ind, ptr = X
            K = out.shape[0]
            for k in range(K):
                out[k] = bias[k]
            for p in range(ptr[i], ptr[i + 1]):
                j = unsigned(ind[unsigned(p)])
                for k in range(K):
                    out[k] += Wt[j, k]

    elif kind == "csr":

        def impl(X, i, Wt, bias, out):
            data, ind, ptr = X
            K = out.shape[0]
            for k in range(K):
                out[k] = bias[k]
            for p in range(ptr[i], ptr[i + 1]):
                j = unsigned(ind[unsigned(p)])
                v = data[unsigned(p)]
                for k in range(K):  # fenced: each product rounded before its add, as in row_dot
                    out[k] = fenced(out[k] + fenced(v * Wt[j, k]))

    else:
        return None
    return impl


@overload(row_axpy_col, jit_options=_OPTS, inline="always")
def _row_axpy_col(X, i, a, Wt, k):  # pragma: no cover - compile-time only; the JIT runs it
    kind = None if isinstance(Wt, types.NoneType) else _kind(X)
    if kind == "dense":

        def impl(X, i, a, Wt, k):
            for j in range(X.shape[1]):
                Wt[j, k] += a * X[i, j]

    elif kind == "ones":

        def impl(X, i, a, Wt, k):
            ind, ptr = X
            for p in range(ptr[i], ptr[i + 1]):
                Wt[unsigned(ind[unsigned(p)]), k] += a

    elif kind == "csr":

        def impl(X, i, a, Wt, k):
            data, ind, ptr = X
            for p in range(ptr[i], ptr[i + 1]):
                j = unsigned(ind[unsigned(p)])
                Wt[j, k] = fenced(Wt[j, k] + fenced(a * data[unsigned(p)]))  # as in row_axpy

    else:
        return None
    return impl


@overload(row_nnz, inline="always")
def _row_nnz(X, i):  # pragma: no cover - compile-time only; the JIT runs it
    kind = _kind(X)
    if kind == "dense":
        return lambda X, i: X.shape[1]
    if kind in ("ones", "csr"):
        return lambda X, i: X[-1][i + 1] - X[-1][i]
    return None


@overload(row_entry, inline="always")
def _row_entry(X, i, p):  # pragma: no cover - compile-time only; the JIT runs it
    kind = _kind(X)
    if kind == "dense":
        return lambda X, i, p: (p, np.float64(X[i, p]))
    if kind == "ones":
        return lambda X, i, p: (unsigned(X[0][unsigned(X[1][i] + p)]), 1.0)
    if kind == "csr":

        def impl(X, i, p):
            at = unsigned(X[2][i] + p)
            return unsigned(X[1][at]), np.float64(X[0][at])

        return impl
    return None


@njit(**NJIT)
def all_ones(data):
    """True when every stored value is exactly 1 (stops at the first that is not)."""
    for v in data:
        if v != 1.0:
            return False
    return True
