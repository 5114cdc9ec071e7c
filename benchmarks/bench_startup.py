"""Start-up costs of the command line with a warm numba cache.

Prints, as medians of interleaved runs in fresh processes: ``perceptrons --help``, ``python -c
"import perceptrons"``, the imports a ``train`` through the column pipeline cannot avoid
(scikit-learn's ``compose`` and ``impute``, numba), the time from process start until the first
epoch of ``perceptrons train`` on a 40-row file begins (read from the progress callback's
clock) and the whole ``train`` process, next to the interpreter's own start-up (``python -c
pass``).  With the ``bench`` extra and ``../shared/data``: ``perceptrons train`` on a9a and
Vowpal Wabbit's one pass over it (its Python package, so its process imports Python too).
"""

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import DATA, compile_bytecode

REPEATS = 7


def wall(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - t


TO_FIRST_EPOCH = r"""
import sys, time
t0 = time.perf_counter()
from perceptrons.cli import main
import perceptrons.linear._base as base
original = base.LinearPerceptronBase._train
def timed(self, *a, **k):
    print(f"FIRST_EPOCH {time.perf_counter() - t0:.4f}", file=sys.stderr)
    return original(self, *a, **k)
base.LinearPerceptronBase._train = timed
main(sys.argv[1:])
"""


def to_first_epoch(csv, model):
    done = subprocess.run(
        [sys.executable, "-c", TO_FIRST_EPOCH, "train", str(csv), "-o", str(model)],
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(l for l in done.stderr.splitlines() if l.startswith("FIRST_EPOCH"))
    return float(line.split()[1])


#: the imports a ``train`` through the column pipeline cannot avoid
FLOOR = (
    "import gc; from perceptrons.cli import YOUNG_THRESHOLD; gc.set_threshold(YOUNG_THRESHOLD); "
    "import sklearn.compose, sklearn.impute, numba"
)


def vw_file(libsvm, path):
    """a9a in Vowpal Wabbit's text format (labels -1/+1, features by index), written once."""
    with open(libsvm) as src, open(path, "w") as out:
        for line in src:
            label, *features = line.split()
            out.write(f"{int(float(label))} | {' '.join(features)}\n")


def main():
    exe = Path(sys.executable).with_name("perceptrons")
    compile_bytecode()
    a9a = DATA / "a9a" / "a9a"
    try:
        import vowpalwabbit  # noqa: F401

        has_vw = a9a.exists()
    except ImportError:
        has_vw = False
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "small.csv"
        csv.write_text("a,b,label\n" + "".join(f"{i % 7},{(3 * i) % 5},{int(i % 7 > 3)}\n" for i in range(40)))
        model = Path(tmp) / "m.npz"
        to_first_epoch(csv, model)  # fills the numba cache if it is cold
        cases = {
            "python -c pass (anchor)": lambda: wall([sys.executable, "-c", "pass"]),
            "perceptrons --help": lambda: wall([str(exe), "--help"]),
            "import perceptrons": lambda: wall([sys.executable, "-c", "import perceptrons"]),
            # with the collector set as the program sets it (perceptrons.cli._short_lived)
            "import sklearn.compose, sklearn.impute, numba (the floor)": lambda: wall([sys.executable, "-c", FLOOR]),
            "train: process start -> first epoch (40 rows)": lambda: to_first_epoch(csv, model),
            "perceptrons train, 40-row CSV (whole process)": lambda: wall(
                [str(exe), "train", str(csv), "-o", str(model)]
            ),
        }
        if has_vw:
            vw = Path(tmp) / "a9a.vw"
            vw_file(a9a, vw)
            run_vw = f"from vowpalwabbit import Workspace; Workspace('--data {vw} --quiet').finish()"
            cases["perceptrons train a9a, no options (whole process)"] = lambda: wall(
                [str(exe), "train", str(a9a), "-o", str(model)]
            )
            cases["Vowpal Wabbit a9a, one pass (whole process, Python package)"] = lambda: wall(
                [sys.executable, "-c", run_vw]
            )
        times = {name: [] for name in cases}
        for _ in range(REPEATS):  # interleaved: a burst on the shared machine slows every case alike
            for name, run in cases.items():
                times[name].append(run())
    print(f"perceptrons bench_startup — {time.strftime('%Y-%m-%d')} — warm numba cache, median of {REPEATS}")
    if not has_vw:
        print("(Vowpal Wabbit rows skipped: the vowpalwabbit package or ../shared/data/a9a is missing)")
    width = max(map(len, times))
    for name, secs in times.items():
        print(f"{name.ljust(width)}  {statistics.median(secs):.3f} s")


if __name__ == "__main__":
    main()
