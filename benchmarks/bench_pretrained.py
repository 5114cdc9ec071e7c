"""Raw text to tags, one sentence a call: the packaged English tagger against NLTK's pipeline.

Issue 54 §5.  The anchor, measured in the same run: NLTK's ``TreebankWordTokenizer().tokenize``
then ``PerceptronTagger.tag``, NLTK's tagger retrained on UD English EWT's train set (UPOS,
``nr_iter=5``) and tagging from its saved JSON form, as in ``bench_tagger.py`` (NLTK's own
packaged model is Penn Treebank tags and a download away).  Ours: ``tokenize`` then
``tag`` of ``Tagger.pretrained("en")``, and ``pos_tag(text)`` (which also looks for sentence
boundaries).  The input is each EWT test sentence's raw text (its ``# text`` line), one call a
sentence.  Times are medians of ``--repeats`` interleaved runs with the word cache warm, plus
one cold pass of a tagger fresh from its file (every word met for the first time); each pipeline's accuracy is the
share of the gold words that come out with their span and their tag.

Run:  python benchmarks/bench_pretrained.py [--data ../shared/data] [--repeats 5]
"""

import argparse
import time
from pathlib import Path

from _common import DATA, interleaved, nltk_as_saved


def nltk_tagger(train_path):
    from nltk.tag.perceptron import PerceptronTagger

    from perceptrons.io.conllu import read_conllu

    tagger = PerceptronTagger(load=False)
    tagger.train([list(zip(s.words, s.tags)) for s in read_conllu(train_path, "upos")], nr_iter=5)
    return nltk_as_saved(tagger)  # tag from the saved form, as ours tags from its file


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    ewt = Path(args.data) / "ud-english-ewt"

    from nltk.tokenize import TreebankWordTokenizer

    from perceptrons import Tagger, pos_tag, tokenize
    from perceptrons.text.scoring import gold_sentences, tagged_span_scores
    from perceptrons.text.tokenizer import token_spans

    gold = gold_sentences(ewt / "test.conllu", "upos")
    texts = [s.text for s in gold]
    treebank, theirs = TreebankWordTokenizer(), nltk_tagger(ewt / "train.conllu")
    ours = Tagger.pretrained("en")

    def run_nltk():
        for text in texts:
            theirs.tag(treebank.tokenize(text))

    def run_ours():
        for text in texts:
            ours.tag(tokenize(text))

    def run_pos_tag():
        for text in texts:
            pos_tag(text)

    # cold: a tagger fresh from its file meets every word for the first time (its word cache
    # empty), as a process that tags one document does; the runs below are warm
    fresh = Tagger.pretrained("en")
    t0 = time.perf_counter()
    for text in texts:
        fresh.tag(tokenize(text))
    cold = time.perf_counter() - t0

    runs = {
        "NLTK Treebank + PerceptronTagger": run_nltk,
        "tokenize + Tagger.tag": run_ours,
        "pos_tag(text)": run_pos_tag,
    }
    for run in runs.values():  # warm: caches, the first compiled calls, the model read
        run()
    times = dict(zip(runs, interleaved(list(runs.values()), args.repeats)))

    nltk_spans = [list(treebank.span_tokenize(t)) for t in texts]
    nltk_tags = [[tag for _, tag in theirs.tag([t[a:b] for a, b in sp])] for t, sp in zip(texts, nltk_spans)]
    our_spans = [token_spans(t) for t in texts]
    our_tags = [[tag for _, tag in ours.tag([t[a:b] for a, b in sp])] for t, sp in zip(texts, our_spans)]
    accuracy = {
        "NLTK Treebank + PerceptronTagger": tagged_span_scores(gold, nltk_spans, nltk_tags)[0],
        "tokenize + Tagger.tag": tagged_span_scores(gold, our_spans, our_tags)[0],
        "pos_tag(text)": None,
    }
    anchor = times["NLTK Treebank + PerceptronTagger"]
    n_words = sum(len(s.spans) for s in gold)
    print(f"EWT test raw text: {len(texts)} sentences, {n_words} gold words, one sentence a call")
    print(f"{'pipeline':<34} {'median s':>9} {'ratio':>7} {'gold words right':>17}")
    for name in runs:
        t = times[name]
        acc = "" if accuracy[name] is None else f"{accuracy[name]:.4f}"
        print(f"{name:<34} {t:>9.3f} {anchor / t:>6.2f}x {acc:>17}")
    print(f"{'the same, cold (one pass, fresh)':<34} {cold:>9.3f} {anchor / cold:>6.2f}x")


if __name__ == "__main__":
    main()
