"""Tagger: feature templates against a per-token oracle, persistence, and real EWT data."""

import collections

import numpy as np
import pytest
import reference as ref
import scipy.sparse as sp

from perceptrons import SequencePerceptron, Tagger, load_model, save_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.conllu import read_conllu
from perceptrons.structured import _tagdict as tagdict
from perceptrons.structured.features import FeatureMap
from perceptrons.structured.metrics import tagging_report
from perceptrons.structured.templates import BASIC, RICH, parse_templates
from perceptrons.structured.words import corpus_types

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

TRAIN = [
    ["The", "old", "man", "the", "boats", "."],
    ["Time", "flies", "like", "an", "arrow", "."],
    ["Fruit", "flies", "like", "a", "banana", "."],
    ["I", "saw", "3-D", "movies", "in", "2021", "!"],
    ["USA", "TODAY", "re-ran", "it"],
]
TAGS = [
    ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"],
    ["NOUN", "VERB", "ADP", "DET", "NOUN", "PUNCT"],
    ["NOUN", "NOUN", "VERB", "DET", "NOUN", "PUNCT"],
    ["PRON", "VERB", "ADJ", "NOUN", "ADP", "NUM", "PUNCT"],
    ["PROPN", "PROPN", "VERB", "PRON"],
]


def decode(fm, feature_ids):
    """Feature columns back to "template=value" strings, through the stored tables only."""
    inv = {i: s for s, i in fm.vocab_.items()}
    out = set()
    for f in feature_ids:
        t = int(np.searchsorted(fm.ptr_, f, side="right")) - 1
        name, value = fm.templates[t], int(fm.keys_[f])
        if name == "bias":
            out.add("bias")
        elif "|" in name:
            a, b = divmod(value, fm.n_values_)
            out.add(f"{name}={inv[a]}|{inv[b]}")
        else:
            out.add(f"{name}={inv[value]}")
    return out


@pytest.mark.parametrize("templates", ["basic", "rich"])
def test_features_equal_per_token_oracle(templates):
    fm = FeatureMap(templates, min_count=1)
    X, lengths = fm.fit_transform(TRAIN)
    names = BASIC if templates == "basic" else RICH
    r = 0
    for words in TRAIN:
        for i in range(len(words)):
            assert decode(fm, X.indices[X.indptr[r] : X.indptr[r + 1]]) == ref.token_features(words, i, names)
            r += 1
    assert lengths.tolist() == [len(s) for s in TRAIN]
    # new text: exactly the oracle's features that were seen in training, unknown words included
    trained = set().union(*(ref.token_features(w, i, names) for w in TRAIN for i in range(len(w))))
    new = [["The", "arrows", "flies", "re-ran", "Zyx"], ["banana"]]
    Xn, _ = fm.transform(new)
    r = 0
    for words in new:
        for i in range(len(words)):
            assert (
                decode(fm, Xn.indices[Xn.indptr[r] : Xn.indptr[r + 1]]) == ref.token_features(words, i, names) & trained
            )
            r += 1


def test_fit_binary_is_fit_transform_without_a_values_array():
    # the tagger trains from fit_binary: the same matrix, its 1s one read-only value
    X, lengths = FeatureMap("rich", min_count=1).fit_transform(TRAIN)
    Xb, lengths_b = FeatureMap("rich", min_count=1).fit_binary(TRAIN)
    assert (X != Xb).nnz == 0 and X.nnz == Xb.nnz > 0 and np.array_equal(lengths, lengths_b)
    assert X.data.flags.writeable and np.all(X.data == 1)
    assert not Xb.data.flags.writeable and Xb.data.strides == (0,)


def test_rare_words_lose_identity_features():
    fm = FeatureMap("rich", min_count=1, rare_count=2)
    X, _ = fm.fit_transform(TRAIN)
    counts = collections.Counter(w for s in TRAIN for w in s)
    identity = {"w[0]", "l[0]", "l[-1]|l[0]", "l[0]|l[1]", "l[0]|s3[1]"}
    r = 0
    for words in TRAIN:
        for i, w in enumerate(words):
            expected = ref.token_features(words, i, RICH)
            if counts[w] < 2:
                expected = {f for f in expected if f.split("=")[0] not in identity}
            assert decode(fm, X.indices[X.indptr[r] : X.indptr[r + 1]]) == expected
            r += 1
    Xn, _ = fm.transform([["flies", "Zyx"]])  # seen twice: kept; unknown: withheld
    got = decode(fm, Xn.indices[Xn.indptr[0] : Xn.indptr[1]])
    assert "w[0]=w=flies" in got
    assert not any(f.startswith("w[0]=") for f in decode(fm, Xn.indices[Xn.indptr[1] : Xn.indptr[2]]))


def test_min_count_drops_rare_features():
    fm1, fm2 = FeatureMap("basic", 1), FeatureMap("basic", 2)
    X1, _ = fm1.fit_transform(TRAIN)
    X2, _ = fm2.fit_transform(TRAIN)
    assert X2.shape[1] < X1.shape[1]
    counts = collections.Counter(f for w in TRAIN for i in range(len(w)) for f in ref.token_features(w, i, BASIC))
    assert X2.shape[1] == sum(c >= 2 for c in counts.values())


@pytest.mark.parametrize(
    "bad, match",
    [
        ("nope", "unknown template set"),
        ("l[9]", "bad feature template"),
        ("q[0]", "bad feature template"),
        ("l[0]|l[1]|l[2]", "at most two"),
        # one spelling a template: no leading zero, no -0, no digits beyond ASCII, no newline
        ("l[00]", "bad feature template"),
        ("l[-0]", "bad feature template"),
        ("l[\uff11]", "bad feature template"),
        (["l[0]\n"], "bad feature template"),
    ],
)
def test_bad_templates(bad, match):
    with pytest.raises(PerceptronsError, match=match):
        parse_templates(bad)


def test_custom_templates_string():
    names, parsed = parse_templates("bias, l[0], s3[0]|l[-1]")
    assert names == ["bias", "l[0]", "s3[0]|l[-1]"] and len(parsed) == 3


@pytest.mark.parametrize("params", [{}, {"rare_count": 2}, {"markov_order": 2}])
def test_tagger_learns_and_round_trips(tmp_path, params):
    tagger = Tagger(max_epochs=10, min_count=1, **params).fit(TRAIN, TAGS)
    assert tagger.predict(TRAIN) == TAGS
    new = [["The", "man", "saw", "an", "old", "banana", "."], ["Zyx", "flies"], []]
    before = tagger.predict(new)
    assert before[-1] == []
    save_model(tagger, tmp_path / "t.npz")
    back = load_model(tmp_path / "t.npz", expect="Tagger")
    assert back.predict(new) == before
    assert back.predict(TRAIN) == TAGS
    assert back.tag(["The", "man"]) == tagger.tag(["The", "man"])
    # the float32 weights come back as stored, not through a float64 copy
    W = back.model_.emission_weights()
    assert W.dtype == np.float32 and np.array_equal(W, tagger.model_.emission_weights())


def test_edge_features_round_trip(tmp_path):
    tagger = Tagger(max_epochs=10, min_count=1, edges="l[-1],l[0]", edge_min_count=2).fit(TRAIN, TAGS)
    assert tagger.model_.n_edge_features_in_ == tagger.edge_features_.n_features > 0
    assert tagger.predict(TRAIN) == TAGS
    new = [["The", "man", "saw", "an", "old", "banana", "."], ["Zyx", "flies"]]
    save_model(tagger, tmp_path / "t.npz")
    back = load_model(tmp_path / "t.npz")
    assert back.predict(new) == tagger.predict(new)
    np.testing.assert_array_equal(back.model_.coef_edge_, tagger.model_.coef_edge_)


def test_pruning_zero_weight_features_keeps_predictions():
    fm = FeatureMap("rich", min_count=1)
    X, lengths = fm.fit_transform(TRAIN)
    y = np.array([t for s in TAGS for t in s])
    model = SequencePerceptron(max_epochs=2).fit(X, y, lengths)
    new = [["The", "man", "saw", "an", "old", "banana", "."], ["Zyx", "flies", "like", "3-D"]]
    Xn, ln = fm.transform(new)
    before = model.predict(Xn, ln)
    used = np.any(model.emission_weights() != 0, axis=1)
    assert 0 < used.sum() < used.size
    fm.prune(used)
    model.prune_features(used)
    Xp, lp = fm.transform(new)
    assert Xp.shape[1] == used.sum() == model.n_features_in_
    np.testing.assert_array_equal(model.predict(Xp, lp), before)
    tagger = Tagger(max_epochs=2, min_count=1).fit(TRAIN, TAGS)
    assert np.all(np.any(tagger.model_.emission_weights() != 0, axis=1))


def test_tag_dictionary_fixes_frequent_words(tmp_path):
    sents = [["a", "x"], ["a", "y"]] * 15
    tags = [["DET", "NOUN"], ["DET", "VERB"]] * 15
    tagger = Tagger(tag_dict=True, tag_dict_min_count=20, max_epochs=2).fit(sents, tags)
    assert tagger.tagdict_ == {"a": "DET"}
    save_model(tagger, tmp_path / "t.npz")
    assert load_model(tmp_path / "t.npz").tagdict_ == {"a": "DET"}


def test_word_with_a_lone_surrogate_tags_but_is_not_saved(tmp_path):
    # text decoded with errors="surrogateescape" brings lone surrogates: tagging takes any str,
    # a model file is UTF-8 and cannot hold one; one clear error, and no file written
    sents = [["caf\udce9", "ok"], ["ok", "caf\udce9"]] * 3
    tags = [["NOUN", "ADJ"], ["ADJ", "NOUN"]] * 3
    tagger = Tagger(max_epochs=3, min_count=1).fit(sents, tags)
    assert tagger.predict(sents[:2]) == tags[:2]
    with pytest.raises(PerceptronsError, match=r"'w=caf\\udce9' holds a lone surrogate \(U\+DCE9\)"):
        save_model(tagger, tmp_path / "t.npz")
    assert list(tmp_path.iterdir()) == []


def test_model_of_another_kind_is_refused(tmp_path):
    X = np.eye(3)
    save_model(SequencePerceptron(max_epochs=2).fit(X, [0, 1, 2]), tmp_path / "s.npz")
    with pytest.raises(PerceptronsError, match="holds a SequencePerceptron, but a Tagger is needed"):
        load_model(tmp_path / "s.npz", expect="Tagger")


@pytest.mark.parametrize(
    "sents, tags, match",
    [
        ("a b", None, "list of sentences"),
        ([["a", 1]], [["X", "Y"]], "list of word strings"),
        ([["a", "b"]], [["X"]], "2 words but 1 tags"),
        ([["a"]], [["X"], ["Y"]], "1 sentences but 2 tag"),
    ],
)
def test_bad_corpus(sents, tags, match):
    with pytest.raises(PerceptronsError, match=match):
        Tagger().fit(sents, tags)


def test_sentence_longer_than_10000_tokens():
    tagger = Tagger(max_epochs=2).fit(TRAIN, TAGS)
    long = (TRAIN[1] * 1700)[:10_200]
    tags = tagger.predict([long])[0]
    assert len(tags) == 10_200
    tagger.fit([long], [(TAGS[1] * 1700)[:10_200]])  # training on it works too


def test_report():
    r = tagging_report([["D", "N"], ["V"]], [["D", "V"], ["V"]], known=[True, False, True])
    assert r["known_accuracy"] == 1.0 and r["unknown_accuracy"] == 0.0 and r["n_unknown"] == 1
    per = {t: (p, rc, f) for t, p, rc, f, _ in r["per_tag"]}
    assert per["N"] == (0.0, 0.0, 0.0) and per["V"] == (0.5, 1.0, pytest.approx(2 / 3))
    with pytest.raises(PerceptronsError):
        tagging_report([["D"]], [["D", "N"]])


@pytest.mark.data
def test_ewt_end_to_end_beats_most_frequent_tag(shared_data):
    ewt = shared_data("ud-english-ewt")
    train = read_conllu(ewt / "train.conllu")[:500]
    dev = read_conllu(ewt / "dev.conllu")[:200]
    words, tags = [s.words for s in train], [s.tags for s in train]
    # baseline: each known word's most frequent training tag, the overall most frequent for others
    counts = collections.defaultdict(collections.Counter)
    for ws, ts in zip(words, tags):
        for w, t in zip(ws, ts):
            counts[w][t] += 1
    overall = collections.Counter(t for ts in tags for t in ts).most_common(1)[0][0]
    gold = np.array([t for s in dev for t in s.tags])
    base = np.array([counts[w].most_common(1)[0][0] if w in counts else overall for s in dev for w in s.words])
    baseline = float(np.mean(base == gold))
    tagger = Tagger(max_epochs=8).fit(words, tags, dev=([s.words for s in dev], [s.tags for s in dev]))
    pred = np.array([t for s in tagger.predict([s.words for s in dev]) for t in s])
    acc = float(np.mean(pred == gold))
    assert acc == max(tagger.model_.dev_scores_)
    assert acc > baseline + 0.05 and acc > 0.85, (acc, baseline)


@pytest.mark.slow
@pytest.mark.data
def test_single_precision_weights_change_no_tag(shared_data, monkeypatch):
    ewt = shared_data("ud-english-ewt")
    train = read_conllu(ewt / "train.conllu")[:1000]
    dev = [s.words for s in read_conllu(ewt / "dev.conllu")[:500]]
    from perceptrons.structured._sequence_model import SequenceModel

    def pruned_in_float64(model):  # the steps the compiled pass fuses, but the cast
        keep = np.any(model.emission_weights() != 0, axis=1)
        model.prune_features(keep)
        return keep

    words, tags = [s.words for s in train], [s.tags for s in train]
    monkeypatch.setattr(SequenceModel, "compact_single_precision", pruned_in_float64)
    wide = Tagger(max_epochs=5).fit(words, tags)
    assert wide.model_.emission_weights().dtype == np.float64
    before = wide.predict(dev)
    monkeypatch.undo()
    tagger = Tagger(max_epochs=5).fit(words, tags)
    assert tagger.model_.emission_weights().dtype == np.float32
    np.testing.assert_array_equal(tagger.model_.emission_weights(), wide.model_.emission_weights().astype(np.float32))
    assert tagger.features_.keys_.tolist() == wide.features_.keys_.tolist()
    assert tagger.predict(dev) == before


@pytest.mark.data
@pytest.mark.parametrize("params", [{}, {"rare_count": 3, "tag_dict": True, "tag_dict_min_count": 5}])
def test_factored_scores_equal_token_feature_sums(shared_data, params):
    ewt = shared_data("ud-english-ewt")
    train = read_conllu(ewt / "train.conllu")[:800]
    dev = [s.words for s in read_conllu(ewt / "dev.conllu")[:300]]
    tagger = Tagger(max_epochs=3, **params).fit([s.words for s in train], [s.tags for s in train])
    fm, m = tagger.features_, tagger.model_
    tok, types, lengths = corpus_types(dev)
    indptr, indices = fm.token_columns(tok, types, lengths)
    X = sp.csr_matrix((np.ones(indices.shape[0]), indices, indptr), shape=(tok.shape[0], fm.n_features))
    W = m.emission_weights().astype(np.float64)
    forced = tagdict.forced_types(tagger.tagdict_, tok, types)
    forced_idx = None if forced is None else m.forced_indices(forced, tok.shape[0])
    got = fm.scores(tok, types, lengths, m.emission_weights(), forced_idx)
    want = X @ W
    if forced_idx is not None:
        assert (forced_idx >= 0).sum() > 100
        free = forced_idx < 0
        want[~free] = -np.inf
        want[~free, forced_idx[~free]] = (X @ W)[~free, forced_idx[~free]]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-9)
    # and the tags equal those decoded from the per-token feature rows
    by_rows = m.predict(X, lengths, forced=forced)
    assert tagger.predict(dev) == [list(x) for x in np.split(by_rows, np.cumsum(lengths)[:-1])]


def test_dev_set_as_a_pair_or_as_nltks_tagged_sentences():
    """``dev`` in NLTK's form (tagged sentences) was read as a pair, its first sentence taken for
    the sentences and its second for their tags: development scores of nonsense, the best epoch
    chosen on them.  Both forms now give the same fit; anything else is refused in one line."""
    pair = (TRAIN[:3], TAGS[:3])
    tagged = [list(zip(w, t)) for w, t in zip(*pair)]
    a = Tagger(max_epochs=3, min_count=1, random_state=0).fit(TRAIN, TAGS, dev=pair)
    b = Tagger(max_epochs=3, min_count=1, random_state=0).fit(TRAIN, TAGS, dev=tagged)
    c = Tagger(max_epochs=3, min_count=1, random_state=0).fit(TRAIN, TAGS, dev=iter(tagged))
    assert a.model_.dev_scores_ == b.model_.dev_scores_ == c.model_.dev_scores_
    for bad, match in (
        ((TRAIN[:3],), "dev must be a pair"),
        ("words", "dev must be"),
        ((TRAIN[:3], TAGS[:2]), "3 sentences but 2"),
    ):
        with pytest.raises(PerceptronsError, match=match):
            Tagger(max_epochs=1).fit(TRAIN, TAGS, dev=bad)


def test_sentences_and_tags_may_be_generators():
    a = Tagger(max_epochs=2, min_count=1, random_state=0).fit(TRAIN, TAGS)
    b = Tagger(max_epochs=2, min_count=1, random_state=0).fit((s for s in TRAIN), (t for t in TAGS))
    np.testing.assert_array_equal(np.asarray(a.model_.coef_), np.asarray(b.model_.coef_))


# ------------------------------------------------------------ any script (issue 54 §4)
_LATIN = "abcdefghijklmnopqrstuvwxyz"
_CYRILLIC = "абвгдежзийклмнопрстуфхцчшщ"
_TO_CYRILLIC = str.maketrans(_LATIN + _LATIN.upper() + "0123456789", _CYRILLIC + _CYRILLIC.upper() + "٠١٢٣٤٥٦٧٨٩")


def _spelled_corpus(seed, n=300):
    """Sentences whose tags follow from spelling (capitals, digits, suffixes) and context."""
    rng = np.random.default_rng(seed)
    stems = ["".join(rng.choice(list(_LATIN), size=rng.integers(2, 7))) for _ in range(60)]
    kinds = [
        (lambda s: s.capitalize(), "PROPN"),
        (lambda s: s + "ing", "VERB"),
        (lambda s: s + "ly", "ADV"),
        (lambda s: str(len(s) * 7) + "-" + s[:1], "NUM"),
        (lambda s: s, "NOUN"),
    ]
    sents, tags = [], []
    for _ in range(n):
        picks = rng.integers(0, len(kinds), size=rng.integers(2, 9))
        words = [kinds[k][0](stems[rng.integers(len(stems))]) for k in picks]
        sents.append(words)
        tags.append([kinds[k][1] for k in picks])
    return sents, tags


@pytest.mark.parametrize("seed", [0, 1])
def test_the_same_treebank_in_another_script_gets_the_same_tags(seed):
    """No feature assumes Latin letters: the corpus spelled in Cyrillic letters (case kept)
    and Arabic-Indic digits trains the same tagger, tag for tag, on unseen words too."""
    sents, tags = _spelled_corpus(seed)
    test, _ = _spelled_corpus(seed + 100, n=100)
    latin = Tagger(max_epochs=4).fit(sents, tags)
    cyrillic = Tagger(max_epochs=4).fit([[w.translate(_TO_CYRILLIC) for w in s] for s in sents], tags)
    assert latin.predict(test) == cyrillic.predict([[w.translate(_TO_CYRILLIC) for w in s] for s in test])
    assert latin.score(test, _spelled_corpus(seed + 100, n=100)[1]) > 0.8


def test_weights_larger_than_the_memory_are_refused_before_they_are_allocated(monkeypatch):
    """The weights are dense, a row of T a feature: a tag set of thousands (positional XPOS)
    took 19.5 GB of a 23 GB machine on EWT train; beyond the memory the fit is refused in one
    line that names the size and, now, what to do, before any allocation."""
    from perceptrons import Tagger
    from perceptrons._core import memory

    sents = [[("a", f"T{k}"), ("b", f"U{k}")] for k in range(60)]  # 120 tags
    monkeypatch.setattr(memory, "available_bytes", lambda: 50_000)
    with pytest.raises(
        PerceptronsError,
        match=r"the weights of [\d,]+ features and 0 edge features for 120 tags need .*; tag a column of fewer tags \(UPOS rather than",
    ):
        Tagger(max_epochs=1).fit([[w for w, _ in s] for s in sents], [[t for _, t in s] for s in sents])
    monkeypatch.setattr(memory, "available_bytes", lambda: None)  # not known: trained as before
    Tagger(max_epochs=1).fit([[w for w, _ in s] for s in sents], [[t for _, t in s] for s in sents])
