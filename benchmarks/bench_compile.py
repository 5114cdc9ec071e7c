"""Numba compile time per entry point: each one run in a fresh process twice, first with an
empty compile cache (as after a fresh install), then with the cache that first run wrote.

The first run's extra wall time is what a user waits for compilation; numba's own
``numba:compile`` event timer gives the compile seconds inside it, and the number of compiled
specialisations says how many signatures an entry point costs.  ``NUMBA_CACHE_DIR`` points each
entry point at its own empty directory, so no entry point profits from another's cache.

Run: ``python benchmarks/bench_compile.py [--only NAME]``.  Needs ``../shared/data`` for the
tagger and a9a rows.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import DATA, machine_line, table

# The measuring wrapper: numba's compile-event timer around the entry point's code.
_PRELUDE = """
import json, sys, time
from numba.core import event
_compile = [0.0]
class _Timer(event.Listener):  # outermost compiles only: a callee compiles inside its caller
    depth = 0
    def on_start(self, ev):
        if self.depth == 0: self._t = time.perf_counter()
        self.depth += 1
    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0: _compile[0] += time.perf_counter() - self._t
event.register("numba:compile", _Timer())
_t0 = time.perf_counter()
"""
_POSTLUDE = """
print("@@" + json.dumps({"wall": time.perf_counter() - _t0, "compile": _compile[0]}), file=sys.stderr)
"""

EWT = DATA / "ud-english-ewt"
A9A = DATA / "a9a" / "a9a"

PYTHON = {
    "Perceptron dense float64": "import numpy as np; from perceptrons import Perceptron; "
    "X = np.random.default_rng(0).standard_normal((200, 5)); Perceptron().fit(X, X[:, 0] > 0)",
    "Perceptron dense float32": "import numpy as np; from perceptrons import Perceptron; "
    "X = np.random.default_rng(0).standard_normal((200, 5)).astype(np.float32); Perceptron().fit(X, X[:, 0] > 0)",
    "Perceptron CSR values": "import numpy as np, scipy.sparse as sp; from perceptrons import Perceptron; "
    "X = sp.random(200, 50, density=0.1, format='csr', random_state=0); Perceptron().fit(X, np.arange(200) % 2)",
    "AveragedPerceptron dense, 3 classes": "import numpy as np; from perceptrons import AveragedPerceptron; "
    "X = np.random.default_rng(0).standard_normal((200, 5)); AveragedPerceptron().fit(X, np.arange(200) % 3)",
    "PocketPerceptron dense": "import numpy as np; from perceptrons import PocketPerceptron; "
    "X = np.random.default_rng(0).standard_normal((200, 5)); PocketPerceptron().fit(X, X[:, 0] > 0)",
    "VotedPerceptron dense": "import numpy as np; from perceptrons import VotedPerceptron; "
    "X = np.random.default_rng(0).standard_normal((200, 5)); VotedPerceptron().fit(X, X[:, 0] > 0)",
    "KernelPerceptron dense": "import numpy as np; from perceptrons import KernelPerceptron; "
    "X = np.random.default_rng(0).standard_normal((200, 5)); KernelPerceptron().fit(X, X[:, 0] > 0)",
    "theory.is_separable": "import numpy as np; from perceptrons.theory import is_separable; "
    "X = np.random.default_rng(0).standard_normal((200, 5)); is_separable(X, X[:, 0] > 0)",
}


def cli(*args):
    return f"from perceptrons.cli import main; import sys; sys.argv = ['perceptrons', *{list(map(str, args))!r}]\n" + (
        "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code"
    )


def entry_points(workdir):
    points = {name: code for name, code in PYTHON.items()}
    points["perceptrons demo (CLI)"] = cli("demo")
    if (EWT / "train.conllu").exists():
        model = Path(workdir) / "tagger.model"
        points["perceptrons tag train EWT --epochs 5 (CLI)"] = cli(
            "tag", "train", EWT / "train.conllu", "--epochs", "5", "-o", model
        )
        points["perceptrons tag predict EWT test (CLI)"] = cli(
            "tag", "predict", model, EWT / "test.conllu", "-o", Path(workdir) / "tagged.conllu"
        )
        # a user's session: the first word beyond ASCII after ASCII ones, then the model reloaded
        points["Tagger session: fit EWT dev, tag ASCII then other words, save, load, tag"] = (
            "from perceptrons.io.conllu import read_conllu\n"
            "from perceptrons.persistence import load_model, save_model\n"
            "from perceptrons.structured.tagging import Tagger\n"
            f"s = read_conllu({str(EWT / 'dev.conllu')!r})\n"
            "t = Tagger(max_epochs=2).fit([x.words for x in s], [x.tags for x in s])\n"
            "t.tag(['The', 'cat', 'sat']); t.tag(['Zoë', 'sat'])\n"
            "save_model(t, 'session.model'); m = load_model('session.model')\n"
            "m.tag(['The', 'cat', 'sat']); m.tag(['Zoë', 'sat'])\n"
        )
    if A9A.exists():
        points["perceptrons train a9a (CLI)"] = cli("train", A9A, "-o", Path(workdir) / "a9a.model")
    return points


def run(code, cache, workdir):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), MPLCONFIGDIR=str(Path(workdir) / "mpl"))
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _PRELUDE + code + _POSTLUDE],
        env=env,
        cwd=workdir,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"entry point failed:\n{code}\n{proc.stderr[-2000:]}")
    stats = json.loads(proc.stderr.rsplit("@@", 1)[1])
    return wall, stats["compile"], sum(1 for _ in Path(cache).rglob("*.nbc"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only entry points whose name contains this")
    args = parser.parse_args(argv)
    print(f"perceptrons bench_compile — {time.strftime('%Y-%m-%d')} — python {sys.version.split()[0]}")
    print(machine_line())
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for name, code in entry_points(workdir).items():
            if args.only and args.only not in name:
                continue
            cache = Path(workdir) / ("cache-" + str(len(rows)))
            cache.mkdir()
            cold, compiled, n_cached = run(code, cache, workdir)
            warm, warm_compiled, _ = run(code, cache, workdir)
            rows.append(
                [
                    name,
                    f"{cold:.1f}",
                    f"{warm:.1f}",
                    f"{cold - warm:.1f}",
                    f"{compiled:.1f}",
                    f"{warm_compiled:.1f}",
                    str(n_cached),
                ]
            )
            print(f"  {name}: cold {cold:.1f} s, warm {warm:.1f} s", file=sys.stderr)
    table(
        "compile time per entry point (one fresh process each; cold = empty numba cache)",
        [
            "entry point",
            "cold wall s",
            "warm wall s",
            "cold - warm s",
            "numba compile s (cold)",
            "numba compile s (warm)",
            "specialisations cached",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
