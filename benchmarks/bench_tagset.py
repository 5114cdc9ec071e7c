"""A large tag set: morphological tagging of UD English EWT (UPOS|FEATS, 321 tags in train).

Treebanks of other languages tag XPOS with hundreds to thousands of tags, and joint UPOS and
features tagging gives hundreds in any language.  A first-order Viterbi decoder costs T² a
token in the worst case; this script measures what it costs on real data with such a tag set.
The task is built from EWT itself: each token's tag is its UPOS and FEATS joined by ``|``
(``NOUN|Number=Sing``), written into the XPOS column of a temporary copy of train and test.

The anchor is measured in the same run: NLTK's ``PerceptronTagger(load=False).train(train,
nr_iter=5)``, a greedy tagger whose cost grows with T only through the classes each feature
has seen.  Ours: ``Tagger(max_epochs=5)`` (rich templates, first-order Viterbi, averaged) and
the same with ``decoder="greedy"``.  Both tag test from their trained state (one batch call
for ours; NLTK tags a sentence a call, having no batch path).  Times are medians of
``--repeats`` interleaved runs.

Run:  python benchmarks/bench_tagset.py [--data ../shared/data] [--repeats 3]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data"


def morph_copy(src, dst):
    """``src`` with each token's XPOS replaced by UPOS|FEATS."""
    with open(src, encoding="utf-8") as fin, open(dst, "w", encoding="utf-8") as fout:
        for line in fin:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 10 and parts[0].isdigit():
                parts[4] = f"{parts[3]}|{parts[5]}"
                line = "\t".join(parts) + "\n"
            fout.write(line)


def accuracy(gold, pred):
    return float(np.mean([p == g for ps, gs in zip(pred, gold) for p, g in zip(ps, gs)]))


def run_ours(train, test, decoder):
    from perceptrons.structured.tagging import Tagger

    t0 = time.perf_counter()
    tagger = Tagger(max_epochs=5, decoder=decoder).fit([s.words for s in train], [s.tags for s in train])
    t1 = time.perf_counter()
    pred = tagger.predict([s.words for s in test])
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, accuracy([s.tags for s in test], pred)


def run_nltk(train, test):
    import random

    from nltk.tag.perceptron import PerceptronTagger

    random.seed(0)  # NLTK shuffles with the random module
    tagger = PerceptronTagger(load=False)
    t0 = time.perf_counter()
    tagger.train([list(zip(s.words, s.tags)) for s in train], nr_iter=5)
    t1 = time.perf_counter()
    pred = [[t for _, t in tagger.tag(s.words)] for s in test]
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, accuracy([s.tags for s in test], pred)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    from perceptrons.io.conllu import read_conllu

    ewt = Path(args.data) / "ud-english-ewt"
    with tempfile.TemporaryDirectory() as tmp:
        parts = {}
        for part in ("train", "test"):
            path = os.path.join(tmp, f"{part}.conllu")
            morph_copy(ewt / f"{part}.conllu", path)
            parts[part] = read_conllu(path, "xpos", require_tags=True, keep_lines=False)
    train, test = parts["train"], parts["test"]
    n_tags = len({t for s in train for t in s.tags})
    contestants = {
        "NLTK PerceptronTagger (anchor)": lambda: run_nltk(train, test),
        "perceptrons Tagger, Viterbi": lambda: run_ours(train, test, "viterbi"),
        "perceptrons Tagger, greedy": lambda: run_ours(train, test, "greedy"),
    }
    runs = {name: [] for name in contestants}
    run_ours(train[:200], test[:20], "viterbi")  # compile outside the timed runs
    run_ours(train[:200], test[:20], "greedy")
    for r in range(args.repeats):
        for name, fn in contestants.items():
            runs[name].append(fn())
        print(f"run {r + 1}/{args.repeats} done", file=sys.stderr)
    n_train = sum(len(s.words) for s in train)
    n_test = sum(len(s.words) for s in test)
    med = statistics.median
    anchor_fit = med(r[0] for r in runs["NLTK PerceptronTagger (anchor)"])
    anchor_tag = med(r[1] for r in runs["NLTK PerceptronTagger (anchor)"])
    print(
        f"UD English EWT, UPOS|FEATS tags: {n_tags} tags in train; {n_train:,} training tokens, 5 epochs; "
        f"{n_test:,} test tokens; medians of {args.repeats} interleaved runs"
    )
    print(f"{'contestant':<32} {'fit s':>8} {'x anchor':>9} {'tag s':>8} {'x anchor':>9} {'accuracy':>9}")
    for name, rs in runs.items():
        fit, tag = med(r[0] for r in rs), med(r[1] for r in rs)
        print(
            f"{name:<32} {fit:>8.2f} {anchor_fit / fit:>8.2f}x {tag:>8.3f} {anchor_tag / tag:>8.1f}x {rs[-1][2]:>9.4f}"
        )


if __name__ == "__main__":
    main()
