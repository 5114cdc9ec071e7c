"""The tagger's word cache and one-sentence path: the same tags as the batch path, bounded
memory, checked words, and no scikit-learn on the way from a model file to tags."""

import copy
import pickle
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons import Tagger, load_model, save_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.conllu import read_conllu
from perceptrons.io.model_state import ModelState
from perceptrons.structured import _tagdict as tagdict
from perceptrons.structured import _word_cache
from perceptrons.structured.words import corpus_types, pack_strings


def factored(tagger, sentences):
    """Tags through the per-batch factored scores and the model's decoder (the path of a model
    with edge features), flattened: what the word cache must reproduce exactly."""
    tok, types, lengths = corpus_types(sentences)
    forced = tagdict.forced_types(tagger.tagdict_, tok, types)
    model = tagger.model_
    idx = None if forced is None else model.forced_indices(forced, tok.shape[0])
    scores = tagger.features_.scores(tok, types, lengths, model.emission_weights(), idx)
    return model.predict_from_scores(scores, lengths, None, assume_binary=True).tolist()


@pytest.fixture(scope="module")
def ewt(shared_data):
    ewt = shared_data("ud-english-ewt")
    train = read_conllu(ewt / "train.conllu", "upos", require_tags=True, keep_lines=False)[:1500]
    test = read_conllu(ewt / "dev.conllu", "upos", require_tags=True, keep_lines=False)[:400]
    return [s.words for s in train], [s.tags for s in train], [s.words for s in test]


@pytest.mark.data
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"tag_dict": True, "tag_dict_min_count": 3},
        {"rare_count": 3},
        {"markov_order": 2},
        {"decoder": "greedy"},
        {"templates": "basic"},
    ],
)
def test_one_sentence_and_batch_equal_factored_path(ewt, params):
    words, tags, test = ewt
    tagger = Tagger(max_epochs=2, **params).fit(words, tags)
    expected = factored(tagger, test)
    one = [t for s in test for _, t in tagger.tag(s)]  # cache filled a sentence at a time
    assert one == expected
    fresh = copy.deepcopy(tagger)  # the cache is not copied: this one starts empty
    assert [t for s in fresh.predict(test) for t in s] == expected


@pytest.mark.data
def test_cache_is_bounded_and_starts_afresh(ewt, monkeypatch):
    words, tags, test = ewt
    tagger = Tagger(max_epochs=1).fit(words, tags)
    expected = factored(tagger, test)
    cache = tagger._words()
    monkeypatch.setattr(_word_cache, "MAX_BYTES", 200 * cache._state.row_bytes)
    sizes = []
    got = []
    for s in test:
        got.extend(t for _, t in tagger.tag(s))
        sizes.append(cache._state.n)
    assert got == expected
    assert max(sizes) <= 200 + max(map(len, test)) and min(sizes[50:]) < max(sizes)  # it started afresh


@pytest.mark.data
def test_a_batch_larger_than_the_cache_is_tagged_in_runs(ewt, monkeypatch):
    # a batch's rows are bounded too: runs of sentences whose tokens fit (a large tag set makes
    # rows large), a sentence longer than a run on its own; the tags are the factored path's
    words, tags, test = ewt
    tagger = Tagger(max_epochs=1).fit(words, tags)
    expected = factored(tagger, test)
    cache = tagger._words()
    monkeypatch.setattr(_word_cache, "MAX_BYTES", 150 * cache._state.row_bytes)
    lengths = np.array([len(s) for s in test])
    runs = list(cache.batches(lengths))
    assert runs[0][0] == 0 and runs[-1][1] == len(test) and all(a[1] == b[0] for a, b in zip(runs, runs[1:]))
    assert all(lengths[lo:hi].sum() <= 150 or hi - lo == 1 for lo, hi in runs) and len(runs) > 10
    seen = []
    monkeypatch.setattr(
        tagger, "_predict_cached", lambda c, *a: seen.append(c._state.n) or Tagger._predict_cached(c, *a)
    )
    assert [t for s in tagger.predict(test) for t in s] == expected
    assert len(seen) == len(runs) and max(seen) <= 150 + lengths.max()  # the cache started afresh


@pytest.mark.data
def test_a_large_batch_is_cached_and_tagged_by_two_threads_as_by_one(ewt, monkeypatch):
    """A batch of many tokens and new words is computed as two halves in two threads: the tags
    and probabilities are those of one thread, bit for bit, and of the factored path."""
    words, tags, test = ewt
    tagger = Tagger(max_epochs=1, tag_dict=True).fit(words, tags)
    expected = factored(tagger, test)
    assert sum(map(len, test)) >= _word_cache.SPLIT_TOKENS
    assert len({w for s in test for w in s}) >= _word_cache.SPLIT_WORDS
    started = []
    background = _word_cache._Background
    monkeypatch.setattr(_word_cache, "_Background", lambda fn: started.append(fn) or background(fn))
    results = {}
    for split in (True, False):
        if not split:
            monkeypatch.setattr(_word_cache, "SPLIT_TOKENS", 10**9)
            monkeypatch.setattr(_word_cache, "SPLIT_WORDS", 10**9)
        started.clear()
        fresh = copy.deepcopy(tagger)  # an empty cache: the batch's words are all new
        got, conf = fresh.predict(test, return_conf=True)
        results[split] = (conf, len(started))
        assert [t for s in got for t in s] == expected
        assert [t for s in copy.deepcopy(tagger).predict(test) for t in s] == expected
    (conf2, threads2), (conf1, threads1) = results[True], results[False]
    assert conf2 == conf1
    assert threads1 == 1 and threads2 == 4  # the vocabulary's table; with halves also the words, tags, scores


@pytest.mark.data
def test_tagging_works_where_no_thread_can_be_started(ewt, monkeypatch):
    """A process at its thread limit (``can't start new thread``) tags as any other: the work
    meant for a second thread is done in the caller's."""
    words, tags, test = ewt
    tagger = Tagger(max_epochs=1).fit(words, tags)
    expected = factored(tagger, test)

    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(_word_cache._Background, "start", refuse)
    assert [t for s in copy.deepcopy(tagger).predict(test) for t in s] == expected  # the cache's set-up too
    one = copy.deepcopy(tagger)
    assert [t for s in test for _, t in one.tag(s)] == expected


@pytest.mark.data
def test_threads_share_the_cache(ewt):
    words, tags, test = ewt
    tagger = Tagger(max_epochs=1).fit(words, tags)
    expected = [[t for _, t in tagger.tag(s)] for s in test]
    tagger = copy.deepcopy(tagger)
    results = [None, None]

    def work(k):
        results[k] = [[t for _, t in tagger.tag(s)] for s in (test if k == 0 else test[::-1])]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == expected and results[1] == expected[::-1]


@pytest.mark.data
@pytest.mark.parametrize("bad", [["a", 3], ["a", ["b"]], [None]])
def test_words_must_be_strings(ewt, bad):
    words, tags, _ = ewt
    tagger = Tagger(max_epochs=1).fit(words[:50], tags[:50])
    with pytest.raises(PerceptronsError, match="word strings"):
        tagger.tag(bad)
    with pytest.raises(PerceptronsError, match="word strings"):
        tagger.predict([bad])
    assert tagger.tag(["a"])[0][0] == "a"  # the cache is unharmed


@pytest.mark.data
def test_a_bad_word_in_a_batch_names_its_sentence(ewt):
    words, tags, _ = ewt
    tagger = Tagger(max_epochs=1).fit(words[:50], tags[:50])
    tagger.predict([["the"]])  # the cache exists: the batch goes straight to its rows
    with pytest.raises(
        PerceptronsError, match=r"^sentences\[2\] must be a list of word strings; found a word of type int$"
    ):
        tagger.predict([["the"], ["a", "b"], ["c", 7]])


@pytest.mark.data
def test_pickles_after_tagging(ewt):
    words, tags, test = ewt
    tagger = Tagger(max_epochs=1).fit(words[:200], tags[:200])
    before = tagger.predict(test[:20])
    back = pickle.loads(pickle.dumps(tagger))
    assert vars(back).get("_word_cache") is None
    assert back.predict(test[:20]) == before


@pytest.mark.data
def test_tagging_from_a_model_file_imports_no_sklearn_nor_scipy_sparse(ewt, tmp_path):
    words, tags, test = ewt
    path = tmp_path / "m.npz"
    tagger = Tagger(max_epochs=1).fit(words[:200], tags[:200])
    save_model(tagger, path)
    code = (
        "import sys; from perceptrons import load_model; "
        f"t = load_model({str(path)!r}); t.tag(['The', 'dog']); t.predict([['a', 'b']]); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'pandas', 'matplotlib') "
        "or m == 'scipy.sparse'))"  # ~0.3 s of start-up that tagging does not need
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert load_model(path).predict(test) == tagger.predict(test)


def test_strings_decoded_at_once_are_checked():
    blob, offsets = pack_strings(["a", "é", "日本", ""])
    assert ModelState("m", {}, {"b": blob, "o": offsets}).strings("b", "o") == ["a", "é", "日本", ""]
    split = offsets.copy()
    split[2] += 1  # inside "é"
    with pytest.raises(PerceptronsError, match="splits a character"):
        ModelState("m", {}, {"b": blob, "o": split}).strings("b", "o")
    bad = blob.copy()
    bad[1] = 0xFF
    with pytest.raises(PerceptronsError, match="not UTF-8"):
        ModelState("m", {}, {"b": bad, "o": offsets}).strings("b", "o")
    assert np.all(offsets >= 0)


@settings(max_examples=200, deadline=None)
@given(strings=st.lists(st.text(st.sampled_from(["a", "é", "日", "😀", " ", "\x00", "\n"]), max_size=5), max_size=20))
def test_strings_round_trip(strings):
    """Both ways of cutting the decoded table (a NUL after each string and one split; slices
    when a string holds a NUL itself) give back the strings written, empty ones included."""
    blob, offsets = pack_strings(strings)
    assert ModelState("m", {}, {"b": blob, "o": offsets}).strings("b", "o") == strings


def test_type_table_words_must_be_w_strings():
    """Column 0 of the type table names 'w=' strings; a model whose word points at another
    string (here the BOS marker, or an empty string at the end of the table) is refused."""
    from perceptrons.structured.features import _start_with_w

    blob, offsets = pack_strings(["<s>", "</s>", "w=dog", "s1=g", "w=", ""])
    assert _start_with_w(blob, offsets, np.array([2, 4]))
    assert not _start_with_w(blob, offsets, np.array([2, 0]))
    assert not _start_with_w(blob, offsets, np.array([5]))
    assert not _start_with_w(blob, offsets, np.array([3]))


SMALL = [["The", "old", "man", "the", "boats", "."], ["Time", "flies", "like", "an", "arrow", "."]] * 3
SMALL_TAGS = [["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"], ["NOUN", "VERB", "ADP", "DET", "NOUN", "PUNCT"]] * 3


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"tag_dict": True, "tag_dict_min_count": 2},
        {"rare_count": 4},
        {"markov_order": 2},
        {"decoder": "greedy"},
        {"clusters": "0010\tman\t5\n0010\tunseen-word\t5\n"},
    ],
)
def test_small_data_every_path(params, tmp_path):
    """Small enough to run without the JIT (``compile/test_disable_jit.py``): every branch of the cache's
    compiled loops, against the factored batch path."""
    if "clusters" in params:  # a paths file; "unseen-word" has the path of a training word
        (tmp_path / "paths").write_text(params["clusters"], encoding="utf-8")
        params = {"clusters": str(tmp_path / "paths")}
    tagger = Tagger(max_epochs=2, min_count=1, **params).fit(SMALL, SMALL_TAGS)
    test = [
        ["The", "man", "flies", "unseen-word", "."],
        ["An"],
        ["arrow", "like", "Time"],
        ["naïve", "Zürich", "boats"],
    ]
    expected = factored(tagger, test)
    assert [t for s in test for _, t in tagger.tag(s)] == expected
    assert [t for s in copy.deepcopy(tagger).predict(test) for t in s] == expected


#: new words of every kind the cache's compiled call meets: known, unseen ASCII, unseen and not
#: ASCII (their lower case and flags made by Python), an empty string, a lone surrogate
NEW_WORDS = ["the", "zzyzx-9", "naïve", "Zürich", "", "Qwerty", "日本語", "caf\udce9", "of", "X-ray", "été"]


@pytest.mark.data
@pytest.mark.parametrize("clusters", [False, True])
def test_new_words_of_every_kind_tag_as_the_factored_path(ewt, tmp_path, clusters):
    words, tags, _ = ewt
    params = {}
    if clusters:  # with clusters, Python makes their attributes and the compiled call takes them
        paths = tmp_path / "paths"
        # unseen words whose paths, and their prefixes, the training words gave features
        lines = ["0010\tthe", "0011\tof", "1101\tnaïve", "0010\tQwerty", "0011\tqwerty", "0011\tX-ray"]
        paths.write_text("".join(f"{line}\t5\n" for line in lines), encoding="utf-8")
        params["clusters"] = str(paths)
    tagger = Tagger(max_epochs=2, min_count=1, **params).fit(words[:400], tags[:400])
    rng = np.random.default_rng(0)
    sents = [rng.choice(NEW_WORDS, size=int(rng.integers(1, 9))).tolist() for _ in range(60)]
    expected = factored(tagger, sents)
    one = copy.deepcopy(tagger)  # an empty cache, filled a sentence at a time
    assert [t for s in sents for _, t in one.tag(s)] == expected
    assert [t for s in copy.deepcopy(tagger).predict(sents) for t in s] == expected
    assert (one.features_.clusters is not None) == clusters


#: characters that take each branch of the compiled word pass: ASCII classes, control bytes, two-,
#: three- and four-byte UTF-8, case mappings that change length, a lone surrogate
CHARS = st.sampled_from(
    list("aAzZ09-\n ~._Xx") + ["\x00", "\x7f", "é", "Ü", "ß", "İ", "ǅ", "Σ", "ж", "１", "²", "\u0301", "😀", "\ud800"]
)
FUZZ_TRAIN = [["The", "old", "café", "the", "bo-ats", "."], ["Time", "Ü", "like", "an", "arrow", "."]] * 3


@pytest.fixture(scope="module")
def fuzz_tagger():
    return Tagger(max_epochs=2, min_count=1).fit(FUZZ_TRAIN, SMALL_TAGS)


@settings(max_examples=150, deadline=None)
@given(sents=st.lists(st.lists(st.text(CHARS, max_size=12), min_size=1, max_size=6), min_size=1, max_size=6))
def test_any_words_tag_as_python_makes_their_attributes(fuzz_tagger, sents):
    """Whatever the strings, the cache's one compiled call finds the words' rows and attributes
    that Python's dict and ``word_attributes`` give them (the factored path, with the compiled
    lookup switched off)."""
    python = copy.deepcopy(fuzz_tagger)
    python.features_._compiled_lookup_from = 10**9
    expected = factored(python, sents)
    one = copy.deepcopy(fuzz_tagger)  # an empty cache, filled a sentence at a time
    assert [t for s in sents for _, t in one.tag(s)] == expected
    assert [t for s in copy.deepcopy(fuzz_tagger).predict(sents) for t in s] == expected


@pytest.mark.data
@pytest.mark.parametrize("rare_count", [0, 3])
def test_add_words_writes_table_rows_unseen_rows_and_their_sums(ewt, rare_count):
    from perceptrons._jit.word_cache import add_words, word_emissions

    words, tags, _ = ewt
    cache = Tagger(max_epochs=1, rare_count=rare_count).fit(words[:300], tags[:300])._words()
    fm = cache.features
    new = ["the", "zzyzx-9", "of", "Qwerty", "the-thing"]
    found, unseen = fm._lookup(new, np.int32)
    assert [r >= 0 for r in found.tolist()] == [fm.known(w) for w in new] == [True, False, True, False, False]
    n_attr = fm.type_table_.shape[1]
    attrs = np.full((9, n_attr), -7, dtype=np.int32)
    rare = np.zeros(9, dtype=np.bool_)
    emit = np.full((9, cache.ks.shape[0], cache.W.shape[1]), np.nan)
    add_words(found, unseen, cache._known, cache._one_part, cache.W, (attrs, rare, emit), 3)
    expect = np.array([fm.type_table_[r] if r >= 0 else unseen[u] for r, u in zip(found, np.cumsum(found < 0) - 1)])
    np.testing.assert_array_equal(attrs[3:8], expect)
    assert (attrs[:3] == -7).all() and (attrs[8] == -7).all()  # nothing outside the new rows
    counts = fm.type_counts_[np.maximum(found, 0)]
    np.testing.assert_array_equal(rare[3:8], ((found < 0) | (counts < rare_count)) & (rare_count > 0))
    want = np.empty((5,) + emit.shape[1:])
    word_emissions(expect, rare[3:8], *cache._one_part, cache.W, want)
    np.testing.assert_array_equal(emit[3:8], want)
    assert np.isnan(emit[:3]).all() and np.isnan(emit[8]).all()
