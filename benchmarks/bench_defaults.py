"""The defaults of every estimator, old against new, with scikit-learn's defaults as anchors (issue 15.4).

For each estimator whose defaults issue 15.4 changed (and ``Perceptron``, whose defaults it kept),
one table: test accuracy and median fit time of the defaults before the issue, the defaults after
it, and the anchor — scikit-learn's ``Perceptron()`` and ``SGDClassifier()`` for the linear
models, ``SVC()`` for the kernel perceptron — all measured in this run, the contestants of one
data set fitted in turn (A, B, C, A, B, C, ...) so that load on a shared machine hits all alike.

Data (no downloads):

* a9a: ``../shared/data/a9a/{a9a,a9a.t}`` (32,561 train / 16,281 test, LIBSVM).  The kernel
  models (and SVC) train on its first 8,000 rows, densified, and are tested on all 16,281;
* MNIST 8k/2k: the 10,000 images of ``../shared/data/mnist-test``, the first 8,000 train, the
  last 2,000 test, pixels / 255 as float32 (as ``bench_kernel.py``);
* breast cancer and digits (scikit-learn's bundled sets): a stratified 70 / 30 split with
  ``random_state=0``, standardised on the training part.

Run: ``python benchmarks/bench_defaults.py [--repeats 3] [--only NAME]``.
"""

import argparse
import statistics
import time
import warnings

import numpy as np
from _common import DATA, table
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.linear_model import SGDClassifier
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from perceptrons import AveragedPerceptron, KernelPerceptron, Perceptron, PocketPerceptron, VotedPerceptron
from perceptrons.io.idx import load_mnist
from perceptrons.io.readers import read_data

warnings.simplefilter("ignore", ConvergenceWarning)

#: the parameters that issue 15.4 changed, at their values before it
OLD = {
    Perceptron: {},
    AveragedPerceptron: {"max_epochs": 1000},
    VotedPerceptron: {"max_epochs": 1000},
    PocketPerceptron: {"max_epochs": 1000},
    KernelPerceptron: {"averaged": False, "margin": 0.0, "fit_intercept": True, "max_epochs": 100},
}

#: VotedPerceptron's old default of 1000 epochs on data that is not separable keeps one vector per
#: update: ~5,000 (a9a) to ~1,000 (MNIST, x 10 classes) per epoch, i.e. gigabytes, and a predict
#: that scores every test row against each of them. It is not run there; the row says why.
TOO_BIG = {(VotedPerceptron, "a9a"), (VotedPerceptron, "MNIST 8k/2k")}


def data_sets():
    X, y = read_data(DATA / "a9a" / "a9a", fmt="libsvm")
    Xt, yt = read_data(DATA / "a9a" / "a9a.t", fmt="libsvm", n_features=X.shape[1])
    out = {"a9a": (X, y, Xt, yt)}
    d = DATA / "mnist-test"
    Xm, ym = load_mnist(d / "t10k-images-idx3-ubyte.gz", d / "t10k-labels-idx1-ubyte.gz")
    Xm = Xm.astype(np.float32)
    out["MNIST 8k/2k"] = (Xm[:8000], ym[:8000], Xm[8000:], ym[8000:])
    for name, loader in (("breast cancer", load_breast_cancer), ("digits", load_digits)):
        Xs, ys = loader(return_X_y=True)
        Xtr, Xte, ytr, yte = train_test_split(Xs, ys, test_size=0.3, random_state=0, stratify=ys)
        scaler = StandardScaler().fit(Xtr)
        out[name] = (scaler.transform(Xtr), ytr, scaler.transform(Xte), yte)
    return out


def kernel_data(name, X, y, Xt, yt):
    """The kernel models' version of a data set: a9a cut to its first 8,000 rows, dense."""
    if name != "a9a":
        return X, y, Xt, yt
    return X[:8000].toarray(), y[:8000], Xt.toarray(), yt


def contest(makers, X, y, Xt, yt, repeats):
    """[(accuracy, median fit seconds, fitted model)] of each maker, fitted in turn."""
    fits = [[] for _ in makers]
    models = [None] * len(makers)
    for _ in range(repeats):
        for i, make in enumerate(makers):
            model = make()
            start = time.perf_counter()
            model.fit(X, y)
            fits[i].append(time.perf_counter() - start)
            models[i] = model
    return [(float(np.mean(m.predict(Xt) == yt)), statistics.median(f), m) for m, f in zip(models, fits)]


def describe(params):
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


def estimator_table(cls, sets, repeats):
    kernel = cls is KernelPerceptron
    new = {k: cls().get_params()[k] for k in OLD[cls]}
    anchors = (
        {"SVC()": SVC} if kernel else {"sklearn Perceptron()": SkPerceptron, "sklearn SGDClassifier()": SGDClassifier}
    )
    rows = []
    for name, data in sets.items():
        X, y, Xt, yt = kernel_data(name, *data) if kernel else data
        cls(max_epochs=1).fit(X[:60], y[:60])  # compile this storage's loops outside the timings
        contestants = [("new defaults" if OLD[cls] else "defaults (unchanged)", lambda: cls())]
        if OLD[cls] and (cls, name) not in TOO_BIG:
            contestants.insert(0, ("old defaults", lambda: cls(**OLD[cls])))
        contestants += [(label, make) for label, make in anchors.items()]
        results = contest([make for _, make in contestants], X, y, Xt, yt, repeats)
        anchor_fit = results[-1][1]  # SVC, or SGDClassifier for the linear models
        if OLD[cls] and (cls, name) in TOO_BIG:
            rows.append([name, "old defaults", "not run", "-", "-", "-", "1000 epochs: GBs of vectors"])
        for (label, _), (acc, fit, model) in zip(contestants, results):
            epochs = getattr(model, "n_epochs_", getattr(model, "n_iter_", "-"))
            epochs = int(np.max(epochs)) if not isinstance(epochs, str) else epochs
            rows.append([name, label, f"{acc:.4f}", f"{fit:.3f}", f"{fit / anchor_fit:.2f}", epochs, ""])
    change = f"old defaults ({describe(OLD[cls])}) vs new ({describe(new)})" if OLD[cls] else "defaults unchanged"
    title = (
        f"{cls.__name__}: {change}; "
        f"median of {repeats} fits, fit/anchor = fit time / {list(anchors)[-1]}'s in the same run"
    )
    table(title, ["data", "model", "test acc", "fit s", "fit/anchor", "epochs", "note"], rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default=None, help="one estimator's name, e.g. KernelPerceptron")
    args = parser.parse_args()
    sets = data_sets()
    for cls in OLD:
        if args.only is None or args.only == cls.__name__:
            estimator_table(cls, sets, args.repeats)


if __name__ == "__main__":
    main()
