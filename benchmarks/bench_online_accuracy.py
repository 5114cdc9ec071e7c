"""Test accuracy of the online family where users will compare: a9a and linear MNIST 8k/2k.

Each learner with its defaults, after one epoch and after its default number of epochs (10),
cyclic order, beside our Perceptron and AveragedPerceptron and scikit-learn's
PassiveAggressiveClassifier and SGDClassifier (hinge) with their defaults, all in one run:

* a9a (``../shared/data/a9a``): 32,561 binary rows of 123 columns; test on a9a.t;
* MNIST 8k/2k: the 10,000 images of ``../shared/data/mnist-test``, the first 8,000 train, the
  last 2,000 test, pixels in [0, 1] as the reader gives them (ten classes; the second-order
  learners keep a diagonal covariance per class).

Fit seconds are one run each (the figures to compare are the accuracies; the speeds are in
``bench_online.py``).  Run: ``python benchmarks/bench_online_accuracy.py``.
"""

import time
import warnings

import numpy as np
import scipy.sparse as sp
from _common import DATA, machine_line, table
from sklearn.linear_model import SGDClassifier

from perceptrons import (
    ALMA,
    AROW,
    ROMMA,
    SCW,
    AveragedPerceptron,
    ConfidenceWeighted,
    PassiveAggressive,
    PassiveAggressiveClassifier,
    Perceptron,
    SecondOrderPerceptron,
    Winnow,
)
from perceptrons.io.idx import load_mnist
from perceptrons.io.readers import read_data

warnings.simplefilter("ignore")

OURS = {
    "Perceptron": Perceptron,
    "AveragedPerceptron": AveragedPerceptron,
    "PassiveAggressive (PA-I)": PassiveAggressive,
    "PassiveAggressive (PA-I, averaged)": lambda **kw: PassiveAggressive(average=True, **kw),
    "PassiveAggressive (PA-II)": lambda **kw: PassiveAggressive(variant="pa2", **kw),
    "AROW": AROW,
    "AROW (averaged)": lambda **kw: AROW(average=True, **kw),
    "ConfidenceWeighted": ConfidenceWeighted,
    "SCW-I": SCW,
    "SCW-II": lambda **kw: SCW(variant="II", **kw),
    "SecondOrderPerceptron": SecondOrderPerceptron,
    "ALMA": ALMA,
    "ROMMA": ROMMA,
    "ROMMA (aggressive)": lambda **kw: ROMMA(aggressive=True, **kw),
    "Winnow": Winnow,
}


def a9a():
    X, y = read_data(DATA / "a9a" / "a9a")
    Xt, yt = read_data(DATA / "a9a" / "a9a.t")
    X = sp.csr_matrix(X, dtype=np.float64)
    Xt = sp.csr_matrix((Xt.data, Xt.indices, Xt.indptr), shape=(Xt.shape[0], X.shape[1]), dtype=np.float64)
    return X, y, Xt, yt


def mnist():
    d = DATA / "mnist-test"
    X, y = load_mnist(d / "t10k-images-idx3-ubyte.gz", d / "t10k-labels-idx1-ubyte.gz")  # pixels in [0, 1]
    X = np.asarray(X, dtype=np.float64)
    return X[:8000], y[:8000], X[8000:], y[8000:]


def scored(make, X, y, Xt, yt):
    start = time.perf_counter()
    est = make().fit(X, y)
    seconds = time.perf_counter() - start
    return est.score(Xt, yt), seconds


def section(title, data):
    X, y, Xt, yt = data
    rows = []
    for name, cls in OURS.items():
        one, s1 = scored(lambda cls=cls: cls(max_epochs=1), X, y, Xt, yt)
        ten, s10 = scored(lambda cls=cls: cls(max_epochs=10), X, y, Xt, yt)
        rows.append([name, f"{one:.4f}", f"{ten:.4f}", f"{s10:.2f}"])
    for name, make in {
        "scikit-learn PassiveAggressiveClassifier": lambda: PassiveAggressiveClassifier(random_state=0),
        "scikit-learn SGDClassifier (hinge)": lambda: SGDClassifier(random_state=0),
    }.items():
        acc, s = scored(make, X, y, Xt, yt)
        rows.append([name + " (defaults)", "", f"{acc:.4f}", f"{s:.2f}"])
    table(title, ["learner", "1 epoch", "10 epochs", "fit s (10)"], rows)


def main():
    print(machine_line())
    if (DATA / "a9a" / "a9a").exists():
        section("a9a: test accuracy on a9a.t", a9a())
    if (DATA / "mnist-test").exists():
        section("MNIST 8k/2k, linear: test accuracy on the last 2,000", mnist())


if __name__ == "__main__":
    main()
