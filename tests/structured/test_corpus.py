"""A corpus with its words numbered (``read_corpus``) against the lists it stands for: the same
corpus as ``Corpus.from_lists`` of the reader's sentences, or the reader's own error; the same
fitted tagger as a fit on the lists; every field checked."""

import tempfile
from pathlib import Path

import numpy as np
import pytest
from conllu_documents import documents
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons import Tagger
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.conllu import read_conllu
from perceptrons.io.conllu_bytes import _check_utf8
from perceptrons.structured.corpus import Corpus, read_corpus


def as_fields(corpus):
    return corpus.types, corpus.tok.tolist(), corpus.lengths.tolist(), corpus.y.tolist(), corpus.y.dtype


def from_reader(path, column):
    """``Corpus.from_lists`` of the line reader's sentences, or its error message."""
    try:
        sentences = read_conllu(path, column, require_tags=True, keep_lines=False)
    except PerceptronsError as exc:
        return str(exc)
    return as_fields(Corpus.from_lists([s.words for s in sentences], [s.tags for s in sentences]))


def numbered(path, column):
    try:
        return as_fields(read_corpus(path, column))
    except PerceptronsError as exc:
        return str(exc)


@pytest.mark.data
@pytest.mark.parametrize("name", [pytest.param("train", marks=pytest.mark.slow), "dev", "test"])
@pytest.mark.parametrize("column", ["upos", "xpos"])
def test_ewt_numbered_as_the_lists_number_it(shared_data, name, column):
    path = shared_data("ud-english-ewt") / f"{name}.conllu"
    assert numbered(path, column) == from_reader(path, column)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(documents(), st.sampled_from(["upos", "xpos"]))
def test_fuzz_the_same_corpus_or_the_readers_error(data, column):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.conllu"
        path.write_bytes(data)
        assert numbered(path, column) == from_reader(path, column)


def test_missing_tags_get_the_readers_message(tmp_path):
    path = tmp_path / "t.conllu"
    path.write_text("1\ta\ta\tX\t_\t_\t0\tdep\t_\t_\n2\tb\tb\t_\t_\t_\t1\tdep\t_\t_\n")
    with pytest.raises(PerceptronsError, match=r"t\.conllu:2: the upos column is '_' on 1 of 2 tokens"):
        read_corpus(path)
    with pytest.raises(PerceptronsError, match="the xpos column is empty"):
        read_corpus(path, "xpos")


# bytes that make and break UTF-8: ASCII, continuation bytes, lead bytes of 2, 3 and 4 bytes,
# overlong forms, surrogates, code points past U+10FFFF, bytes never valid
PIECES = [b"a", b"\n", b"\t", b"\x80", b"\xbf", b"\xc2", b"\xc3\xa9", b"\xe6\x97\xa5", b"\xf0\x9f\x98\x80"]
PIECES += [b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf5", b"\xff", b"\xe2"]


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_utf8_is_checked_as_decoding_checks_it(pieces):
    data = b"".join(pieces)
    try:
        data.decode("utf-8")
        expected = True
    except UnicodeDecodeError:
        expected = False
    try:
        _check_utf8(np.frombuffer(data, dtype=np.uint8))
        got = True
    except UnicodeDecodeError:
        got = False
    assert got == expected


@pytest.fixture(scope="module")
def ewt_dev(shared_data):
    return shared_data("ud-english-ewt") / "dev.conllu"


@pytest.mark.data
@pytest.mark.parametrize(
    "params",
    [{}, pytest.param({"edges": "l[-1],l[0]", "tag_dict": True, "tag_dict_min_count": 5}, marks=pytest.mark.slow)],
)
def test_a_fit_on_the_corpus_is_the_fit_on_the_lists(ewt_dev, params):
    sentences = read_conllu(ewt_dev, keep_lines=False)
    words, tags = [s.words for s in sentences], [s.tags for s in sentences]
    on_lists = Tagger(max_epochs=2, **params).fit(words, tags)
    on_corpus = Tagger(max_epochs=2, **params).fit(read_corpus(ewt_dev))
    assert on_corpus.features_.keys_.tolist() == on_lists.features_.keys_.tolist()
    assert on_corpus.tagdict_ == on_lists.tagdict_
    if params:
        assert on_lists.tagdict_  # the dictionary is exercised
    m, n = on_corpus.model_, on_lists.model_
    for name in ("coef_", "coef_trans_", "coef_edge_", "coef_init_", "coef_final_"):
        np.testing.assert_array_equal(getattr(m, name), getattr(n, name))
    assert on_corpus.predict(words[:50]) == on_lists.predict(words[:50])


@pytest.mark.data
def test_a_corpus_carries_its_tags(ewt_dev):
    corpus = read_corpus(ewt_dev)
    with pytest.raises(PerceptronsError, match="a Corpus carries its tags: pass tags=None"):
        Tagger(max_epochs=1).fit(corpus, corpus.tags())
    assert corpus.words()[0] == read_conllu(ewt_dev)[0].words
    assert corpus.tags()[-1] == read_conllu(ewt_dev)[-1].tags
    assert len(corpus) == len(read_conllu(ewt_dev))


def good():
    return {
        "types": ["a", "b", "c"],
        "tok": np.array([0, 1, 0, 2], dtype=np.int64),
        "lengths": np.array([3, 1], dtype=np.int64),
        "y": np.array(["X", "Y", "X", "Z"]),
    }


@pytest.mark.parametrize(
    "field, value, match",
    [
        ("types", ("a", "b", "c"), "types must be a list of str"),
        ("types", ["a", 2, "c"], "types must be a list of str"),
        ("types", ["a", "b", "a"], "types must be distinct words"),
        ("tok", [0, 1, 0, 2], "tok must be a 1-D int64 array"),
        ("tok", np.array([0, 1, 0, 2], dtype=np.int32), "tok must be a 1-D int64 array"),
        ("tok", np.array([[0, 1, 0, 2]], dtype=np.int64), "tok must be a 1-D int64 array"),
        ("tok", np.array([0, 1, 0, 3], dtype=np.int64), r"tok must index Corpus.types: values in \[0, 3\)"),
        ("tok", np.array([0, -1, 0, 2], dtype=np.int64), "tok must index Corpus.types"),
        ("lengths", np.array([3, 2], dtype=np.int64), "lengths must be counts that sum to the 4 tokens"),
        ("lengths", np.array([5, -1], dtype=np.int64), "lengths must be counts"),
        ("lengths", np.array([4.0]), "lengths must be a 1-D int64 array"),
        ("y", np.array(["X", "Y", "X"]), "y must be an array of 4 tags"),
        ("y", ["X", "Y", "X", "Z"], "y must be an array of 4 tags"),
    ],
)
def test_every_field_of_a_corpus_is_checked(field, value, match):
    Corpus(**good())  # the fields as given are fine
    with pytest.raises(PerceptronsError, match=match):
        Corpus(**{**good(), field: value})
    # and again by a fit, for a field changed after the corpus was made
    corpus = Corpus(**good())
    setattr(corpus, field, value)
    with pytest.raises(PerceptronsError, match=match):
        Tagger(max_epochs=1).fit(corpus)


@pytest.mark.data
def test_a_word_number_changed_in_place_is_refused_before_the_features(ewt_dev):
    corpus = read_corpus(ewt_dev)
    corpus.tok[5] = len(corpus.types) + 10**6  # would index past the words' table
    with pytest.raises(PerceptronsError, match="tok must index Corpus.types"):
        Tagger(max_epochs=1).fit(corpus)
