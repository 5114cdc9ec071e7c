"""A block: consecutive rows of a data source, in the storage the compiled loops take.

Streaming sources (LIBSVM, Vowpal Wabbit text, CSV, Parquet, the epoch cache) yield blocks;
the streaming fit, prediction and the distributed trainer consume them.  A block holds either

* dense rows ``X`` (n, d), C-contiguous float32 or float64; or
* CSR rows: ``indptr`` (n + 1,) int64 starting at 0, ``indices`` (nnz,) int32, 0-based, and
  ``data`` (nnz,) float32 — or ``data is None`` when every stored value is 1 (binary features),
  so that no value array is stored, read or streamed.

``y`` holds the labels as read (float64 numbers, or strings), ``weight`` optional per-row
importances.  ``path`` and ``line`` (the 1-based line of the first row) let a later check name
the row it refuses; ``end``, when the reader knows it (LIBSVM, VW), is the offset in the
(decompressed) text just past the block, for a progress display.  ``width``, for CSR rows
whose columns are hashes, is the hash space (2**hash_bits): a model trained on them must be
that wide, so that a name never seen in training still lands in one of its columns;
``numbers``, for hashed rows of a table, are the columns (hashes) of its columns of numbers,
which a fit may standardise (:class:`~perceptrons.column_scaler.ColumnStandardScaler`).
"""

from dataclasses import dataclass

import numpy as np

from perceptrons._core.memory import LoadBudget
from perceptrons._core.readonly import read_only


@dataclass(frozen=True)
class Block:
    """Rows ``line .. line + n_rows - 1`` of ``path`` (see the module docstring for the layout)."""

    y: np.ndarray
    X: np.ndarray | None = None
    indptr: np.ndarray | None = None
    indices: np.ndarray | None = None
    data: np.ndarray | None = None
    weight: np.ndarray | None = None
    path: str = ""
    line: int = 1
    end: int = 0
    width: int = 0
    numbers: tuple = ()

    @property
    def n_rows(self):
        """Number of rows."""
        return int(self.y.shape[0])

    @property
    def sparse(self):
        """Whether the rows are CSR."""
        return self.X is None

    @property
    def n_features(self):
        """Columns this block needs: d for dense rows; for CSR the hash space when the columns
        are hashes (``width``), else the largest index + 1 (0 if empty).
        """
        if self.X is not None:
            return int(self.X.shape[1])
        return max(self.width, int(self.indices.max()) + 1 if self.indices.size else 0)

    def operand(self):
        """The arrays a ``_jit`` loop reads: ``X``, ``(indices, indptr)`` or ``(data, indices,
        indptr)``, read-only as :func:`~perceptrons._core.operands.to_operand` hands them.
        """
        if self.X is not None:
            return read_only(self.X)
        if self.data is None:
            return (read_only(self.indices), read_only(self.indptr))
        return (read_only(self.data), read_only(self.indices), read_only(self.indptr))

    def rows(self, start, stop):
        """Rows ``start .. stop - 1`` as a Block (views of this one's arrays where they can be)."""
        weight = None if self.weight is None else self.weight[start:stop]
        where = {"path": self.path, "line": self.line + start, "width": self.width}
        if self.X is not None:
            return Block(y=self.y[start:stop], X=self.X[start:stop], weight=weight, **where)
        lo, hi = int(self.indptr[start]), int(self.indptr[stop])
        return Block(
            y=self.y[start:stop],
            indptr=self.indptr[start : stop + 1] - lo,
            indices=self.indices[lo:hi],
            data=None if self.data is None else self.data[lo:hi],
            weight=weight,
            **where,
        )

    def csr(self, n_features):
        """The rows as a scipy CSR matrix of width ``n_features`` (values 1.0 when binary)."""
        import scipy.sparse as sp

        if self.X is not None:
            return sp.csr_matrix(self.X)
        data = np.ones(self.indices.shape[0], np.float32) if self.data is None else self.data
        return sp.csr_matrix((data, self.indices, self.indptr), shape=(self.n_rows, n_features))


def join(blocks):
    """Consecutive blocks as one Block (their rows in order; binary CSR stays binary only when
    every block is).

    Parameters
    ----------
    blocks : list of Block
        Non-empty, all dense or all CSR.

    Returns
    -------
    Block
    """
    if len(blocks) == 1:
        return blocks[0]
    first = blocks[0]
    y = np.concatenate([b.y for b in blocks])
    weight = joined_weight(blocks)
    if not first.sparse:
        return Block(y=y, X=np.concatenate([b.X for b in blocks]), weight=weight, path=first.path, line=first.line)
    nnz = np.cumsum([0] + [b.indices.shape[0] for b in blocks])
    indptr = np.concatenate([[0]] + [b.indptr[1:] + nnz[k] for k, b in enumerate(blocks)]).astype(np.int64)
    binary = all(b.data is None for b in blocks)
    data = None
    if not binary:
        data = np.concatenate([np.ones(b.indices.shape[0], np.float32) if b.data is None else b.data for b in blocks])
    return Block(
        y=y,
        indptr=indptr,
        indices=np.concatenate([b.indices for b in blocks]),
        data=data,
        weight=weight,
        path=first.path,
        line=first.line,
        width=max(b.width for b in blocks),
    )


def budgeted(path, blocks):
    """Every block of ``blocks`` in a list, for an in-memory read: what they hold is counted as
    they come and refused past the read's :class:`~perceptrons._core.memory.LoadBudget`.
    """
    budget, held, out = LoadBudget(path), 0, []
    for b in blocks:
        held += sum(a.nbytes for a in (b.y, b.X, b.indptr, b.indices, b.data, b.weight) if a is not None)
        budget.check(held, f"{path}, line {b.line}")
        out.append(b)
    return out


def joined_weight(blocks):
    """The rows' weights of ``blocks`` one after another (1 where a block has none), or None
    when no block has any.
    """
    if all(b.weight is None for b in blocks):
        return None
    return np.concatenate([np.ones(b.n_rows) if b.weight is None else b.weight for b in blocks])
