"""Part-of-speech tagging on UD English EWT: our Tagger against NLTK's averaged perceptron.

The anchor is measured in the same run: NLTK's ``PerceptronTagger(load=False).train(train,
nr_iter=5)`` (Honnibal's greedy averaged perceptron).  Ours, in two configurations: ``Tagger``
with its defaults (rich templates, first-order Viterbi, averaged, 10 shuffled epochs, the epoch
kept chosen on dev), which uses nothing but the training data, and the same with
``clusters="spacy-en"`` (Brown clusters learned on unlabelled Reddit text, shipped by
spacy-lookups-data; their loading counts in the training time).  Throughputs count tokens ×
epochs per second of training, feature extraction included, and words in → tags out per second
of tagging: one batch call, more batch calls (median of 5), and one sentence a call with
``tag(tokens)`` against NLTK's ``tag(tokens)`` (NLTK has no batch path: its one-sentence
figure is the anchor of all three), and one sentence a call with the tags' probabilities,
``tag(tokens, return_conf=True)``, against NLTK's call of the same name.  Both taggers tag from their saved form: ours read from its
model file, NLTK's decoded from the JSON its ``save_to_json`` writes.  Times are
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
from _common import nltk_as_saved

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data"


#: model variants measured once each (UPOS): what each design choice does on dev and test
CONFIGS = [("with clusters", {"clusters": "spacy-en"}), ("no external data", {})]
VARIANTS = [
    ("default (rich templates, viterbi)", {}),
    ("Brown clusters (spacy-en)", {"clusters": "spacy-en"}),
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
    return [
        read_conllu(ewt / f"{part}.conllu", column, require_tags=True, keep_lines=False)
        for part in ("train", "dev", "test")
    ]


def accuracy(gold_sents, pred_sents):
    g = np.array([t for s in gold_sents for t in s])
    p = np.array([t for s in pred_sents for t in s])
    return float(np.mean(g == p))


def run_ours(train, dev, test, **params):
    """Train, then tag EWT test three ways, each on a tagger freshly read from its model file
    (an empty word cache): one sentence a call with ``tag(tokens)``, as NLTK's users write it;
    one batch ``predict`` call; and the median of 5 more batch calls (the word cache warm).
    """
    from perceptrons.persistence import load_model, save_model
    from perceptrons.structured.tagging import Tagger

    words = [s.words for s in train]
    tagger = Tagger(**params)
    t0 = time.perf_counter()
    tagger.fit(words, [s.tags for s in train], dev=([s.words for s in dev], [s.tags for s in dev]))
    t_train = time.perf_counter() - t0
    test_words = [s.words for s in test]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "tagger.npz")
        save_model(tagger, path)
        one, batch = load_model(path), load_model(path)
    t0 = time.perf_counter()
    for w in test_words:
        one.tag(w)
    t_tag_one = time.perf_counter() - t0
    t0 = time.perf_counter()
    for w in test_words:
        one.tag(w, return_conf=True)
    t_conf = time.perf_counter() - t0
    t0 = time.perf_counter()
    pred = batch.predict(test_words)
    t_cold = time.perf_counter() - t0
    times = []
    for _ in range(5):  # one call lasts a few tens of ms: the median of a few averages noise out
        t0 = time.perf_counter()
        batch.predict(test_words)
        times.append(time.perf_counter() - t0)
    acc = accuracy([s.tags for s in test], pred)
    return tagger, t_train, statistics.median(times), t_tag_one, acc, t_cold, t_conf


def run_nltk(train, test):
    from nltk.tag.perceptron import PerceptronTagger

    data = [list(zip(s.words, s.tags)) for s in train]
    tagger = PerceptronTagger(load=False)
    t0 = time.perf_counter()
    tagger.train(data, nr_iter=5)
    t_train = time.perf_counter() - t0
    loaded = nltk_as_saved(tagger)
    t0 = time.perf_counter()
    pred = [[t for _, t in loaded.tag(s.words)] for s in test]
    t_tag = time.perf_counter() - t0
    t0 = time.perf_counter()
    for s in test:
        loaded.tag(s.words, return_conf=True)
    t_conf = time.perf_counter() - t0
    return t_train, t_tag, accuracy([s.tags for s in test], pred), t_conf


def memory_probe(data):
    """Child process: train once, print the peak resident set in MB.

    VmHWM rather than ``ru_maxrss``: Linux carries ru_maxrss over fork + exec, so a child would
    report its parent's peak.
    """
    train, dev, test = load(data, "upos")
    run_ours(train, dev, test, **CONFIGS[0][1])
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
    ap.add_argument(
        "--no-variants",
        dest="variants",
        action="store_false",
        help="Skip the one-run comparison of model variants on dev and test.",
    )
    ap.add_argument("--memory-probe", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.memory_probe:
        memory_probe(args.data)
        return
    from perceptrons.persistence import save_model

    train, dev, test = load(args.data, "upos")
    n_train = sum(len(s.words) for s in train)
    n_test = sum(len(s.words) for s in test)

    ours = {name: [] for name, _ in CONFIGS}
    nltk = []
    for r in range(args.repeats):
        for name, params in CONFIGS:
            ours[name].append(run_ours(train, dev, test, **params))
        nltk.append(run_nltk(train, test))
        print(
            f"run {r + 1}/{args.repeats}: "
            + ", ".join(f"{n} {o[-1][1]:.2f} s" for n, o in ours.items())
            + f", NLTK {nltk[-1][0]:.2f} s train",
            file=sys.stderr,
        )
    med = statistics.median
    n_train_t, n_tag_t, n_conf_t = med(n[0] for n in nltk), med(n[1] for n in nltk), med(n[3] for n in nltk)
    n_acc = nltk[-1][2]
    n_tps = n_train * 5 / n_train_t

    xtrain, xdev, xtest = load(args.data, "xpos")
    nx_acc = run_nltk(xtrain, xtest)[2]
    peak = subprocess.run(
        [sys.executable, __file__, "--memory-probe", "--data", args.data], capture_output=True, text=True, check=True
    ).stdout.strip()

    columns = []
    for name, params in CONFIGS:
        runs = ours[name]
        tagger = runs[-1][0]
        epochs = tagger.model_.n_epochs_
        o_train, o_tag, o_tag1 = med(o[1] for o in runs), med(o[2] for o in runs), med(o[3] for o in runs)
        o_cold, o_conf = med(o[5] for o in runs), med(o[6] for o in runs)
        o_tps = n_train * epochs / o_train
        x_acc = run_ours(xtrain, xdev, xtest, **params)[4]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "tagger.npz")
            save_model(tagger, path)
            size_mb = os.path.getsize(path) / 2**20
        columns.append(
            [
                (f"{runs[-1][4]:.4f}", f"{runs[-1][4] - n_acc:+.4f}"),
                (f"{x_acc:.4f}", f"{x_acc - nx_acc:+.4f}"),
                (f"{max(tagger.model_.dev_scores_):.4f} (epoch {tagger.model_.best_epoch_}/{epochs})", ""),
                (f"{o_train:.2f}", f"{n_train_t / o_train:.1f}x faster"),
                (f"{o_tps:,.0f}", f"{o_tps / n_tps:.1f}x"),
                (f"{n_test / o_cold:,.0f}", f"{n_tag_t / o_cold:.1f}x"),
                (f"{n_test / o_tag:,.0f}", f"{n_tag_t / o_tag:.1f}x"),
                (f"{n_test / o_tag1:,.0f}", f"{n_tag_t / o_tag1:.1f}x"),
                (f"{n_test / o_conf:,.0f}", f"{n_conf_t / o_conf:.1f}x"),
                (f"{size_mb:.1f}", ""),
                (f"{float(peak):.0f}" if name == CONFIGS[0][0] else "-", ""),
                (f"{tagger.features_.n_features:,} / {epochs}", ""),
            ]
        )
    labels = [
        ("UPOS accuracy, EWT test", f"{n_acc:.4f}"),
        ("XPOS accuracy, EWT test", f"{nx_acc:.4f}"),
        ("dev accuracy of the kept epoch", "-"),
        ("training time, s (median)", f"{n_train_t:.2f}"),
        ("training throughput, tokens*epochs/s", f"{n_tps:,.0f}"),
        ("tagging, one batch call (empty word cache), tokens/s", f"{n_test / n_tag_t:,.0f}"),
        ("tagging, batch calls again (warm cache), tokens/s", f"{n_test / n_tag_t:,.0f}"),
        ("tagging one sentence a call, tag(tokens), tokens/s", f"{n_test / n_tag_t:,.0f}"),
        ("the same with tag(tokens, return_conf=True), tokens/s", f"{n_test / n_conf_t:,.0f}"),
        ("model file, MB", "-"),
        ("peak resident memory of a training process, MB", "-"),
        ("features / epochs run", "-/5"),
    ]
    head = ["metric"] + [f"ours, {n}" for n, _ in CONFIGS] + ["NLTK 3 (anchor)"] + [f"ratio, {n}" for n, _ in CONFIGS]
    rows = [
        [lab] + [c[i][0] for c in columns] + [anchor] + [c[i][1] for c in columns]
        for i, (lab, anchor) in enumerate(labels)
    ]
    print(
        f"UD English EWT: {n_train:,} training tokens, {n_test:,} test tokens; medians of {args.repeats} runs; "
        f"XPOS from one run; first (cold) training run with clusters {ours[CONFIGS[0][0]][0][1]:.2f} s"
    )
    w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    print(" | ".join(h.ljust(w[i]) for i, h in enumerate(head)))
    print("-|-".join("-" * x for x in w))
    for r in rows:
        print(" | ".join(c.ljust(w[i]) for i, c in enumerate(r)))

    variants = []
    if args.variants:
        for name, params in VARIANTS:
            t, secs, _, _, acc, *_ = run_ours(train, dev, test, **params)
            variants.append((name, max(t.model_.dev_scores_), acc, secs))
    if variants:
        print()
        print("variant (UPOS, one run each)              | best dev | test   | train s")
        print("------------------------------------------|----------|--------|--------")
        for name, d, a, secs in variants:
            print(f"{name:<42}| {d:.4f}   | {a:.4f} | {secs:.1f}")


if __name__ == "__main__":
    main()
