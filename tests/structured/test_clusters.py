"""Brown word clusters: sources, bad input, features against the oracle, the tagger with them."""

import gzip
import json

import numpy as np
import pytest
import reference as ref
from test_tagger import TAGS, TRAIN, decode

from perceptrons import Tagger, load_model, save_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.conllu import read_conllu
from perceptrons.io.model_state import ModelState
from perceptrons.structured.clusters import WordClusters, load_clusters
from perceptrons.structured.features import FeatureMap
from perceptrons.structured.templates import CLUSTER, RICH

PATHS = {
    "The": "0010",
    "the": "0011",
    "a": "0011",
    "an": "00110",
    "man": "1100",
    "banana": "11010",
    "arrow": "11011",
    "boats": "1101",
    "flies": "1110",
    "saw": "1111",
    "like": "01",
    "old": "10",
}


@pytest.fixture
def paths_file(tmp_path):
    f = tmp_path / "paths"
    f.write_text("".join(f"{bits}\t{w}\t{i + 3}\n" for i, (w, bits) in enumerate(PATHS.items())), encoding="utf-8")
    return f


def test_paths_file_and_lookup(paths_file):
    c = load_clusters(str(paths_file))
    assert c.paths == PATHS and len(c) == len(PATHS)
    assert c.lookup("The") == "0010"  # as written first
    assert c.lookup("OLD") == "10"  # then lower-cased
    assert c.lookup("zyx") is None
    assert WordClusters({"Paris": "101"}).lookup("PARIS") == "101"  # then capitalised
    assert load_clusters(None) is None and load_clusters(c) is c


def test_arrays_round_trip_keeps_leading_and_trailing_zeros(paths_file):
    c = load_clusters(str(paths_file))
    back = WordClusters.from_state(ModelState("c.npz", {}, c.to_arrays()), c.source)
    assert back.paths == PATHS and back.source == c.source


@pytest.mark.parametrize(
    "content, match",
    [
        (b"0101\tthe\t5\n0110 a\n", r"paths:2: expected 'bits<TAB>word\[<TAB>count\]'"),
        (b"01x1\tthe\t5\n", r"paths:1: expected .* bits of 0 and 1"),
        (b"0101\tthe\t5\n0110\t\t3\n", r"paths:2: expected"),
        (b"0101\tthe\t5\n0110\tcaf\xe9\t3\n", r"paths:2: not valid UTF-8 \(byte 0xe9 at column 9\)"),
        (b"", r"paths: no clusters in the file"),
        (b"\n\n", r"paths: no clusters in the file"),
    ],
)
def test_bad_paths_file(tmp_path, content, match):
    f = tmp_path / "paths"
    f.write_bytes(content)
    with pytest.raises(PerceptronsError, match=match):
        load_clusters(str(f))


def test_unknown_cluster_source(tmp_path):
    with pytest.raises(
        PerceptronsError, match=r"clusters='nope': expected one of \['spacy-en'\] or a Brown 'paths' file"
    ):
        load_clusters("nope")


@pytest.mark.slow
def test_spacy_clusters_decode_the_packed_integers():
    from importlib.resources import files

    import spacy_lookups_data

    c = load_clusters("spacy-en")
    assert len(c) > 100_000 and "spacy-lookups-data" in c.source
    with (files(spacy_lookups_data) / "data" / "en_lexeme_cluster.json.gz").open("rb") as raw, gzip.open(raw) as f:
        table = json.load(f)
    # spaCy packs a path as the integer whose lowest bit is the path's first bit
    for w in ("the", "Monday", "quickly", "banana"):
        assert int(c.paths[w][::-1], 2) == table[w]
    assert c.lookup("Monday") == c.lookup("Friday")  # words used alike share a leaf
    assert c.lookup("dog")[:6] == c.lookup("cat")[:6]


@pytest.mark.slow
def test_spacy_clusters_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = load_clusters("spacy-en")
    (cache,) = (tmp_path / "perceptrons").glob("spacy-lookups-data-*-en-clusters.npz")
    second = load_clusters("spacy-en")  # from the cache
    assert second.paths == first.paths and second.source == first.source
    cache.write_bytes(b"not an npz")  # a broken cache is rebuilt
    assert load_clusters("spacy-en").paths == first.paths
    assert np.load(cache)["codes"].shape == (len(first),)
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # cannot be a directory: nothing cached
    assert load_clusters("spacy-en").paths == first.paths


def test_cluster_features_equal_per_token_oracle():
    clusters = WordClusters(PATHS)
    names = RICH + CLUSTER
    fm = FeatureMap(names, min_count=1, clusters=clusters)
    X, _ = fm.fit_transform(TRAIN)
    r = 0
    for words in TRAIN:
        for i in range(len(words)):
            assert decode(fm, X.indices[X.indptr[r] : X.indptr[r + 1]]) == ref.token_features(words, i, names, PATHS)
            r += 1
    # unseen words reach the cluster features learned on the words that share their cluster
    trained = set().union(*(ref.token_features(w, i, names, PATHS) for w in TRAIN for i in range(len(w))))
    new = [["An", "ARROW", "flies"], ["a", "Zyx"]]
    Xn, _ = fm.transform(new)
    r = 0
    for words in new:
        for i in range(len(words)):
            got = decode(fm, Xn.indices[Xn.indptr[r] : Xn.indptr[r + 1]])
            assert got == ref.token_features(words, i, names, PATHS) & trained
            r += 1
    assert "bc[0]=bc=11011" in decode(fm, Xn.indices[Xn.indptr[1] : Xn.indptr[2]])  # ARROW → arrow's path


def test_cluster_features_of_many_unseen_words_equal_the_oracle():
    """Sixteen words or more go through the compiled lookup, which leaves the cluster strings to
    Python (ids looked up once a path): the same features as the per-token oracle, for words
    found by their own, lower-case or capitalised spelling, by their lower case's path only, or
    not at all."""
    clusters = WordClusters(PATHS)
    names = RICH + CLUSTER
    fm = FeatureMap(names, min_count=1, clusters=clusters)
    fm.fit_transform(TRAIN)
    trained = set().union(*(ref.token_features(w, i, names, PATHS) for w in TRAIN for i in range(len(w))))
    new = [
        ["ARROW", "Banana", "BOATS", "THE", "An", "Zyx", "flies", "Saw", "LIKE", "Old"],
        ["the", "OLD", "Man", "MAN", "arrows", "Bananas", "x-ray", "Ünïcode", "SAW", "THE", "qq", "The"],
    ]
    assert len({w for s in new for w in s}) >= 16
    Xn, _ = fm.transform(new)
    r = 0
    for words in new:
        for i in range(len(words)):
            got = decode(fm, Xn.indices[Xn.indptr[r] : Xn.indptr[r + 1]])
            assert got == ref.token_features(words, i, names, PATHS) & trained, (words, i)
            r += 1
    words = sorted({w for s in new for w in s})
    assert fm.cluster_attribute_ids(words).tolist() == fm.python_attribute_ids(words)[:, -5:].tolist()


def test_tagger_with_clusters_round_trips_without_the_source(tmp_path, paths_file):
    tagger = Tagger(max_epochs=10, min_count=1, clusters=str(paths_file)).fit(TRAIN, TAGS)
    assert "bc[0]" in tagger.features_.templates
    assert tagger.predict(TRAIN) == TAGS
    new = [["The", "man", "saw", "an", "arrow", "."], ["Zyx", "flies"]]
    before = tagger.predict(new)
    save_model(tagger, tmp_path / "t.npz")
    paths_file.unlink()  # the model keeps its clusters
    back = load_model(tmp_path / "t.npz", expect="Tagger")
    assert back.clusters_.paths == PATHS
    assert back.predict(new) == before


def test_cluster_templates_need_clusters():
    with pytest.raises(PerceptronsError, match=r"templates use cluster attributes .* but clusters=None"):
        Tagger(templates="l[0],bc[0]").fit(TRAIN, TAGS)
    with pytest.raises(PerceptronsError, match=r"'clusters' parameter of Tagger must be None or 'spacy-en'"):
        Tagger(clusters=3).fit(TRAIN, TAGS)


@pytest.mark.data
@pytest.mark.slow
def test_ewt_clusters_help_unknown_words(shared_data):
    ewt = shared_data("ud-english-ewt")
    train = read_conllu(ewt / "train.conllu")[:1000]
    dev = read_conllu(ewt / "dev.conllu")[:500]
    words, tags = [s.words for s in train], [s.tags for s in train]
    dwords = [s.words for s in dev]
    gold = np.array([t for s in dev for t in s.tags])
    acc = {}
    for clusters in (None, "spacy-en"):
        tagger = Tagger(max_epochs=8, clusters=clusters).fit(words, tags)
        right = np.array([t for s in tagger.predict(dwords) for t in s]) == gold
        unknown = ~tagger.known(dwords)
        acc[clusters] = (right.mean(), right[unknown].mean())
    # 1,000 sentences leave a third of the dev tokens unknown: clusters are what reaches them
    assert acc["spacy-en"][1] > acc[None][1] + 0.03, acc
    assert acc["spacy-en"][0] > acc[None][0] + 0.01, acc
