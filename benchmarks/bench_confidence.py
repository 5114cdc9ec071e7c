"""The tags' probabilities (``return_conf=True``) on UD English EWT test, for a corpus at once.

``Tagger.predict(test, return_conf=True)`` against ``Tagger.predict(test)`` (the anchor: the
same tags without their probabilities), for a first-order and a second-order
(``markov_order=2``) tagger trained on EWT train for 3 epochs.  For the second order, the
forward-backward sums over the tag two back or ahead read tables of exp(trans2) made once a call
(T² exponentials a token); a third contestant takes those sums exactly, an exponential per tag
triple (T³ a token), as the library does past 111 tags (``PAIR_TABLE_BYTES`` set to 0).  The
contestants run in turn, medians of ``--repeats``; the probabilities of the two second-order
ways must agree to 1e-9.

Run:  python benchmarks/bench_confidence.py [--data ../shared/data] [--repeats 7]
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import DATA, interleaved, table  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    from perceptrons import Tagger
    from perceptrons._jit import confidence
    from perceptrons.io.conllu import read_conllu

    ewt = Path(args.data) / "ud-english-ewt"
    train = read_conllu(ewt / "train.conllu", require_tags=True, keep_lines=False)
    test = [s.words for s in read_conllu(ewt / "test.conllu", keep_lines=False)]
    n_tokens = sum(map(len, test))
    words, tags = [s.words for s in train], [s.tags for s in train]
    rows = []
    for order in (1, 2):
        tagger = Tagger(max_epochs=3, markov_order=order).fit(words, tags)
        tagger.predict(test[:20], return_conf=True)  # compiled (or read from numba's cache) before timing

        def exact(tagger=tagger):
            cap = confidence.PAIR_TABLE_BYTES
            confidence.PAIR_TABLE_BYTES = 0  # no tables: the sums of a model past 111 tags
            try:
                return tagger.predict(test, return_conf=True)
            finally:
                confidence.PAIR_TABLE_BYTES = cap

        fns = {
            "predict(test), the anchor": lambda tagger=tagger: tagger.predict(test),
            "predict(test, return_conf=True)": lambda tagger=tagger: tagger.predict(test, return_conf=True),
        }
        if order == 2:
            fns["  the same, sums over tag triples taken exactly"] = exact
            tabled, plain = fns["predict(test, return_conf=True)"](), exact()
            assert tabled[0] == plain[0]
            np.testing.assert_allclose(np.concatenate(tabled[1]), np.concatenate(plain[1]), rtol=1e-9, atol=1e-12)
        times = interleaved(list(fns.values()), args.repeats)
        for (name, _), t in zip(fns.items(), times):
            rows.append(
                [f"markov_order={order}", name, f"{t * 1000:.0f}", f"{n_tokens / t:,.0f}", f"{t / times[0]:.2f}"]
            )
    table(
        f"EWT test, {n_tokens:,} tokens; medians of {args.repeats} interleaved runs",
        ["model", "call", "ms", "tokens/s", "time vs anchor"],
        rows,
    )


if __name__ == "__main__":
    main()
