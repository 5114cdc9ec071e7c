"""The tokenizer and the sentence splitter against UD English EWT's gold words and sentences,
beside NLTK's in the same run (issue 54 §2).

* Words: each sentence's raw text (its ``# text`` line) tokenized; a word counts when its
  character span is a gold word's (the CoNLL 2018 shared task's measure).  The anchor is NLTK's
  ``TreebankWordTokenizer`` (what ``word_tokenize`` runs on each sentence), through its
  ``span_tokenize``.
* Sentences: each document's raw text (its sentences' texts joined by a space, paragraphs by a
  blank line); a boundary counts when a predicted sentence ends where a gold one does.  The
  anchor is NLTK's Punkt trained, unsupervised, on EWT train's raw text (NLTK's pretrained Punkt
  is a download, which this machine cannot make).
* Speed: one sentence a call over EWT test, medians of interleaved rounds.

The conventions were developed on train and dev; test is read for the figures only.

Run: ``python benchmarks/bench_tokenize.py [--split test] [--repeats 5]``.
"""

import argparse
import sys

from _common import DATA, interleaved, machine_line, table
from nltk.tokenize import TreebankWordTokenizer
from nltk.tokenize.punkt import PunktSentenceTokenizer

from perceptrons.text.scoring import documents, gold_sentences, span_f1
from perceptrons.text.sentences import sentence_spans
from perceptrons.text.tokenizer import token_spans, tokenize


def word_scores(gold, spans_of):
    predicted, expected = [], []
    for k, s in enumerate(gold):
        predicted += [(k, a, b) for a, b in spans_of(s.text)]
        expected += [(k, a, b) for a, b in s.spans]
    return span_f1(predicted, expected)


def sentence_scores(gold, spans_of):
    predicted, expected = [], []
    for d, (text, ends) in enumerate(documents(gold)):
        predicted += [(d, e) for _, e in spans_of(text)]
        expected += [(d, e) for e in ends]
    return span_f1(predicted, expected)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--split", default="test", choices=["train", "dev", "test"])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    folder = f"{args.data}/ud-english-ewt"
    try:
        gold = gold_sentences(f"{folder}/{args.split}.conllu")
        train = gold_sentences(f"{folder}/train.conllu")
    except Exception as e:  # the data folder is optional
        sys.exit(f"needs UD English EWT: {e}")
    print(machine_line())
    treebank = TreebankWordTokenizer()
    punkt = PunktSentenceTokenizer("\n\n".join(text for text, _ in documents(train)))
    rows = []
    for name, fn in [("perceptrons.tokenize", token_spans), ("NLTK TreebankWordTokenizer", treebank.span_tokenize)]:
        p, r, f, n_pred, n_gold = word_scores(gold, lambda t, fn=fn: list(fn(t)))
        rows.append([name, f"{p:.4f}", f"{r:.4f}", f"{f:.4f}", n_pred, n_gold])
    table(
        f"Words of EWT {args.split} from each sentence's raw text", ["tokenizer", "P", "R", "F1", "words", "gold"], rows
    )
    rows = []
    for name, fn in [
        ("perceptrons.sentences", sentence_spans),
        ("NLTK Punkt, trained on EWT train", punkt.span_tokenize),
    ]:
        p, r, f, n_pred, n_gold = sentence_scores(gold, lambda t, fn=fn: list(fn(t)))
        rows.append([name, f"{p:.4f}", f"{r:.4f}", f"{f:.4f}", n_pred, n_gold])
    table(f"Sentence boundaries of EWT {args.split} documents", ["splitter", "P", "R", "F1", "sentences", "gold"], rows)
    texts = [s.text for s in gold]

    def ours():
        for t in texts:
            tokenize(t)

    def nltk():
        for t in texts:
            treebank.tokenize(t)

    t_ours, t_nltk = interleaved([ours, nltk], args.repeats)
    table(
        f"One sentence a call, EWT {args.split} ({len(texts)} sentences), median of {args.repeats} interleaved",
        ["tokenizer", "ms", "µs / sentence", "speed vs NLTK"],
        [
            ["NLTK TreebankWordTokenizer.tokenize", f"{t_nltk * 1000:.0f}", f"{t_nltk / len(texts) * 1e6:.1f}", "1.00"],
            [
                "perceptrons.tokenize",
                f"{t_ours * 1000:.0f}",
                f"{t_ours / len(texts) * 1e6:.1f}",
                f"{t_nltk / t_ours:.2f}",
            ],
        ],
    )


if __name__ == "__main__":
    main()
