"""Part-of-speech tagging on UD English EWT: our Tagger against NLTK's averaged perceptron.

The anchor is measured in the same run: NLTK's ``PerceptronTagger(load=False).train(train,
nr_iter=5)`` (Honnibal's greedy averaged perceptron).  Ours: ``Tagger`` with its defaults
(rich templates, first-order Viterbi, averaged, 10 shuffled epochs, the epoch kept chosen on
dev).  Throughputs count tokens × epochs per second of training, feature extraction included,
and words in → tags out per second of tagging (ours: median of 5 calls per run).  Times are
medians of ``--repeats`` runs; peak memory is the high-water resident set of a separate process
that reads EWT and trains our tagger once.

Run:  python benchmarks/bench_tagger.py [--data ../shared/data] [--repeats 3]
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

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data"


#: model variants measured once each (UPOS): what each design choice does on dev and test
VARIANTS = [
    ("default (rich templates, viterbi)", {}),
    ("basic templates (Ratnaparkhi)", {"templates": "basic"}),
    ("greedy decoder", {"decoder": "greedy"}),
    ("tag dictionary", {"tag_dict": True}),
    ("lexicalised transitions l[-1],l[0]", {"edges": "l[-1],l[0]", "edge_min_count": 5}),
    ("second-order transitions", {"markov_order": 2}),
    ("rare words without identity features (<5)", {"rare_count": 5}),
    ("min_count=1 (all features)", {"min_count": 1}),
    ("not averaged", {"averaged": False}),
]


def load(data, column):
    from perceptrons.io.conllu import read_conllu

    ewt = Path(data) / "ud-english-ewt"
    return [read_conllu(ewt / f"{part}.conllu", column, require_tags=True, keep_lines=False)
            for part in ("train", "dev", "test")]


def accuracy(gold_sents, pred_sents):
    g = np.array([t for s in gold_sents for t in s])
    p = np.array([t for s in pred_sents for t in s])
    return float(np.mean(g == p))


def run_ours(train, dev, test, **params):
    from perceptrons.structured.tagging import Tagger

    words = [s.words for s in train]
    tagger = Tagger(**params)
    t0 = time.perf_counter()
    tagger.fit(words, [s.tags for s in train], dev=([s.words for s in dev], [s.tags for s in dev]))
    t_train = time.perf_counter() - t0
    test_words = [s.words for s in test]
    times = []
    for _ in range(5):  # one call lasts ~0.1 s: take the median of a few so that noise averages out
        t0 = time.perf_counter()
        pred = tagger.predict(test_words)
        times.append(time.perf_counter() - t0)
    t_tag = statistics.median(times)
    t0 = time.perf_counter()
    for w in test_words:
        tagger.predict([w])
    t_tag_one = time.perf_counter() - t0
    return tagger, t_train, t_tag, t_tag_one, accuracy([s.tags for s in test], pred)


def run_nltk(train, test):
    from nltk.tag.perceptron import PerceptronTagger

    data = [list(zip(s.words, s.tags)) for s in train]
    tagger = PerceptronTagger(load=False)
    t0 = time.perf_counter()
    tagger.train(data, nr_iter=5)
    t_train = time.perf_counter() - t0
    t0 = time.perf_counter()
    pred = [[t for _, t in tagger.tag(s.words)] for s in test]
    t_tag = time.perf_counter() - t0
    return t_train, t_tag, accuracy([s.tags for s in test], pred)


def memory_probe(data):
    """Child process: train once, print the peak resident set in MB.

    VmHWM rather than ``ru_maxrss``: Linux carries ru_maxrss over fork + exec, so a child would
    report its parent's peak.
    """
    train, dev, test = load(data, "upos")
    run_ours(train, dev, test)
    try:
        with open("/proc/self/status") as f:
            hwm = next(line for line in f if line.startswith("VmHWM:"))
        print(int(hwm.split()[1]) / 1024)
    except (OSError, StopIteration):
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-variants", dest="variants", action="store_false",
                    help="Skip the one-run comparison of model variants on dev and test.")
    ap.add_argument("--memory-probe", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.memory_probe:
        memory_probe(args.data)
        return
    from perceptrons.persistence import save_model

    train, dev, test = load(args.data, "upos")
    n_train = sum(len(s.words) for s in train)
    n_test = sum(len(s.words) for s in test)

    ours, nltk = [], []
    for r in range(args.repeats):
        ours.append(run_ours(train, dev, test))
        nltk.append(run_nltk(train, test))
        print(f"run {r + 1}/{args.repeats}: ours {ours[-1][1]:.2f} s train, NLTK {nltk[-1][0]:.2f} s", file=sys.stderr)
    tagger = ours[-1][0]
    epochs = tagger.model_.n_epochs_
    med = statistics.median
    o_train, o_tag, o_tag1 = med(o[1] for o in ours), med(o[2] for o in ours), med(o[3] for o in ours)
    n_train_t, n_tag_t = med(n[0] for n in nltk), med(n[1] for n in nltk)
    o_acc, n_acc = ours[-1][4], nltk[-1][2]

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "tagger.npz")
        save_model(tagger, path)
        size_mb = os.path.getsize(path) / 2**20

    xtrain, xdev, xtest = load(args.data, "xpos")
    _, xt, _, _, x_acc = run_ours(xtrain, xdev, xtest)
    _, _, nx_acc = run_nltk(xtrain, xtest)

    variants = []
    if args.variants:
        for name, params in VARIANTS:
            t, secs, _, _, acc = run_ours(train, dev, test, **params)
            variants.append((name, max(t.model_.dev_scores_), acc, secs))

    peak = subprocess.run([sys.executable, __file__, "--memory-probe", "--data", args.data],
                          capture_output=True, text=True, check=True).stdout.strip()

    o_tps = n_train * epochs / o_train
    n_tps = n_train * 5 / n_train_t
    rows = [
        ("UPOS accuracy, EWT test", f"{o_acc:.4f}", f"{n_acc:.4f}", f"{o_acc - n_acc:+.4f}"),
        ("XPOS accuracy, EWT test", f"{x_acc:.4f}", f"{nx_acc:.4f}", f"{x_acc - nx_acc:+.4f}"),
        ("dev accuracy of the kept epoch", f"{max(tagger.model_.dev_scores_):.4f} (epoch {tagger.model_.best_epoch_}/{epochs})", "-", ""),
        ("training time, s (median)", f"{o_train:.2f}", f"{n_train_t:.2f}", f"{n_train_t / o_train:.1f}x faster"),
        ("training throughput, tokens*epochs/s", f"{o_tps:,.0f}", f"{n_tps:,.0f}", f"{o_tps / n_tps:.1f}x"),
        ("tagging throughput (batch), tokens/s", f"{n_test / o_tag:,.0f}", f"{n_test / n_tag_t:,.0f}", f"{n_tag_t / o_tag:.1f}x"),
        ("tagging one sentence a call, tokens/s", f"{n_test / o_tag1:,.0f}", f"{n_test / n_tag_t:,.0f}", f"{n_tag_t / o_tag1:.1f}x"),
        ("model file, MB", f"{size_mb:.1f}", "-", ""),
        ("peak resident memory of a training process, MB", f"{float(peak):.0f}", "-", ""),
        ("features / epochs run", f"{tagger.features_.n_features:,} / {epochs}", "-/5", ""),
    ]
    print(f"UD English EWT: {n_train:,} training tokens, {n_test:,} test tokens; medians of {args.repeats} runs; "
          f"XPOS from one run; first (cold, numba cache load) training run {ours[0][1]:.2f} s")
    w = [max(len(r[i]) for r in rows + [("metric", "perceptrons", "NLTK 3 (anchor)", "ratio")]) for i in range(4)]
    head = ("metric", "perceptrons", "NLTK 3 (anchor)", "ratio")
    print(" | ".join(h.ljust(w[i]) for i, h in enumerate(head)))
    print("-|-".join("-" * x for x in w))
    for r in rows:
        print(" | ".join(c.ljust(w[i]) for i, c in enumerate(r)))
    if variants:
        print()
        print("variant (UPOS, one run each)              | best dev | test   | train s")
        print("------------------------------------------|----------|--------|--------")
        for name, d, a, secs in variants:
            print(f"{name:<42}| {d:.4f}   | {a:.4f} | {secs:.1f}")


if __name__ == "__main__":
    main()
