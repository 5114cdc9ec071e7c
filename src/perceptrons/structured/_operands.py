"""Input checks that turn X, X_edge and lengths into the plain arrays the ``_jit`` kernels read."""

import numpy as np
import scipy.sparse as sp

from perceptrons._validation import PerceptronsError


def sequence_offsets(lengths, n_tokens, what="lengths"):
    """Start offsets (n_sequences + 1,) from sequence lengths; ``None`` means one token each."""
    if lengths is None:
        return np.arange(n_tokens + 1, dtype=np.int64)
    lengths = np.asarray(lengths)
    if lengths.ndim != 1 or (lengths.size and not np.issubdtype(lengths.dtype, np.integer)):
        raise PerceptronsError(f"{what} must be a 1-d array of non-negative ints; got shape {lengths.shape}, dtype {lengths.dtype}")
    if np.any(lengths < 0):
        raise PerceptronsError(f"{what} must be non-negative; got {int(lengths.min())}")
    total = int(lengths.sum())
    if total != n_tokens:
        raise PerceptronsError(f"{what} sum to {total}, but X has {n_tokens} rows (one per token)")
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])


_NO_EDGES = (np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int32))


def edge_operand(X_edge, n_tokens, n_edge=None):
    """(indptr, indices) of binary edge features, checked against the token count."""
    if X_edge is None:
        if n_edge:
            raise PerceptronsError(f"this model has {n_edge} edge features: pass X_edge to predict")
        return (np.zeros(n_tokens + 1, dtype=np.int64), _NO_EDGES[1]), 0
    X_edge = sp.csr_matrix(X_edge)
    if X_edge.shape[0] != n_tokens:
        raise PerceptronsError(f"X_edge has {X_edge.shape[0]} rows, but X has {n_tokens} (one per token)")
    if n_edge is not None and X_edge.shape[1] != n_edge:
        raise PerceptronsError(f"X_edge has {X_edge.shape[1]} columns, but the model was fitted with {n_edge}")
    if X_edge.nnz and not np.all(X_edge.data == 1):
        raise PerceptronsError("X_edge must be binary (every stored value 1): edge features are indicators")
    return (X_edge.indptr.astype(np.int64), X_edge.indices.astype(np.int32)), X_edge.shape[1]


def csr_operand(X):
    """(indptr, indices, data, binary) for the kernels; indices become int32 when they fit."""
    indices = X.indices if X.indices.dtype == np.int32 or X.shape[1] > np.iinfo(np.int32).max else X.indices.astype(np.int32)
    data = np.ascontiguousarray(X.data, dtype=np.float64)
    binary = bool(data.size == 0 or np.all(data == 1.0))
    return X.indptr.astype(np.int64, copy=False), indices, data, binary
