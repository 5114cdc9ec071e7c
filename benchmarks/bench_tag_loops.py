"""The tagger's compiled loops against copies of themselves without what made them faster
(issue 15.3), on the same operands, interleaved; the copies must give the same weights and tags.

* ``train_epoch``: one epoch of Collins' perceptron over EWT train (shuffled, averaged, the
  default rich templates), against a copy without its prefetch of the next sentence's weight
  rows (issued while the current sentence is decoded);
* ``word_emissions``: the word cache's per-word sums of one-part weight rows for EWT's training
  words (in random order), against a copy that reads each lookup and weight row in turn;
* ``tag_cached``: tagging EWT test from a warm word cache in one call, against a copy whose
  sentence scores skip the prefetches (keys, then probes, then additions, in three passes) and
  a copy that scores token by token in one pass (each probe's miss waiting for the one before:
  the loop as it was before issue 15.3's change, kept here as the anchor).

Run: ``python benchmarks/bench_tag_loops.py [--repeats 7]``.
"""

import argparse
import sys
import time
import types
from pathlib import Path

import numpy as np
from _common import machine_line, speed_rows, table
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit import features as F
from perceptrons._jit import structured as K
from perceptrons._jit import word_cache as C
from perceptrons.io.conllu import read_conllu
from perceptrons.persistence import load_model, save_model
from perceptrons.structured.tagging import Tagger
from perceptrons.structured.words import corpus_types

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data"


@njit
def _no_prefetch(*args):
    """Stands in for a prefetch: compiles to nothing."""


def without(dispatcher, **replace):
    """A fresh compiled copy of ``dispatcher`` whose globals ``replace`` overrides.

    Not cached: numba keys its cache by the source location, which the copy shares with the
    library's function, and the copy must neither load nor overwrite that entry.
    """
    f = dispatcher.py_func
    g = types.FunctionType(f.__code__, {**f.__globals__, **replace}, f.__name__, f.__defaults__, f.__closure__)
    options = {k: v for k, v in dispatcher.targetoptions.items() if k != "nopython"}  # njit's own
    return njit(**{**options, "cache": False})(g)


@njit(**NJIT_STRICT)
def one_pass_emissions(rows, lo, n, ks, cached, flat_emit, conj, shift, W, out, cols):
    """``cached_emissions`` token by token, each conjunction probed and added in turn (the same
    additions in the same order; ``flat_emit`` and ``cols`` unused)."""
    word_emit, attrs, rare, forced = cached
    pairs, spec, n_values, hashed, filt = conj
    T = W.shape[1]
    nt = spec.shape[0]
    for i in range(n):
        e = out[i]
        for t in range(T):
            e[t] = 0.0
        for q in range(ks.shape[0]):
            r = C._word_row(rows, lo, n, i + ks[q])
            for t in range(T):
                e[t] += word_emit[r, q, t]
        me = rows[lo + i]
        for p in range(pairs.shape[0]):
            t = pairs[p]
            if spec[t, 5] == 1 and rare[me]:
                continue
            v = attrs[C._word_row(rows, lo, n, i + spec[t, 2]), spec[t, 1]]
            v2 = attrs[C._word_row(rows, lo, n, i + spec[t, 4]), spec[t, 3]]
            if v >= 0 and v2 >= 0:
                key = (v * n_values + v2) * nt + t
                c = F._find(hashed, key) if F._may_hold(filt, shift, key) else -1
                if c >= 0:
                    for s in range(T):
                        e[s] += W[c, s]
        if forced[me] >= 0:
            for t in range(T):
                if t != forced[me]:
                    e[t] = -np.inf


@njit(**NJIT_STRICT)
def one_pass_word_emissions(attrs, rare, luts, one, attr, bias, withhold, slot, W, out):
    """``word_emissions`` template by template, each lookup and weight row read in turn."""
    T = W.shape[1]
    for r in range(attrs.shape[0]):
        for q in range(out.shape[1]):
            for s in range(T):
                out[r, q, s] = 0.0
        for i in range(one.shape[0]):
            if withhold[i] and rare[r]:
                continue
            v = 0 if bias[i] else attrs[r, attr[i]]
            if v < 0:
                continue
            c = luts[one[i], v]
            if c >= 0:
                for s in range(T):
                    out[r, slot[i], s] += W[c, s]


def _copied(args):
    """``args`` with every array, also those inside tuples, copied."""
    return tuple(a.copy() if isinstance(a, np.ndarray) else _copied(a) if isinstance(a, tuple) else a for a in args)


def epoch_operands(words, tags):
    """The arguments of the first ``train_epoch`` call of a one-epoch Tagger fit."""
    captured = []
    library = K.train_epoch

    def grab(*args):
        captured.append(_copied(args))
        return library(*args)

    K.train_epoch = grab
    try:
        Tagger(max_epochs=1).fit(words, tags)
    finally:
        K.train_epoch = library
    return captured[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"perceptrons bench_prefetch — {time.strftime('%Y-%m-%d')} — python {sys.version.split()[0]}")
    print(machine_line())
    ewt = Path(args.data) / "ud-english-ewt"
    train = read_conllu(ewt / "train.conllu", "upos", require_tags=True, keep_lines=False)
    test = [s.words for s in read_conllu(ewt / "test.conllu", "upos", keep_lines=False)]

    operands = epoch_operands([s.words for s in train], [s.tags for s in train])
    epochs = {
        "train_epoch (library)": K.train_epoch,
        "train_epoch, no prefetch": without(K.train_epoch, _prefetch_sequence=_no_prefetch),
    }

    def epoch_run(fn):
        a = _copied(operands)
        fn(*a)  # one epoch first: weights as in the middle of a fit
        start = time.perf_counter()
        fn(*a)
        return time.perf_counter() - start, a[6][0]  # the emission weights W

    tagger = Tagger(max_epochs=2).fit([s.words for s in train], [s.tags for s in train])
    path = HERE / ".bench_prefetch_tagger.npz"
    try:
        save_model(tagger, path)
        tagger = load_model(path)
    finally:
        path.unlink(missing_ok=True)
    tagger.predict(test)
    cache = tagger._words()
    tok, types_, lengths = corpus_types(test)
    rows, state = cache.rows(types_)
    rows = rows[tok]
    offsets = np.zeros(lengths.shape[0] + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    taggers = {
        "tag_cached (library)": C.tag_cached,
        "tag_cached, no prefetch": without(
            C.tag_cached, cached_emissions=without(C.cached_emissions, prefetch=_no_prefetch)
        ),
        "tag_cached, one pass (anchor)": without(C.tag_cached, cached_emissions=one_pass_emissions),
    }

    def tag_run(fn):
        out = np.empty(rows.shape[0], dtype=np.int64)
        start = time.perf_counter()
        fn(rows, offsets, cache.ks, state.cached, cache.conj, cache.W, cache.decoding, out)
        return time.perf_counter() - start, out

    words = cache.features.type_table_[np.random.default_rng(0).permutation(cache.features.type_table_.shape[0])]
    no_rare = np.zeros(words.shape[0], dtype=np.bool_)
    sums = {"word_emissions (library)": C.word_emissions, "word_emissions, one pass (anchor)": one_pass_word_emissions}

    def sums_run(fn):
        out = np.zeros((words.shape[0], cache.ks.shape[0], cache.W.shape[1]))
        start = time.perf_counter()
        fn(words, no_rare, *cache._one_part, cache.W, out)
        return time.perf_counter() - start, out

    groups = [(epochs, epoch_run), (sums, sums_run), (taggers, tag_run)]
    for loops, run in groups:  # compile, and check that the copies agree
        first, *others = [run(fn)[1] for fn in loops.values()]
        assert all(np.array_equal(first, o) for o in others), f"the copies of {list(loops)[0]} disagree"

    times = {name: [] for loops, _ in groups for name in loops}
    for _ in range(args.repeats):
        for loops, run in groups:
            for name, fn in loops.items():
                times[name].append(run(fn)[0])
    rows_out = []
    for loops, _ in groups:  # each group against its last loop
        rows_out += speed_rows({name: times[name] for name in loops}, list(loops)[-1])
    table(
        f"EWT: one training epoch ({sum(len(s.words) for s in train):,} tokens), the sums of "
        f"{words.shape[0]:,} training words, one tagging call ({rows.shape[0]:,} tokens, warm cache); "
        f"median of {args.repeats} interleaved runs",
        ["loop", "ms", "range ms", "speed vs the last of its group"],
        rows_out,
    )


if __name__ == "__main__":
    main()
