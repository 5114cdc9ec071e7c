"""Dense epochs across row lengths: each epoch's share of the read bandwidth (issue 15.2).

``bench_linear.py`` times one shape, 400k x 100.  How far ahead a dense loop prefetches its rows
depends on how many bytes a row holds, so this script times the epochs of ``Perceptron`` over
row lengths from 200 bytes to 6 KB, float32 and float64, binary and multiclass, in order and
shuffled.  Every problem holds ~160 MB of X, far past the caches.  Each round measures the read
bandwidth (the faster of numpy's ``sum`` and a compiled read loop over 256 MiB,
``_common.read_bandwidth``) and then every shape, and each share is taken against
its own round's bandwidth: the anchor is measured in the same run, beside each figure.

Usage: ``python bench_dense_rows.py [--repeats 3]``.  To compare two trees, run it under each
(``PYTHONPATH=<tree>/src``), alternating, and compare the printed shares.
"""

import argparse
import statistics
import sys
import time
import warnings

import numpy as np
from _common import machine_line, read_bandwidth, table
from sklearn.exceptions import ConvergenceWarning

from perceptrons import Perceptron

warnings.simplefilter("ignore", ConvergenceWarning)

# (dtype, features, classes, shuffled)
SHAPES = [
    ("float32", 50, 2, False),
    ("float32", 100, 2, False),
    ("float32", 200, 2, False),
    ("float32", 400, 2, False),
    ("float32", 784, 2, False),
    ("float64", 50, 2, False),
    ("float64", 100, 2, False),
    ("float64", 200, 2, False),
    ("float64", 784, 2, False),
    ("float32", 100, 10, False),
    ("float32", 100, 2, True),
]
X_BYTES = 160e6


def problem(dtype, d, k, rng):
    """~160 MB of Gaussian rows, labels from a noisy linear rule (about one row in five is a
    mistake in every epoch, as in ``bench_linear.py``)."""
    n = int(X_BYTES // (d * np.dtype(dtype).itemsize))
    X = rng.standard_normal((n, d)).astype(dtype)
    if k == 2:
        y = np.where(X[:, :5].sum(axis=1) + rng.standard_normal(n) > 0, 1, -1)
    else:
        y = np.argmax(X[:, :k] + rng.standard_normal((n, k)), axis=1)
    return X, y


def _order(shuffled):
    return "shuffle" if shuffled else "cyclic"


def epoch_seconds(X, y, shuffled):
    """Seconds per epoch of a 5-epoch fit, from its per-epoch callback, the first epoch (which
    also holds the work before the loop) left out."""
    stamps = []
    Perceptron(max_epochs=5, order=_order(shuffled), random_state=0).fit(
        X, y, callback=lambda e, m, t: stamps.append(t)
    )
    return (stamps[-1] - stamps[0]) / (len(stamps) - 1)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"perceptrons bench_dense_rows — {time.strftime('%Y-%m-%d')} — python {sys.version.split()[0]}")
    print(machine_line())
    rng = np.random.default_rng(0)
    problems = [problem(dt, d, k, rng) for dt, d, k, _ in SHAPES]
    for (X, y), shape in zip(problems, SHAPES):
        Perceptron(max_epochs=1, order=_order(shape[3])).fit(X[:100], y[:100])  # compile before timing
    big = np.ones(256 * 2**20 // 8)
    read_bandwidth(big)
    shares = [[] for _ in SHAPES]
    bandwidths = []
    for _ in range(args.repeats):
        bw = read_bandwidth(big)
        bandwidths.append(bw)
        for s, (X, y), shape in zip(shares, problems, SHAPES):
            s.append(X.nbytes / epoch_seconds(X, y, shape[3]) / bw)
    rows = [
        [dt, str(d), str(d * np.dtype(dt).itemsize), "binary" if k == 2 else f"{k} classes",
         "shuffled" if shuffled else "in order", f"{statistics.median(s):.2f}",
         f"{min(s):.2f}–{max(s):.2f}"]
        for (dt, d, k, shuffled), s in zip(SHAPES, shares)
    ]  # fmt: skip
    table(
        f"dense epochs of Perceptron, ~160 MB of X each (read bandwidth {statistics.median(bandwidths) / 1e9:.2f} GB/s; "
        f"medians of {args.repeats} rounds, each share against its own round's bandwidth)",
        ["dtype", "features", "bytes a row", "labels", "order", "epoch vs bandwidth", "range"],
        rows,
    )


if __name__ == "__main__":
    main()
