"""Our online learners against river's on a9a: one pass each, and our defaults.

river (0.26) learns one example at a time from a dict of features, in Python.  Its
``linear_model.Perceptron`` (hinge loss, learning rate 1) and ``PAClassifier`` (PA-I, C=1) are
the online perceptron and passive-aggressive learner of that family.  Each contestant gets the
data in its own form before the clock starts: river a list of dicts, ours the CSR matrix the
LIBSVM reader gives.  Timed: the training and the prediction of the test set; the contestants
run in turn (A, B, C, A, B, C, ...) so that load on a shared machine hits all alike.

Data: ``../shared/data/a9a/{a9a,a9a.t}`` (32,561 train / 16,281 test, LIBSVM), labels ±1.

Run: ``python benchmarks/bench_river.py [--repeats 3]``.
"""

import argparse
import warnings

from _common import DATA, interleaved, machine_line, table
from sklearn.exceptions import ConvergenceWarning

from perceptrons import AveragedPerceptron, Perceptron
from perceptrons.io.readers import read_data

warnings.simplefilter("ignore", ConvergenceWarning)


def as_dicts(X):
    """The rows of a CSR matrix as river's feature dicts (index -> value)."""
    return [
        dict(zip(X.indices[X.indptr[i] : X.indptr[i + 1]].tolist(), X.data[X.indptr[i] : X.indptr[i + 1]].tolist()))
        for i in range(X.shape[0])
    ]


def river_run(make, rows, y, test_rows, yt):
    """One pass of river's ``learn_one``, then ``predict_one`` over the test set: the accuracy."""
    model = make()
    for x, label in zip(rows, y.tolist()):
        model.learn_one(x, label == 1)
    hits = sum(model.predict_one(x) == (label == 1) for x, label in zip(test_rows, yt.tolist()))
    return hits / len(test_rows)


def ours_run(make, X, y, Xt, yt):
    return float((make().fit(X, y).predict(Xt) == yt).mean())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from river import linear_model

    X, y = read_data(DATA / "a9a" / "a9a", fmt="libsvm")
    Xt, yt = read_data(DATA / "a9a" / "a9a.t", fmt="libsvm", n_features=X.shape[1])
    rows, test_rows = as_dicts(X), as_dicts(Xt)
    contestants = {
        "river Perceptron, one pass (anchor)": lambda: river_run(linear_model.Perceptron, rows, y, test_rows, yt),
        "river PAClassifier (PA-I), one pass": lambda: river_run(
            lambda: linear_model.PAClassifier(C=1.0, mode=1), rows, y, test_rows, yt
        ),
        "ours Perceptron, one epoch": lambda: ours_run(lambda: Perceptron(max_epochs=1), X, y, Xt, yt),
        "ours AveragedPerceptron() (10 epochs)": lambda: ours_run(AveragedPerceptron, X, y, Xt, yt),
    }
    accuracy = {name: run() for name, run in contestants.items()}  # also compiles our loops
    wrapped = [lambda run=run: run() for run in contestants.values()]
    times = interleaved(wrapped, args.repeats)
    anchor = times[0]
    rows_out = [[name, f"{accuracy[name]:.4f}", f"{t:.3f}", f"{anchor / t:.1f}"] for name, t in zip(contestants, times)]
    print(f"bench_river — a9a, train + predict, medians of {args.repeats} interleaved runs — {machine_line()}")
    table(
        "a9a (32,561 train / 16,281 test)",
        ["contestant", "test accuracy", "seconds", "speed vs river Perceptron"],
        rows_out,
    )


if __name__ == "__main__":
    main()
