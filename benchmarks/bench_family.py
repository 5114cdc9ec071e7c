"""The perceptron family on real data, and the averaged perceptron's speed, against scikit-learn.

One run, anchors measured in the same process:

* a9a and MNIST (test set split 8,000 train / 2,000 test): test accuracy of the last iterate
  (Perceptron), pocket, averaged and voted after 1, 5 and 10 cyclic epochs — Gormley's
  "Extensions" claim that voting and averaging generalise better than the last hypothesis;
* a9a anchors: ``SGDClassifier(loss="perceptron", learning_rate="constant", eta0=1,
  penalty=None, average=True)`` (10 epochs) and ``LinearSVC``;
* MNIST anchor: scikit-learn's ``Perceptron`` (one-vs-rest, 10 epochs): accuracy and fit time
  against our averaged perceptron;
* dense 400k x 100: samples/s of ``AveragedPerceptron`` against that ``SGDClassifier`` with
  ``average=True`` (5 epochs each, median of several runs).

Run: ``python benchmarks/bench_family.py [--quick]``.
"""

import argparse
import sys
import time
import warnings

import numpy as np
from _common import DATA, interleaved, table
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.linear_model import SGDClassifier
from sklearn.svm import LinearSVC

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron
from perceptrons.io.idx import load_mnist
from perceptrons.io.readers import read_data

warnings.simplefilter("ignore", ConvergenceWarning)
FAMILY = {
    "last (PLA)": Perceptron,
    "pocket": PocketPerceptron,
    "averaged": AveragedPerceptron,
    "voted": VotedPerceptron,
}


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def int32(A):
    A = A.copy()
    A.indices = A.indices.astype(np.int32)
    A.indptr = A.indptr.astype(np.int32)
    return A


def family_rows(X, y, Xt, yt, epochs):
    rows = []
    for name, cls in FAMILY.items():
        cls(max_epochs=1).fit(X, y)  # compile for this storage before timing
        row = [name]
        for e in epochs:
            est, secs = timed(lambda: cls(max_epochs=e).fit(X, y))
            row.append(f"{est.score(Xt, yt):.4f} ({secs:.2f}s)")
        rows.append(row)
    return rows


def a9a_section(epochs):
    X, y = read_data(DATA / "a9a" / "a9a")
    Xt, yt = read_data(DATA / "a9a" / "a9a.t", n_features=X.shape[1])
    rows = family_rows(X, y, Xt, yt, epochs)
    sgd = SGDClassifier(
        loss="perceptron",
        learning_rate="constant",
        eta0=1,
        penalty=None,
        average=True,
        max_iter=10,
        tol=None,
        random_state=0,
    )
    sgd.fit(int32(X), y)
    svc = LinearSVC(random_state=0).fit(int32(X), y)
    ours = AveragedPerceptron(max_epochs=10).fit(X, y).score(Xt, yt)
    table(
        f"a9a ({X.shape[0]} train / {Xt.shape[0]} test): test accuracy (fit time) after n cyclic epochs",
        ["model"] + [f"{e} epochs" for e in epochs],
        rows,
    )
    sgd_acc, svc_acc = sgd.score(int32(Xt), yt), svc.score(int32(Xt), yt)
    table(
        "a9a anchors (same run)",
        ["model", "test accuracy", "ours averaged (10 epochs) minus anchor"],
        [
            ["sklearn SGDClassifier perceptron average=True, 10 epochs", f"{sgd_acc:.4f}", f"{ours - sgd_acc:+.4f}"],
            ["sklearn LinearSVC", f"{svc_acc:.4f}", f"{ours - svc_acc:+.4f}"],
        ],
    )


def mnist_section(epochs):
    X, y = load_mnist(
        DATA / "mnist-test" / "t10k-images-idx3-ubyte.gz", DATA / "mnist-test" / "t10k-labels-idx1-ubyte.gz"
    )
    Xtr, ytr, Xte, yte = X[:8000], y[:8000], X[8000:], y[8000:]
    rows = family_rows(Xtr, ytr, Xte, yte, epochs)
    table(
        "MNIST test set, 8,000 train / 2,000 test, pixels/255: test accuracy (fit time) after n cyclic epochs",
        ["model"] + [f"{e} epochs" for e in epochs],
        rows,
    )
    sk, sk_secs = timed(lambda: SkPerceptron(max_iter=10, tol=None, shuffle=False).fit(Xtr, ytr))
    ours, ours_secs = timed(lambda: AveragedPerceptron(max_epochs=10).fit(Xtr, ytr))
    table(
        "MNIST anchor (same run)",
        ["model", "test accuracy", "fit seconds", "fit time vs sklearn"],
        [
            ["sklearn Perceptron (one-vs-rest), 10 epochs", f"{sk.score(Xte, yte):.4f}", f"{sk_secs:.2f}", "1.00"],
            [
                "perceptrons AveragedPerceptron (argmax), 10 epochs",
                f"{ours.score(Xte, yte):.4f}",
                f"{ours_secs:.2f}",
                f"{ours_secs / sk_secs:.2f}",
            ],
        ],
    )


def speed_section(n, repeats):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, 100))
    X32 = X.astype(np.float32)
    y = np.where(X[:, :5].sum(axis=1) + rng.standard_normal(n) > 0, 1, -1)
    sgd = SGDClassifier(
        loss="perceptron",
        learning_rate="constant",
        eta0=1,
        penalty=None,
        average=True,
        max_iter=5,
        tol=None,
        shuffle=False,
    )
    ours = AveragedPerceptron(max_epochs=5)
    ours.fit(X32[:100], y[:100])  # compile the float32 specialisation before timing
    contestants = [
        ("sklearn SGDClassifier average=True", "float64", lambda: sgd.fit(X, y)),
        ("perceptrons AveragedPerceptron", "float64", lambda: ours.fit(X, y)),
        ("perceptrons AveragedPerceptron", "float32", lambda: ours.fit(X32, y)),
    ]
    secs = interleaved([fn for _, _, fn in contestants], repeats)
    base = 5 * n / secs[0]
    rows = [
        [name, dtype, f"{5 * n / t / 1e6:.2f}", f"{5 * n / t / base:.2f}"]
        for (name, dtype, _), t in zip(contestants, secs)
    ]
    table(
        f"dense {n} x 100, 5 epochs, median of {repeats} (run in turn)",
        ["estimator", "input dtype", "Msamples/s", "vs sklearn float64"],
        rows,
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one epoch count and a small speed test")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    epochs = (1,) if args.quick else (1, 5, 10)
    AveragedPerceptron(max_epochs=1).fit(np.eye(3), [0, 1, 2])  # compile before timing
    print(f"perceptrons bench_family — {time.strftime('%Y-%m-%d')} — python {sys.version.split()[0]}")
    a9a_section(epochs)
    mnist_section(epochs)
    speed_section(40_000 if args.quick else 400_000, 1 if args.quick else args.repeats)


if __name__ == "__main__":
    main()
