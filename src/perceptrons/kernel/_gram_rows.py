"""The Gram rows of a kernel fit: an LRU store of kernel rows K(x_i, X_train), filled in blocks
computed with BLAS (``cache_size`` megabytes of them, as scikit-learn's ``SVC`` names its store).

The compiled epoch loop reads rows through ``slot_of`` (example → slot, −1 when absent) and
stamps ``stamp[slot]`` with a clock on every use; this class only decides which rows enter and
which leave (the least recently stamped), so the loop never calls back into Python.
"""

import numpy as np


class GramRows:
    """Rows of the training kernel matrix, at most ``capacity`` of them.

    Parameters
    ----------
    n : int
        Number of training examples (the length of a row).
    capacity : int
        Rows that fit in the memory allowed (at least 2: a budget removal needs two rows).
    compute : callable
        ``compute(idx) -> ndarray (len(idx), n)``: kernel rows of the examples ``idx``.
    dtype : numpy dtype
    """

    def __init__(self, n, capacity, compute, dtype):
        self.capacity = int(max(2, min(n, capacity)))
        self.rows = np.empty((self.capacity, n), dtype=dtype)
        self.slot_of = np.full(n, -1, dtype=np.int64)
        self.owner = np.full(self.capacity, -1, dtype=np.int64)
        self.stamp = np.zeros(self.capacity, dtype=np.int64)
        self.clock = np.zeros(1, dtype=np.int64)
        self.compute = compute
        self.rows_computed = 0

    @classmethod
    def from_matrix(cls, G):
        """A store that already holds every row (a precomputed kernel matrix): no copy."""
        self = cls.__new__(cls)
        n = G.shape[0]
        self.capacity = n
        self.rows = G
        self.slot_of = np.arange(n, dtype=np.int64)
        self.owner = np.arange(n, dtype=np.int64)
        self.stamp = np.zeros(n, dtype=np.int64)
        self.clock = np.zeros(1, dtype=np.int64)
        self.compute = None
        self.rows_computed = 0
        return self

    def fetch(self, idx, pinned=(), valued=None):
        """Compute and store the rows of ``idx`` (not cached, distinct), evicting the least
        recently used rows other than those of the examples in ``pinned``.

        ``valued`` (bool per example, optional) marks rows worth more than any other: rows
        of support examples, which will be read again, leave only after every row that was
        fetched speculatively and never used.
        """
        idx = np.asarray(idx, dtype=np.int64)
        free = np.flatnonzero(self.owner < 0)
        need = idx.shape[0] - free.shape[0]
        if need > 0:
            stamps = self.stamp.astype(np.float64)
            if valued is not None:
                stamps[valued[np.maximum(self.owner, 0)]] += 2.0**52
            stamps[self.owner < 0] = np.inf
            for p in pinned:
                s = self.slot_of[p]
                if s >= 0:
                    stamps[s] = np.inf
            victims = np.argpartition(stamps, need - 1)[:need] if need < stamps.shape[0] else np.argsort(stamps)[:need]
            self.slot_of[self.owner[victims]] = -1
            self.owner[victims] = -1
            slots = np.concatenate([free, victims])
        else:
            slots = free[: idx.shape[0]]
        self.rows[slots] = self.compute(idx)
        self.rows_computed += idx.shape[0]
        self.slot_of[idx] = slots
        self.owner[slots] = idx
        self.stamp[slots] = self.clock[0]
        self.clock[0] += 1


def make_gram_rows(kb, X, cache_size, precomputed, x_sq=None, min_rows=0):
    """The Gram rows of a run over ``X``: the matrix itself when precomputed, the whole kernel
    matrix when ``cache_size`` MB can hold it, else an LRU of rows computed on demand.

    ``min_rows``: rows the cache must hold at once whatever ``cache_size`` (a projectron's update
    reads every kept example's row), refused first if the machine cannot give them."""
    if precomputed:
        return GramRows.from_matrix(X)
    n = X.shape[0]
    capacity = int(cache_size * 2**20 // (n * X.dtype.itemsize))
    if capacity < min(min_rows, n):
        from perceptrons._core.memory import check_allocation

        capacity = min(min_rows, n)
        check_allocation(
            capacity * n * X.dtype.itemsize,
            f"the Gram rows of the {min_rows - 2:,} kept examples a projectron's update reads at once",
            "lower the budget",
        )
    if capacity >= n:
        # One symmetric product X·Xᵀ (BLAS syrk) costs half of computing its rows one block
        # at a time, and no row is ever computed twice.
        cache = GramRows.from_matrix(kb.block(X, X, x_sq, x_sq))
        cache.rows_computed = n
        return cache

    def compute(idx):
        return kb.block(X[idx], X, None if x_sq is None else x_sq[idx], x_sq)

    return GramRows(n, capacity, compute, X.dtype)
