"""The online family's epochs against our Perceptron's and scikit-learn's, in one run.

One epoch (cyclic order, the rows as given) of each learner on the same CSR data, each the
median of interleaved runs (A, B, C, A, B, C, ...):

* CSR 200k x 1M, ~40 non-zeros a row on Zipf-distributed columns, real values (float64), and
  a9a (32k x 123, binary) when ``../shared/data`` has it;
* ours: Perceptron (the anchor), PassiveAggressive (PA-I, PA-I averaged), AROW with the diagonal
  covariance, SCW-I diagonal, ALMA, Winnow; scikit-learn: its PassiveAggressiveClassifier (PA-I,
  where it still ships it), our drop-in of it, and SGDClassifier (hinge, one epoch).

The issue's targets: a first-order learner's CSR epoch ≥ 0.8 x the Perceptron's, a diagonal
second-order epoch ≥ 0.5 x.  Speeds are the anchor's seconds over each one's (> 1: faster).

Run: ``python benchmarks/bench_online.py [--quick]``.
"""

import argparse
import statistics
import time
import warnings

import numpy as np
import scipy.sparse as sp
from _common import DATA, machine_line, table
from bench_linear import zipf_csr
from sklearn.linear_model import SGDClassifier

from perceptrons import (
    ALMA,
    AROW,
    SCW,
    PassiveAggressive,
    PassiveAggressiveClassifier,
    Perceptron,
    Winnow,
)
from perceptrons.io.readers import read_data

warnings.simplefilter("ignore")


def contestants():
    """name -> a fresh estimator that makes one cyclic epoch."""
    out = {
        "Perceptron (anchor)": lambda: Perceptron(max_epochs=1),
        "PassiveAggressive PA-I": lambda: PassiveAggressive(max_epochs=1),
        "PassiveAggressive PA-I averaged": lambda: PassiveAggressive(max_epochs=1, average=True),
        "AROW diagonal": lambda: AROW(covariance="diagonal", max_epochs=1),
        "SCW-I diagonal": lambda: SCW(covariance="diagonal", max_epochs=1),
        "ALMA": lambda: ALMA(max_epochs=1),
        "Winnow (balanced)": lambda: Winnow(max_epochs=1),
        "ours: PassiveAggressiveClassifier": lambda: PassiveAggressiveClassifier(max_iter=1, tol=None, shuffle=False),
        "scikit-learn SGDClassifier (hinge)": lambda: SGDClassifier(max_iter=1, tol=None, shuffle=False),
    }
    try:
        from sklearn.linear_model import PassiveAggressiveClassifier as Theirs

        out["scikit-learn PassiveAggressiveClassifier"] = lambda: Theirs(max_iter=1, tol=None, shuffle=False)
    except ImportError:  # removed in scikit-learn 1.10
        pass
    return out


def section(title, X, y, repeats):
    makers = contestants()
    for make in makers.values():  # compiled (and numba's disk cache read) before any timing
        make().fit(X[:50], y[:50])
    times = {name: [] for name in makers}
    for _ in range(repeats):
        for name, make in makers.items():
            est = make()
            start = time.perf_counter()
            est.fit(X, y)
            times[name].append(time.perf_counter() - start)
    anchor = statistics.median(times["Perceptron (anchor)"])
    rows = []
    for name, ts in times.items():
        med = statistics.median(ts)
        rows.append([name, f"{med * 1000:.0f}", f"{min(ts) * 1000:.0f}-{max(ts) * 1000:.0f}", f"{anchor / med:.2f}"])
    table(
        f"{title}: one epoch, medians of {repeats} interleaved runs",
        ["learner", "ms", "range", "speed vs anchor"],
        rows,
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="20k rows, 3 runs")
    args = parser.parse_args()
    print(machine_line())
    rng = np.random.default_rng(0)
    n = 20_000 if args.quick else 200_000
    X = zipf_csr(n, 1_000_000, 40, rng, binary=False)
    w = rng.standard_normal(X.shape[1])
    y = np.where(X @ w + 0.3 * rng.standard_normal(n) > 0, 1, 0)
    repeats = 3 if args.quick else 7
    section(f"CSR {n // 1000}k x 1M, Zipf columns, float64 values", X, y, repeats)
    if (DATA / "a9a" / "a9a").exists():
        A, ya = read_data(DATA / "a9a" / "a9a")
        section("a9a (32k x 123, binary CSR)", sp.csr_matrix(A, dtype=np.float64), ya, repeats)


if __name__ == "__main__":
    main()
