"""The tagger as whole processes: ``perceptrons tag train`` and ``perceptrons tag predict``.

Training: ``perceptrons tag train train.conllu --epochs 5 -o MODEL`` timed as a process (start,
imports, reading, features, five epochs, writing the model), against the anchor NLTK's
in-memory ``PerceptronTagger(load=False).train(sentences, nr_iter=5)`` (reading excluded), the
two interleaved run by run, by wall time and by CPU time (user + system: on a busy machine,
less of the time spent waiting for a core).  Tagging: ``perceptrons tag predict MODEL
test.conllu -o OUT`` on EWT test (25,094 tokens) with a warm numba cache (one run first, not
timed), against the time a
bare ``python -c pass`` and ``python -c "import numpy, numba"`` take on the machine at the same
time: the part of the 1.5 s target no tagger code can remove.  The same with ``--confidence``
(each tag's probability written too) shows what the probabilities add.  ``tag train --stream``
(the file read a chunk of sentences at a time: twice for the features, then once an epoch) is
timed beside the in-memory ``tag train``, its anchor.

``--script cyrillic`` runs the same on EWT with its Latin letters mapped one to one onto
Cyrillic ones (FORM and LEMMA columns; NLTK trains on the mapped words too): the same words and
tags, in a script beyond ASCII, two bytes of UTF-8 a letter.

``tag predict`` runs on the kernels compiled ahead of time at install (``perceptrons._compile.aot``);
the same command on numba's JIT alone (``PERCEPTRONS_NO_AOT=1``) is timed beside it.

``--predict-only`` times ``tag predict`` and its anchors alone (no training runs but the one that
makes the model).

Run:  python benchmarks/bench_tag_cli.py [--data ../shared/data] [--repeats 3] [--script cyrillic]
      [--predict-only]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import compile_bytecode

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data"
CLI = [sys.executable, "-m", "perceptrons"]
#: the environment of a run on numba's JIT alone: the kernels compiled ahead of time turned off
JIT_ONLY = {**os.environ, "PERCEPTRONS_NO_AOT": "1"}
#: the smallest numba program of the command line: its module (and click), numpy and numba
#: imported, one call of a function from numba's cache (whose loading first fills numba's
#: registries), the collector as ``perceptrons.cli.main`` sets it
FLOOR = """\
import gc
from perceptrons.cli import YOUNG_THRESHOLD
gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
import atexit
atexit.register(gc.freeze)
import numpy
import numba


@numba.njit(cache=True)
def one(x):
    return x + 1


one(1)
"""
_LATIN = "abcdefghijklmnopqrstuvwxyz"
_CYRILLIC = "абцдефгхийклмнопярстужвьыз"
#: Latin letters onto Cyrillic ones, one to one, upper case to upper case
CYRILLIC = str.maketrans(_LATIN + _LATIN.upper(), _CYRILLIC + _CYRILLIC.upper())


def transliterated(src, dst, table):
    """Write the CoNLL-U file ``src`` to ``dst`` with ``table`` applied to FORM and LEMMA."""
    with open(src, encoding="utf-8") as f, open(dst, "w", encoding="utf-8") as g:
        for line in f:
            cols = line.split("\t")
            if len(cols) == 10 and not line.startswith("#"):
                cols[1], cols[2] = cols[1].translate(table), cols[2].translate(table)
            g.write("\t".join(cols))


def wall(cmd, env=None):
    """Seconds of a child process, start to exit; its failure is ours."""
    return timed(cmd, env)[0]


def timed(cmd, env=None):
    """(wall, CPU) seconds of a child process: start to exit, and its user + system time."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return t1 - t0, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def nltk_train(sentences):
    """(wall, CPU) seconds of NLTK's training in this process."""
    from nltk.tag.perceptron import PerceptronTagger

    tagger = PerceptronTagger(load=False)
    t0, c0 = time.perf_counter(), time.process_time()
    tagger.train(sentences, nr_iter=5)
    return time.perf_counter() - t0, time.process_time() - c0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--script", choices=["latin", "cyrillic"], default="latin")
    ap.add_argument("--predict-only", action="store_true", help="time tag predict and its anchors only")
    args = ap.parse_args()
    from perceptrons.io.conllu import read_conllu

    compile_bytecode()

    ewt = Path(args.data) / "ud-english-ewt"
    with tempfile.TemporaryDirectory() as tmp:
        train, test = str(ewt / "train.conllu"), str(ewt / "test.conllu")
        if args.script == "cyrillic":
            for name in ("train", "test"):
                transliterated(ewt / f"{name}.conllu", Path(tmp) / f"{name}.conllu", CYRILLIC)
            train, test = str(Path(tmp) / "train.conllu"), str(Path(tmp) / "test.conllu")
        sents = read_conllu(train, "upos", require_tags=True, keep_lines=False)
        tagged = [list(zip(s.words, s.tags)) for s in sents]
        n_tokens = sum(len(s.words) for s in sents)
        n_test = sum(len(s.words) for s in read_conllu(test, "upos", keep_lines=False))
        model, out = str(Path(tmp) / "m.npz"), str(Path(tmp) / "out.conllu")
        train_cmd = [*CLI, "tag", "train", train, "--epochs", "5", "-o", model]
        stream_cmd = [*train_cmd, "--stream"]
        predict_cmd = [*CLI, "tag", "predict", model, test, "-o", out]
        conf_cmd = [*predict_cmd, "--confidence"]
        floor_script = Path(tmp) / "floor.py"
        floor_script.write_text(FLOOR)
        floor_cmd = [sys.executable, str(floor_script)]
        wall(train_cmd)  # compiles whatever the numba cache lacks; then warm
        for cmd in (predict_cmd, conf_cmd, floor_cmd):
            wall(cmd)
        wall(predict_cmd, JIT_ONLY)
        ours, nltk, ours_cpu, nltk_cpu, streamed, predict, conf, bare, imports, floor = ([] for _ in range(10))
        jitted, numpy_only = [], []
        for r in range(args.repeats):
            if not args.predict_only:
                for times, cpu, (w, c) in ((ours, ours_cpu, timed(train_cmd)), (nltk, nltk_cpu, nltk_train(tagged))):
                    times.append(w)
                    cpu.append(c)
                streamed.append(wall(stream_cmd))
            for _ in range(3):  # short runs: several per repeat, interleaved with their anchors
                predict.append(wall(predict_cmd))
                jitted.append(wall(predict_cmd, JIT_ONLY))
                conf.append(wall(conf_cmd))
                bare.append(wall([sys.executable, "-c", "pass"]))
                imports.append(wall([sys.executable, "-c", "import numpy, numba"]))
                numpy_only.append(wall([sys.executable, "-c", "import numpy"]))
                floor.append(wall(floor_cmd))
            print(
                f"run {r + 1}/{args.repeats}: tag predict {predict[-1]:.2f} s, floor {floor[-1]:.2f} s", file=sys.stderr
            )
    med = statistics.median
    from perceptrons._compile.aot import compiled_module

    aot = "compiled ahead of time" if compiled_module() is not None else "NOT compiled ahead of time (JIT)"
    print(f"the tagger's kernels: {aot}")
    print(
        f"UD English EWT ({args.script} letters): {n_tokens:,} training tokens, 5 epochs; predict on test, {n_test:,} tokens; "
        f"medians of {args.repeats} (train) and {3 * args.repeats} (predict) interleaved runs"
    )
    rows = []
    if not args.predict_only:
        rows += [
            ("process `tag train --epochs 5`, s", f"{med(ours):.2f}", f"{med(nltk):.2f} (NLTK train, in memory)"),
            ("  ratio (target >= 15x)", f"{med(nltk) / med(ours):.1f}x", ""),
            ("  the same in CPU time (user + system), s", f"{med(ours_cpu):.2f}", f"{med(nltk_cpu):.2f} (NLTK)"),
            ("  ratio of CPU times", f"{med(nltk_cpu) / med(ours_cpu):.1f}x", ""),
            ("process `tag train --epochs 5 --stream`, s", f"{med(streamed):.2f}", "the file read 7 times"),
            ("  vs the in-memory `tag train`", f"{med(streamed) / med(ours):.2f}x the time", ""),
        ]
    rows += [
        ("process `tag predict` test.conllu, s", f"{med(predict):.2f}", "target <= 1.5"),
        (
            "  the same on the JIT (PERCEPTRONS_NO_AOT=1), s",
            f"{med(jitted):.2f}",
            f"{med(jitted) / med(predict):.2f}x the time",
        ),
        ("  with --confidence (each tag's probability), s", f"{med(conf):.2f}", ""),
        ("  python -c pass, s", f"{med(bare):.2f}", ""),
        ("  python -c 'import numpy', s", f"{med(numpy_only):.2f}", ""),
        ("  python -c 'import numpy, numba', s", f"{med(imports):.2f}", ""),
        ("  the smallest numba program (FLOOR), s", f"{med(floor):.2f}", ""),
        (
            "  `tag predict` above `import numpy`, s",
            f"{med(p - n for p, n in zip(predict, numpy_only)):.2f}",
            "run by run",
        ),
        ("  the JIT's `tag predict` above FLOOR, s", f"{med(j - f for j, f in zip(jitted, floor)):.2f}", "run by run"),
    ]
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print(" | ".join(c.ljust(w[i]) for i, c in enumerate(r)))


if __name__ == "__main__":
    main()
