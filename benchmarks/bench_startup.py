"""Start-up costs of the command line with a warm numba cache.

Prints, as medians of several runs in fresh processes: ``perceptrons --help``, ``python -c
"import perceptrons"``, and the time from process start until the first epoch of
``perceptrons train`` on a small file begins (read from the progress callback's clock), next
to the interpreter's own start-up (``python -c pass``) measured in the same run.
"""

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import compile_bytecode

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


def main():
    exe = Path(sys.executable).with_name("perceptrons")
    compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "small.csv"
        csv.write_text("a,b,label\n" + "".join(f"{i % 7},{(3 * i) % 5},{int(i % 7 > 3)}\n" for i in range(200)))
        model = Path(tmp) / "m.npz"
        to_first_epoch(csv, model)  # fills the numba cache if it is cold
        rows = [
            (
                "python -c pass (anchor)",
                statistics.median(wall([sys.executable, "-c", "pass"]) for _ in range(REPEATS)),
            ),
            ("perceptrons --help", statistics.median(wall([str(exe), "--help"]) for _ in range(REPEATS))),
            (
                "import perceptrons",
                statistics.median(wall([sys.executable, "-c", "import perceptrons"]) for _ in range(REPEATS)),
            ),
            (
                "train: process start -> first epoch",
                statistics.median(to_first_epoch(csv, model) for _ in range(REPEATS)),
            ),
        ]
    print(f"perceptrons bench_startup — {time.strftime('%Y-%m-%d')} — warm numba cache, median of {REPEATS}")
    width = max(len(r[0]) for r in rows)
    for name, secs in rows:
        print(f"{name.ljust(width)}  {secs:.3f} s")


if __name__ == "__main__":
    main()
