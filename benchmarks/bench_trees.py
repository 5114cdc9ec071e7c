"""Two checkouts of the package on the same workloads, interleaved: does a change cost speed?

Each workload runs in a fresh process of its own, with ``PYTHONPATH`` set to one tree's ``src``
and numba's cache in a folder of that tree; the trees take turns (A, B, A, B, ...) so that a burst
of load on this shared machine hits both.  A first untimed round per tree fills numba's cache.
Only the public API is used, so any two releases can be compared.  Build each tree's loops
compiled ahead of time first (``make aot``, or ``python -m perceptrons._compile.aot_build
--if-stale`` in it): a tree without them imports numba while it reads CoNLL-U, before the clock
starts, and the other inside its first fit.

Workloads (``../shared/data``):

* ``kernel``: ``KernelPerceptron()`` fit on MNIST's first 8,000 test images, and with
  ``budget=1000`` (random removal);
* ``averaged``: ``AveragedPerceptron()`` fit on a9a (10 epochs, CSR);
* ``pocket``: ``PocketPerceptron()`` fit on a9a (20 epochs, the ratchet's counts);
* ``dense``: ``Perceptron(max_epochs=5)`` on 400,000 x 100 float32 rows (inseparable);
* ``tagger``: ``Tagger(max_epochs=2)`` fit on EWT train, then EWT test tagged in one call, and
  its first 1,000 sentences one a call (the same tagger: its word cache warm from the batch).
* ``theory``: ``mistake_bound`` of PA-I and of the PLA on a9a's first 2,000 rows (one pass, one
  trial at a time), and ``report_data`` of 300 generated 2-D rows (no data folder needed).

Run: ``python benchmarks/bench_trees.py OLD_TREE NEW_TREE [--rounds 5] [--only kernel,...]``.
The figure of each is the median of the rounds; the ratio is old / new (above 1: new faster).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import machine_line, table

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data"

WORKLOADS = {
    "kernel": """
import numpy as np
from perceptrons import KernelPerceptron
from perceptrons.io.idx import load_mnist
X, y = load_mnist(DATA + "/mnist-test/t10k-images-idx3-ubyte.gz", DATA + "/mnist-test/t10k-labels-idx1-ubyte.gz")
Xtr, ytr = X[:8000].astype(np.float32), y[:8000]
t = time.perf_counter(); KernelPerceptron().fit(Xtr, ytr); out["kernel fit"] = time.perf_counter() - t
t = time.perf_counter(); KernelPerceptron(budget=1000, budget_policy="random").fit(Xtr, ytr)
out["kernel fit, budget 1000"] = time.perf_counter() - t
""",
    "averaged": """
from perceptrons import AveragedPerceptron
from sklearn.datasets import load_svmlight_file
X, y = load_svmlight_file(DATA + "/a9a/a9a", n_features=123)
t = time.perf_counter(); AveragedPerceptron().fit(X, y); out["averaged a9a fit"] = time.perf_counter() - t
""",
    "pocket": """
from perceptrons import PocketPerceptron
from sklearn.datasets import load_svmlight_file
X, y = load_svmlight_file(DATA + "/a9a/a9a", n_features=123)
t = time.perf_counter(); PocketPerceptron().fit(X, y); out["pocket a9a fit"] = time.perf_counter() - t
""",
    "dense": """
import numpy as np, warnings
from perceptrons import Perceptron
rng = np.random.default_rng(0)
X = rng.standard_normal((400_000, 100), dtype=np.float32)
y = (X @ rng.standard_normal(100) + rng.standard_normal(400_000) > 0).astype(int)
warnings.simplefilter("ignore")
t = time.perf_counter(); Perceptron(max_epochs=5).fit(X, y); out["dense 400k x 100 f32, 5 epochs"] = time.perf_counter() - t
""",
    "theory": """
import warnings
import numpy as np
from perceptrons import PassiveAggressive, Perceptron
from perceptrons.report import report_data
from perceptrons.theory import mistake_bound
from sklearn.datasets import load_svmlight_file
warnings.simplefilter("ignore")
X, y = load_svmlight_file(DATA + "/a9a/a9a", n_features=123)
X, y = X[:2000].toarray(), y[:2000]
mistake_bound(PassiveAggressive(variant="pa1"), X[:50], y[:50])  # the compiled loops loaded
t = time.perf_counter(); mistake_bound(PassiveAggressive(variant="pa1"), X, y); out["mistake_bound PA-I, a9a 2k"] = time.perf_counter() - t
t = time.perf_counter(); mistake_bound(Perceptron(), X, y); out["mistake_bound PLA, a9a 2k"] = time.perf_counter() - t
rng = np.random.default_rng(0)
P = rng.normal(size=(300, 2))
labels = (P @ [1.0, 2.0] + 0.3 * rng.normal(size=300) > 0).astype(int)
report_data(P[:20], labels[:20])
t = time.perf_counter(); report_data(P, labels); out["report_data, 300 2-D rows"] = time.perf_counter() - t
""",
    "tagger": """
from perceptrons import Tagger
from perceptrons.io.conllu import read_conllu
train = read_conllu(DATA + "/ud-english-ewt/train.conllu")
test = read_conllu(DATA + "/ud-english-ewt/test.conllu")
t = time.perf_counter(); tagger = Tagger(max_epochs=2).fit([s.words for s in train], [s.tags for s in train])
out["tagger fit, 2 epochs"] = time.perf_counter() - t
t = time.perf_counter(); tagger.predict([s.words for s in test]); out["tag EWT test, one call"] = time.perf_counter() - t
t = time.perf_counter()
for s in test[:1000]:
    tagger.tag(s.words)
out["tag 1,000 EWT test sentences, one a call"] = time.perf_counter() - t
""",
}


def run(tree, name):
    """One workload in a fresh process on ``tree``: {figure: seconds}."""
    code = f"import time, json\nDATA = {str(DATA)!r}\nout = {{}}\n{WORKLOADS[name]}\nprint(json.dumps(out))"
    env = {
        **os.environ,
        "PYTHONPATH": str(Path(tree) / "src"),
        "NUMBA_CACHE_DIR": str(Path(tree) / ".bench-numba-cache"),
    }
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # users' machines do not pin them
        env.pop(var, None)
    with tempfile.TemporaryDirectory() as cwd:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd)
    if done.returncode:
        raise SystemExit(f"{tree}: {name} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default=",".join(WORKLOADS))
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n]
    print(machine_line())
    trees = {"old": args.old, "new": args.new}
    for label, tree in trees.items():
        ahead = sorted(p.name for p in (Path(tree) / "src" / "perceptrons").rglob("*.so"))
        print(f"{label}: {tree}; compiled ahead: {', '.join(ahead) or 'none (see the notes above)'}")
    for name in names:
        for tree in trees.values():  # fills numba's cache of each tree: compile time is not measured
            run(tree, name)
    times = {"old": {}, "new": {}}
    for _ in range(args.rounds):
        for name in names:
            for label, tree in trees.items():
                for figure, seconds in run(tree, name).items():
                    times[label].setdefault(figure, []).append(seconds)
    rows = []
    for figure in times["old"]:
        old, new = statistics.median(times["old"][figure]), statistics.median(times["new"][figure])
        rows.append((figure, f"{old:.3f}", f"{new:.3f}", f"{old / new:.2f}"))
    table(f"medians of {args.rounds} interleaved rounds, seconds", ("workload", "old", "new", "old / new"), rows)


if __name__ == "__main__":
    main()
