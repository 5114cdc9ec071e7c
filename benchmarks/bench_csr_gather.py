"""What bounds a CSR epoch: each candidate of issue 15.1 switched on and off, on the same data.

A sparse perceptron epoch gathers ``w[j]`` for every stored value from a weight vector as wide
as the vocabulary; with 1M columns drawn from a Zipf law most gathers miss L1/L2.  This script
times five epochs (cyclic, float64 values, int32 indices, 200k x 1M, ~40 non-zeros a row) of
small loops that differ in one thing each, interleaved with scikit-learn's Perceptron as the
anchor, so each candidate is ruled in or out by its own measurement:

* software prefetch of the next rows' weights (the library's ``prefetch_row``), on / off;
* fastmath (re-association) on the sparse dot product, on / off;
* four accumulators in the gather loop against one;
* huge pages for ``w`` (numpy's ``madvise(MADV_HUGEPAGE)`` for large arrays), on / off;
* column order: Zipf-sorted (hot columns first, as generated), randomly permuted (as hashed
  features are), and permuted then remapped by frequency (hot columns first again);
* the indices signed (numba tests each gathered index for a negative value to wrap around) or
  viewed as unsigned (no test: what the library's loops do, through ``_jit.index.unsigned``).

Every variant runs twice: alone, and beside a second process that streams through a 64 MiB
array on the other core, as other tenants of a shared machine do at times.  The second table is
what scikit-learn's swing from run to run comes from.

Run: ``python benchmarks/bench_csr_gather.py [--repeats 7]``.
"""

import argparse
import contextlib
import sys
import time

import numpy as np
from _common import machine_line, speed_rows, streaming_neighbour, table
from bench_linear import zipf_csr
from numba import njit
from sklearn.linear_model import Perceptron as SkPerceptron

from perceptrons import Perceptron
from perceptrons._jit.prefetch import prefetch
from perceptrons._jit.rows import _dot_csr

_FAST = {"reassoc", "contract", "nsz", "arcp"}


# The library's sparse dot product (four sums), as Python, compiled here with either flag.
_dot4 = _dot_csr


def _dot1(X, i, w):
    data, ind, ptr = X
    s = 0.0
    for p in range(ptr[i], ptr[i + 1]):
        s += data[p] * w[ind[p]]
    return s


def epoch_loop(dot, fastmath, ahead):
    """A binary PLA epoch (bias on) with the given dot product, flags and prefetch distance."""
    dot = njit(fastmath=_FAST if fastmath else False)(dot)

    def epoch(data, ind, ptr, yi, w, b):
        X = (data, ind, ptr)
        n = yi.shape[0]
        mistakes = 0
        for i in range(n):
            if ahead and i + ahead < n:
                for q in range(ptr[i + ahead], ptr[i + ahead + 1]):
                    prefetch(w, ind[q])
            y = 1.0 if yi[i] == 1 else -1.0
            if y * (dot(X, i, w) + b[0]) <= 0.0:
                mistakes += 1
                for q in range(ptr[i], ptr[i + 1]):
                    w[ind[q]] += y * data[q]
                b[0] += y
        return mistakes

    return njit(fastmath=_FAST)(epoch)


def five_epochs(loop, A, yi, hugepages=True, unsigned=False):
    """Five epochs from zero weights; ``unsigned``: the index arrays viewed as uint32 (the same
    bits), so that numba compiles the gathers without its negative-index wraparound."""
    ind, ptr = A.indices, A.indptr
    if unsigned:
        ind, ptr = (a.astype(np.int32, copy=False).view(np.uint32) for a in (ind, ptr))

    def run():
        from numpy._core import multiarray

        multiarray._set_madvise_hugepage(hugepages)
        w, b = np.zeros(A.shape[1]), np.zeros(1)
        multiarray._set_madvise_hugepage(True)
        return [loop(A.data, ind, ptr, yi, w, b) for _ in range(5)]

    return run


def remapped(A, rng):
    """(columns randomly permuted, then the same remapped so the most frequent come first)."""
    P = A.copy()
    P.indices = rng.permutation(A.shape[1]).astype(np.int32)[A.indices]
    P.sort_indices()
    order = np.argsort(-np.bincount(P.indices, minlength=A.shape[1]), kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    R = P.copy()
    R.indices = rank[P.indices].astype(np.int32)
    R.sort_indices()
    return P, R


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args(argv)
    print(f"perceptrons bench_csr_gather — {time.strftime('%Y-%m-%d')} — python {sys.version.split()[0]}")
    print(machine_line())
    rng = np.random.default_rng(1)
    A = zipf_csr(args.rows, 1_000_000, 40, rng, binary=False)
    y = np.where(A @ rng.standard_normal(A.shape[1]) + 0.5 * rng.standard_normal(A.shape[0]) > 0, 1, -1)
    yi = (y == 1).astype(np.int64)
    permuted, remap = remapped(A, rng)
    sk = SkPerceptron(max_iter=5, tol=None, shuffle=False)
    ours = Perceptron(max_epochs=5)
    base = epoch_loop(_dot4, fastmath=False, ahead=2)
    runs = {
        "scikit-learn Perceptron (anchor)": lambda: sk.fit(A, y),
        "perceptrons Perceptron (the library)": lambda: ours.fit(A, y),
        "loop: strict dot, 4 sums, prefetch 2 rows": five_epochs(base, A, yi),
        "  without prefetch": five_epochs(epoch_loop(_dot4, False, 0), A, yi),
        "  prefetch 1 row ahead": five_epochs(epoch_loop(_dot4, False, 1), A, yi),
        "  prefetch 4 rows ahead": five_epochs(epoch_loop(_dot4, False, 4), A, yi),
        "  fastmath dot": five_epochs(epoch_loop(_dot4, True, 2), A, yi),
        "  fastmath dot, without prefetch": five_epochs(epoch_loop(_dot4, True, 0), A, yi),
        "  one sum instead of four": five_epochs(epoch_loop(_dot1, False, 2), A, yi),
        "  indices unsigned (no wraparound code)": five_epochs(base, A, yi, unsigned=True),
        "  w without huge pages": five_epochs(base, A, yi, hugepages=False),
        "  columns randomly permuted": five_epochs(base, permuted, yi),
        "  permuted, then remapped by frequency": five_epochs(base, remap, yi),
    }
    for run in runs.values():
        run()  # compile
    for condition in ("alone", "beside a process streaming a 64 MiB array"):
        with streaming_neighbour() if condition != "alone" else contextlib.nullcontext():
            times = {name: [] for name in runs}
            for _ in range(args.repeats):
                for name, run in runs.items():
                    start = time.perf_counter()
                    run()
                    times[name].append(time.perf_counter() - start)
        table(
            f"CSR {args.rows} x 1,000,000 float64 values, Zipf columns, 5 cyclic epochs, {condition} "
            f"(median of {args.repeats} interleaved runs)",
            ["variant", "ms", "range ms", "speed vs scikit-learn"],
            speed_rows(times, "scikit-learn Perceptron (anchor)"),
        )


if __name__ == "__main__":
    main()
