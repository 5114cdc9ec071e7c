"""Throughput of perceptrons.Perceptron against scikit-learn and the machine's read bandwidth.

Every figure is the median of several runs measured in this one process, anchors included; the
contestants run in turn (A, B, A, B, ...) so that bursts of load on a shared machine hit all alike:

* dense 400k x 100, float64 and float32, 5 cyclic epochs: samples/s and GB/s of the epochs, the
  whole fit's samples/s against ``sklearn.linear_model.Perceptron(max_iter=5, tol=None,
  shuffle=False)``, and the read bandwidth over a 256 MiB array (the faster of numpy's ``sum``
  and a compiled read loop, ``_common.read_bandwidth``), measured in every round beside the
  epochs it is the anchor of; two epochs that bound what the mistakes cost: one that makes
  none (separable rows), one where every row is a mistake (``margin=1e300``: an update on
  every row, behind a branch the CPU predicts); and a read of X alone in the epoch's shape
  (each row's values converted to float64 and summed, prefetched as the epoch does), the
  most an epoch can stream;
* CSR 200k x 1M, ~40 non-zeros a row on Zipf-distributed columns, 5 epochs: real values and
  binary (all-ones) values, ours against scikit-learn (which needs int32 indices), plus ours on
  int64 indices, which scikit-learn refuses; run alone, then again beside a second process that
  streams through a 64 MiB array (a tenant using the shared L3 and memory bus);
* a9a (LIBSVM, ``../shared/data/a9a``), 10 epochs: test accuracy ours against scikit-learn;
* peak memory of a fit (tracemalloc) next to the input's size.

Run: ``python benchmarks/bench_linear.py [--quick]``.
"""

import argparse
import functools
import statistics
import sys
import time
import tracemalloc
import warnings

import numpy as np
import scipy.sparse as sp
from _common import DATA, interleaved, machine_line, read_bandwidth, streaming_neighbour, table
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

from perceptrons import Perceptron

warnings.simplefilter("ignore", ConvergenceWarning)


def epoch_sample(est, X, y):
    """Seconds per epoch of one fit, from its own per-epoch callback (validation excluded)."""
    stamps = [0.0]
    est.fit(X, y, callback=lambda e, m, t: stamps.append(t))
    first = stamps[1]  # the first epoch's stamp also holds the work before the loop
    return (stamps[-1] - first) / max(1, len(stamps) - 2)


def clean_epoch_sample(X, y):
    """Seconds of an epoch that makes no mistake: the last epoch of a fit to convergence on
    separable data.  It streams X and scores every row, but updates nothing, so set beside an
    ordinary epoch it shows what the updates (and their mispredicted branches) cost."""
    stamps = [(0.0, -1)]
    Perceptron(max_epochs=100).fit(X, y, callback=lambda e, m, t: stamps.append((t, m)))
    assert stamps[-1][1] == 0 and len(stamps) > 2, "the separable copy did not converge"
    return stamps[-1][0] - stamps[-2][0]


@functools.cache
def _row_reader():
    """A compiled read of X's rows into one float64 sum, asking for each row as far ahead as the
    fit's loop does (``dense_ahead``): every value converted and added, nothing scored."""
    from numba import njit

    from perceptrons._jit.rows import prefetch_values

    @njit(fastmath=True)
    def read(X, k):
        n, d = X.shape
        s = 0.0
        for i in range(n):
            if i + k < n:
                prefetch_values(X, i + k)
            for j in range(d):
                s += X[i, j]
        return s

    return read


def read_sample(X):
    """Seconds of one read of X's rows (``_row_reader``).  Set beside the epochs, it is the most
    an epoch can stream in this loop's shape: a fit that scores and updates as well cannot beat
    the read alone, so what separates the two is the perceptron's own work."""
    from perceptrons._jit.rows import dense_ahead

    read = _row_reader()
    k = dense_ahead(X) or 1
    read(X[:2], k)  # compiled for this dtype before the timing
    start = time.perf_counter()
    read(X, k)
    return time.perf_counter() - start


def peak_bytes(fn):
    tracemalloc.start()
    tracemalloc.reset_peak()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def zipf_csr(n, d, nnz_per_row, rng, binary):
    """Rows of ~nnz_per_row distinct columns drawn from a Zipf(1.1) popularity law."""
    draws = int(round(nnz_per_row * 1.18))  # repeats of popular columns merge: ~40 distinct from 47 draws
    cols = (rng.zipf(1.1, size=n * draws) - 1) % d
    rows = np.repeat(np.arange(n), draws)
    vals = np.ones(n * draws) if binary else rng.standard_normal(n * draws)
    A = sp.csr_matrix((vals, (rows, cols)), shape=(n, d))
    A.sum_duplicates()
    if binary:
        A.data[:] = 1.0
    A.indices = A.indices.astype(np.int32)
    return A


def dense_section(n, d, repeats):
    """Each round measures the read bandwidth, then every contestant, in turn: an epoch's share
    of the bandwidth is taken against the bandwidth of its own round (the machine's bandwidth
    swings by 10-30 % from minute to minute), and the median of the rounds is reported."""
    rng = np.random.default_rng(0)
    X64 = rng.standard_normal((n, d))
    y = np.where(X64[:, :5].sum(axis=1) + rng.standard_normal(n) > 0, 1, -1)
    X32 = X64.astype(np.float32)
    # The same rows made separable with margin: every row pushed 2 along (1,1,1,1,1)/√5 units
    # away from the plane its label comes from, so the PLA converges in a few epochs.
    y_sep = np.where(X64[:, :5].sum(axis=1) >= 0, 1, -1)
    S64 = X64.copy()
    S64[:, :5] += (2 / 5) * y_sep[:, None]
    S32 = S64.astype(np.float32)
    ours = Perceptron(max_epochs=5)
    sk = SkPerceptron(max_iter=5, tol=None, shuffle=False)
    big = np.ones(256 * 2**20 // 8)
    read_bandwidth(big)
    timed = {
        "sk": lambda: sk.fit(X64, y),
        "fit64": lambda: ours.fit(X64, y),
        "fit32": lambda: ours.fit(X32, y),
    }
    # every row a mistake: the update on every row, its branch always taken (so predicted)
    every = Perceptron(max_epochs=5, margin=1e300)
    epochs = {
        "epoch64": lambda: epoch_sample(ours, X64, y),
        "epoch32": lambda: epoch_sample(ours, X32, y),
        "clean64": lambda: clean_epoch_sample(S64, y_sep),
        "clean32": lambda: clean_epoch_sample(S32, y_sep),
        "every64": lambda: epoch_sample(every, X64, y),
        "every32": lambda: epoch_sample(every, X32, y),
        "read64": lambda: read_sample(X64),
        "read32": lambda: read_sample(X32),
    }
    rounds = {k: [] for k in ["bandwidth", *timed, *epochs]}
    for _ in range(repeats):
        rounds["bandwidth"].append(read_bandwidth(big))
        for k, fn in timed.items():
            start = time.perf_counter()
            fn()
            rounds[k].append(time.perf_counter() - start)
        for k, fn in epochs.items():
            rounds[k].append(fn())
    med = statistics.median
    bw = rounds["bandwidth"]

    def share(key, nbytes):
        """Median over the rounds of (bytes per second) / (that round's read bandwidth)."""
        return med(nbytes / t / b for t, b in zip(rounds[key], bw))

    sk_fit = med(rounds["sk"])
    sk_rate = 5 * n / sk_fit
    rows = [
        [
            "sklearn Perceptron",
            "float64",
            f"{sk_rate / 1e6:.2f}",
            f"{5 * X64.nbytes / sk_fit / 1e9:.2f}",
            "1.00",
            f"{share('sk', 5 * X64.nbytes):.2f}",
            f"{share('sk', 5 * X64.nbytes):.2f}",
            "-",
            "-",
        ]
    ]
    for X, bits in ((X64, "64"), (X32, "32")):
        fit, epoch = med(rounds["fit" + bits]), med(rounds["epoch" + bits])
        peak = peak_bytes(lambda: ours.fit(X, y))
        rows.append(
            [
                "perceptrons Perceptron",
                X.dtype.name,
                f"{5 * n / fit / 1e6:.2f}",
                f"{X.nbytes / epoch / 1e9:.2f}",
                f"{5 * n / fit / sk_rate:.2f}",
                f"{share('epoch' + bits, X.nbytes):.2f}",
                f"{share('fit' + bits, 5 * X.nbytes):.2f}",
                f"{X.nbytes / 2**20:.0f}",
                f"{peak / 2**20:.1f}",
            ]
        )
    for label, key in (
        ("  epoch without mistakes", "clean"),
        ("  epoch, every row a mistake", "every"),
        ("  a read of X alone, prefetched as an epoch", "read"),
    ):
        for X, bits in ((X64, "64"), (X32, "32")):
            rows.append(
                [
                    label,
                    X.dtype.name,
                    "-",
                    f"{X.nbytes / med(rounds[key + bits]) / 1e9:.2f}",
                    "-",
                    f"{share(key + bits, X.nbytes):.2f}",
                    "-",
                    f"{X.nbytes / 2**20:.0f}",
                    "-",
                ]
            )
    table(
        f"dense {n} x {d}, 5 cyclic epochs (read bandwidth {med(bw) / 1e9:.2f} GB/s, "
        f"{min(bw) / 1e9:.2f}-{max(bw) / 1e9:.2f} over the rounds; medians of {repeats} rounds, "
        "each share against its own round's bandwidth)",
        [
            "estimator",
            "dtype",
            "fit Msamples/s",
            "epoch GB/s",
            "fit vs sklearn",
            "epoch vs bandwidth",
            "whole fit vs bandwidth",
            "input MiB",
            "peak MiB (tracemalloc)",
        ],
        rows,
    )


def csr_section(n, d, nnz, repeats, condition="alone"):
    rng = np.random.default_rng(1)
    rows = []
    for binary in (False, True):
        A = zipf_csr(n, d, nnz, rng, binary)
        w_true = rng.standard_normal(d)
        y = np.where(A @ w_true + 0.5 * rng.standard_normal(n) > 0, 1, -1)
        sk = SkPerceptron(max_iter=5, tol=None, shuffle=False)
        ours = Perceptron(max_epochs=5)
        A64 = A.copy()
        A64.indices = A64.indices.astype(np.int64)
        A64.indptr = A64.indptr.astype(np.int64)
        ours.fit(A64[:100], y[:100])  # compile for this storage before timing
        sk_fit, fit32, fit64 = interleaved(
            [lambda: sk.fit(A, y), lambda: ours.fit(A, y), lambda: ours.fit(A64, y)], repeats
        )
        peak = peak_bytes(lambda: ours.fit(A64, y))
        in_bytes = A64.data.nbytes + A64.indices.nbytes + A64.indptr.nbytes
        kind = "binary (all ones)" if binary else "float64 values"
        rows.append(
            [
                kind,
                f"{A.nnz / n:.1f}",
                f"{5 * n / sk_fit / 1e6:.2f}",
                f"{5 * n / fit32 / 1e6:.2f}",
                f"{sk_fit / fit32:.2f}",
                f"{5 * n / fit64 / 1e6:.2f}",
                f"{sk_fit / fit64:.2f}",
                f"{in_bytes / 2**20:.0f}",
                f"{peak / 2**20:.0f}",
            ]
        )
    table(
        f"CSR {n} x {d}, Zipf columns, 5 cyclic epochs, {condition} (median of {repeats})",
        [
            "values",
            "nnz/row",
            "sklearn Msamples/s",
            "ours int32 Msamples/s",
            "ours/sklearn",
            "ours int64-in Msamples/s",
            "ours(int64)/sklearn",
            "int64 input MiB",
            "peak MiB",
        ],
        rows,
    )


def a9a_section():
    from perceptrons.io.readers import read_data

    train, test = DATA / "a9a" / "a9a", DATA / "a9a" / "a9a.t"
    if not train.exists():
        print(f"\na9a: not found next to the project ({train.parent.name}/), skipped")
        return
    X, y = read_data(train)
    Xt, yt = read_data(test, n_features=X.shape[1])
    X32 = X.copy()
    X32.indices = X32.indices.astype(np.int32)
    X32.indptr = X32.indptr.astype(np.int32)
    Xt32 = Xt.copy()
    Xt32.indices = Xt32.indices.astype(np.int32)
    Xt32.indptr = Xt32.indptr.astype(np.int32)
    sk = SkPerceptron(max_iter=10, tol=None, shuffle=False).fit(X32, y)
    # on sparse input scikit-learn's SGD moves the intercept by 0.01 of each update
    # (SPARSE_INTERCEPT_DECAY): another algorithm.  On the same rows dense it is the PLA
    sk_dense = SkPerceptron(max_iter=10, tol=None, shuffle=False).fit(X.toarray(), y)
    ours = Perceptron(max_epochs=10).fit(X, y)  # int64 indices from the reader, as is
    same = np.array_equal(sk_dense.coef_, ours.coef_) and np.array_equal(sk_dense.intercept_, ours.intercept_)
    ties = int(np.count_nonzero(ours.decision_function(Xt) == 0))
    table(
        "a9a, 10 epochs, cyclic order",
        ["estimator", "test accuracy"],
        [
            ["sklearn Perceptron (sparse input: intercept updates x 0.01)", f"{sk.score(Xt32, yt):.4f}"],
            ["sklearn Perceptron (dense input)", f"{sk_dense.score(Xt.toarray(), yt):.4f}"],
            ["perceptrons Perceptron", f"{ours.score(Xt, yt):.4f}"],
        ],
    )
    print(
        f"weights of the dense scikit-learn fit equal ours: {same}; {ties} test rows score exactly 0, "
        "where scikit-learn predicts classes_[0] and we classes_[1] (sign(0) = +1)"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller problems, one repeat (smoke run)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    scale = 10 if args.quick else 1
    Perceptron(max_epochs=1).fit(np.eye(2), [0, 1])  # compile before timing
    print(f"perceptrons bench_linear — {time.strftime('%Y-%m-%d')} — python {sys.version.split()[0]}")
    print(machine_line())
    dense_section(400_000 // scale, 100, repeats)
    csr_section(200_000 // scale, 1_000_000, 40, repeats)
    if not args.quick:
        with streaming_neighbour():
            csr_section(200_000 // scale, 1_000_000, 40, repeats, "beside a process streaming a 64 MiB array")
    a9a_section()


if __name__ == "__main__":
    main()
