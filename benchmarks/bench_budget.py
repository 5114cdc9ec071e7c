"""The budgeted kernel perceptron against the unbudgeted default fit, in one run.

MNIST 8k/2k (the 10,000 images of ``../shared/data/mnist-test``, the first 8,000 train, the last
2,000 test, float32 pixels in [0, 1]):

1. ``KernelPerceptron()`` (the anchor: no budget) and ``KernelPerceptron(budget=1000,
   budget_policy=...)`` for every policy, the margin at its default ("auto": 0 with a budget)
   and, for each policy that drops examples, at the unbudgeted default's margin of 1: test
   accuracy, fit seconds (medians of interleaved runs), updates, support examples dropped,
   kernel rows computed;
2. the budgeted default's fit time on 2,000, 4,000 and 8,000 rows (each training set the first
   rows), against the unbudgeted fit on the same rows: a budgeted fit should grow linearly in n.

The issue's target: budget 1000 ≥ 0.95 in no more time than the unbudgeted default fit.
Run: ``python benchmarks/bench_budget.py [--repeats N] [--policies bpa,projectron,...] [--no-scaling]``.
"""

import argparse
import statistics
import time
import warnings

import numpy as np
from _common import DATA, machine_line, table

from perceptrons import KernelPerceptron
from perceptrons.io.idx import load_mnist

warnings.simplefilter("ignore")


def mnist():
    d = DATA / "mnist-test"
    X, y = load_mnist(d / "t10k-images-idx3-ubyte.gz", d / "t10k-labels-idx1-ubyte.gz")
    X = np.asarray(X, dtype=np.float32)
    return X[:8000], y[:8000], X[8000:], y[8000:]


def timed(make, X, y, repeats):
    """(median seconds, the last fitted model) of ``repeats`` fits."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        est = make().fit(X, y)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), est


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policies", default="bpa,forgetron,random,oldest,projectron,projectron++")
    parser.add_argument("--no-scaling", action="store_true", help="skip the fit time against n")
    args = parser.parse_args()
    print(machine_line())
    X, y, Xt, yt = mnist()
    KernelPerceptron(max_epochs=1).fit(X[:200], y[:200])  # compiled before any timing
    cases = {"no budget (anchor)": lambda: KernelPerceptron()}
    for policy in args.policies.split(","):
        cases[f"budget 1000, {policy}"] = lambda p=policy: KernelPerceptron(
            budget=1000, budget_policy=p, random_state=0
        )
        if not policy.startswith("projectron"):  # Projectron++ has its own margin updates
            cases[f"budget 1000, {policy}, margin 1"] = lambda p=policy: KernelPerceptron(
                budget=1000, budget_policy=p, margin=1.0, random_state=0
            )
    times = {name: [] for name in cases}
    fitted = {}
    for _ in range(args.repeats):  # interleaved: every case once a round
        for name, make in cases.items():
            seconds, fitted[name] = timed(make, X, y, 1)
            times[name].append(seconds)
    anchor = statistics.median(times["no budget (anchor)"])
    rows = []
    for name, est in fitted.items():
        med = statistics.median(times[name])
        rows.append(
            [
                name,
                f"{est.score(Xt, yt):.4f}",
                f"{med:.2f}",
                f"{med / anchor:.2f}",
                est.n_updates_,
                est.n_removed_,
                est.n_kernel_rows_,
                est.support_.shape[0],
            ]
        )
    table(
        f"MNIST 8k/2k, medians of {args.repeats} interleaved fits",
        ["model", "test acc", "fit s", "x anchor's time", "updates", "dropped", "kernel rows", "support"],
        rows,
    )
    if args.no_scaling:
        return
    rows = []
    for n in (2000, 4000, 8000):
        budgeted, _ = timed(lambda: KernelPerceptron(budget=1000), X[:n], y[:n], args.repeats)
        free, _ = timed(lambda: KernelPerceptron(), X[:n], y[:n], args.repeats)
        rows.append([n, f"{budgeted:.2f}", f"{budgeted / n * 1000:.3f}", f"{free:.2f}", f"{free / n * 1000:.3f}"])
    table(
        "Fit time against n (budget 1000, BPA, its default margin; and no budget)",
        ["rows", "budgeted s", "ms a row", "unbudgeted s", "ms a row"],
        rows,
    )


if __name__ == "__main__":
    main()
