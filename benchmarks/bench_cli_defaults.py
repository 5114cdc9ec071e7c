"""The command line's defaults on ordinary files: ``train`` with no options against the old
defaults, with scikit-learn's scaled models as anchors, all measured in this run.

Each data set is written out as files a user would have (scikit-learn's bundled digits, wine and
breast cancer as CSV, a stratified 70 / 30 split with ``random_state=0``; a9a as its own LIBSVM
files from ``../shared/data``), then each contestant runs as a whole process:

* ``new``: ``perceptrons train TRAIN -o M --test TEST``, no options (averaged perceptron,
  10 epochs, rows shuffled every epoch with seed 0, the column pipeline: CSV columns
  standardised, LIBSVM scaled by max |x|);
* ``file order``: the same with ``--order cyclic``, the default until session 54;
* ``old``: the defaults before: ``--model perceptron --scale none --order cyclic`` (the PLA's
  last iterate, 1000 epochs, columns as read);
* anchors, in this process on the same files' arrays: scikit-learn's
  ``make_pipeline(StandardScaler(), LogisticRegression())`` (``MaxAbsScaler`` for a9a) and
  ``make_pipeline(StandardScaler(), Perceptron())``.

Run: ``python benchmarks/bench_cli_defaults.py [--only NAME]``.
"""

import argparse
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from _common import DATA, table
from sklearn.datasets import load_breast_cancer, load_digits, load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler, StandardScaler

from perceptrons.io.readers import read_data

warnings.simplefilter("ignore", ConvergenceWarning)
EXE = str(Path(sys.executable).with_name("perceptrons"))


def _csv(path, X, y):
    head = ",".join(f"f{j}" for j in range(X.shape[1])) + ",label\n"
    path.write_text(head + "".join(",".join(map(repr, r.tolist())) + f",{t}\n" for r, t in zip(X, y)))


def _sets(tmp, only):
    for name, loader in (("breast cancer", load_breast_cancer), ("wine", load_wine), ("digits", load_digits)):
        if only and only != name:
            continue
        X, y = loader(return_X_y=True)
        Xa, Xb, ya, yb = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        a, b = tmp / f"{name}-train.csv", tmp / f"{name}-test.csv"
        _csv(a, Xa, ya)
        _csv(b, Xb, yb)
        yield name, a, b, (Xa, ya, Xb, yb), StandardScaler
    if (DATA / "a9a" / "a9a").exists() and (not only or only == "a9a"):
        a, b = DATA / "a9a" / "a9a", DATA / "a9a" / "a9a.t"
        Xa, ya = read_data(a)
        Xb, yb = read_data(b, n_features=Xa.shape[1])
        yield "a9a", a, b, (Xa, ya, Xb, yb), MaxAbsScaler


def _cli(train, test, model, extra):
    start = time.perf_counter()
    done = subprocess.run(
        [EXE, "train", str(train), "-o", str(model), "--test", str(test), *extra],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - start
    return float(re.search(r"test acc\s+([0-9.]+)", done.stdout).group(1)), seconds


def _anchor(scaler, model, data):
    Xa, ya, Xb, yb = data
    start = time.perf_counter()
    fitted = make_pipeline(scaler(), model).fit(Xa, ya)
    seconds = time.perf_counter() - start
    return float((fitted.predict(Xb) == yb).mean()), seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, train, test, data, scaler in _sets(tmp, args.only):
            new = _cli(train, test, tmp / "new.npz", [])
            cyclic = _cli(train, test, tmp / "cyclic.npz", ["--order", "cyclic"])
            old = _cli(train, test, tmp / "old.npz", ["--model", "perceptron", "--scale", "none", "--order", "cyclic"])
            logistic = _anchor(scaler, LogisticRegression(max_iter=1000), data)
            sk_pla = _anchor(scaler, SkPerceptron(), data)
            rows.append(
                [
                    name,
                    f"{new[0]:.4f}",
                    f"{cyclic[0]:.4f}",
                    f"{old[0]:.4f}",
                    f"{logistic[0]:.4f}",
                    f"{sk_pla[0]:.4f}",
                    f"{new[1]:.2f}",
                    f"{old[1]:.2f}",
                ]
            )
    table(
        "train with no options (new) against the old defaults and scikit-learn's scaled models; test accuracy",
        [
            "data",
            "new default",
            "new, file order",
            "old default",
            "sklearn scaled logistic",
            "sklearn scaled Perceptron",
            "new s (process)",
            "old s (process)",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
