"""The compiled fit of the tagging feature dictionary (``fit_transform``) against the numpy path
of the incremental fit: the same vocabulary, keys, template cuts and matrix, on EWT and on
small corpora with the edge cases (empty sentences, one-word sentences, every min_count).  And
the compiled numbering and lookup of word attributes against the Python loops they replace."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons.io.conllu import read_conllu
from perceptrons.structured.features import FeatureMap
from perceptrons.structured.words import ATTRIBUTES, attribute_table, corpus_types, word_attributes


def numpy_fit(sentences, templates, min_count, rare_count):
    """The dictionary and matrix by the incremental fit in one chunk (its numpy path)."""
    fm = FeatureMap(templates, min_count, rare_count).begin_fit()
    tok, types, lengths = corpus_types(sentences)
    fm.add_types(tok, types).end_types().add_keys(tok, types, lengths).end_keys()
    return fm, fm.transform_types(tok, types, lengths)[0]


def assert_same_fit(sentences, templates, min_count, rare_count):
    fm = FeatureMap(templates, min_count, rare_count)
    X, lengths = fm.fit_transform(sentences)
    ref, X_ref = numpy_fit(sentences, templates, min_count, rare_count)
    assert list(fm.vocab_) == list(ref.vocab_)
    for name in ("keys_", "ptr_", "type_table_", "type_counts_"):
        assert np.array_equal(getattr(fm, name), getattr(ref, name)), name
    assert X.shape == X_ref.shape and X.dtype == np.float64 and np.all(X.data == 1)
    assert np.array_equal(X.indptr, X_ref.indptr) and np.array_equal(X.indices, X_ref.indices)
    assert lengths.tolist() == [len(s) for s in sentences]


@pytest.mark.data
@pytest.mark.parametrize(
    ("templates", "min_count", "rare_count"), [("rich", 2, 0), ("rich", 1, 3), ("basic", 3, 0), ("rich", 0, 2)]
)
def test_ewt_dev_same_dictionary_and_matrix(shared_data, templates, min_count, rare_count):
    sentences = [s.words for s in read_conllu(shared_data("ud-english-ewt") / "dev.conllu", keep_lines=False)]
    assert_same_fit(sentences, templates, min_count, rare_count)


WORDS = st.sampled_from(["a", "A", "b", "the", "The", "run-on", "42", "x1", "zz", "Ünï", "é", "", " "])


@settings(max_examples=60, deadline=None)
@given(
    sentences=st.lists(st.lists(WORDS, min_size=0, max_size=6), min_size=1, max_size=12).filter(
        lambda s: any(s)  # at least one token
    ),
    templates=st.sampled_from(["basic", "rich", "l[-2]|l[2],s3[0],w[1]"]),
    min_count=st.integers(0, 3),
    rare_count=st.integers(0, 3),
)
def test_small_corpora_same_dictionary_and_matrix(sentences, templates, min_count, rare_count):
    assert_same_fit(sentences, templates, min_count, rare_count)


def numbered_in_python(types):
    """The Python loop the compiled numbering replaces: ids by first appearance from 2."""
    vocab = {}
    ids = [[-1 if s is None else 2 + vocab.setdefault(s, len(vocab)) for s in word_attributes(w)] for w in types]
    return np.array(ids, dtype=np.int64).reshape(len(types), len(ATTRIBUTES)), list(vocab)


@pytest.mark.data
def test_attribute_table_on_ewt_words(shared_data):
    sentences = [s.words for s in read_conllu(shared_data("ud-english-ewt") / "train.conllu", keep_lines=False)]
    types = corpus_types(sentences)[1]
    assert any(not w.isascii() for w in types)  # with and without Python's lower case
    ids, strings = attribute_table(types, 2)
    expected_ids, expected_strings = numbered_in_python(types)
    assert strings == expected_strings and np.array_equal(ids, expected_ids)


# every byte class the pass treats apart: case, digits, hyphen, newline runs, other ASCII, and
# characters beyond ASCII of 2, 3 and 4 bytes, whose lower case, shape and flags Python gives: one
# whose lower case is longer (İ), a title case (ǅ), a final sigma (Σ lowers by context), digits
# that are not ASCII (１, ٣, and ² which isdigit but is no decimal), a combining accent, a
# ligature, a lone surrogate; in words of 0 to 20 characters
CHARS = st.sampled_from(
    list("aAzZ09-\n\t ~._XxdD")
    + ["\x00", "\x7f", "é", "Ü", "ß", "İ", "ǅ", "Σ", "ж", "Ж", "１", "٣", "²", "\u0301", "ﬁ", "😀", "\ud800"]
    + ["中", "क", "\u093f", "ـ"]  # a letter without case, a script with spacing marks, a modifier letter
)


@settings(max_examples=300, deadline=None)
@given(types=st.lists(st.text(CHARS, min_size=0, max_size=20), min_size=1, max_size=30, unique=True))
def test_attribute_table_equals_python(types):
    ids, strings = attribute_table(types, 2)
    expected_ids, expected_strings = numbered_in_python(types)
    assert strings == expected_strings
    assert np.array_equal(ids, expected_ids)


def looked_up_in_python(fm, types):
    """What the compiled lookup replaces: the "w=" string names the row, and an unseen word's
    attribute strings are looked up in the vocabulary dict one by one."""
    get = fm.vocab_.get
    row_of = {int(v): r for r, v in enumerate(fm.type_table_[:, 0])}  # a training word's "w=" id
    rows = np.array([row_of.get(get("w=" + w, -1), -1) for w in types], dtype=np.int64)
    unseen = [[get(a, -1) for a in word_attributes(w)] for w, r in zip(types, rows.tolist()) if r < 0]
    return rows, np.array(unseen, dtype=np.int64).reshape(-1, len(ATTRIBUTES))


@pytest.mark.data
def test_lookup_on_ewt_test_words(shared_data):
    ewt = shared_data("ud-english-ewt")
    fm = FeatureMap("rich", 2)
    fm.fit_transform([s.words for s in read_conllu(ewt / "dev.conllu", keep_lines=False)])
    types = corpus_types([s.words for s in read_conllu(ewt / "test.conllu", keep_lines=False)])[1]
    rows, unseen = fm._lookup(types)
    expected_rows, expected_unseen = looked_up_in_python(fm, types)
    assert np.array_equal(rows, expected_rows) and np.array_equal(unseen, expected_unseen)
    assert (rows >= 0).any() and (rows < 0).any() and any(not w.isascii() for w in types)


@settings(max_examples=200, deadline=None)
@given(
    train=st.lists(st.text(CHARS, min_size=0, max_size=14), min_size=1, max_size=25),
    new=st.lists(st.text(CHARS, min_size=0, max_size=14), min_size=1, max_size=25, unique=True),
)
def test_lookup_equals_python(train, new):
    fm = FeatureMap("rich", 1)
    fm.fit_transform([train])
    fm._compiled_lookup_from = 0  # the compiled pass, however few the words
    rows, unseen = fm._lookup(new)
    expected_rows, expected_unseen = looked_up_in_python(fm, new)
    assert np.array_equal(rows, expected_rows) and np.array_equal(unseen, expected_unseen)


def test_attribute_table_grows_its_room():
    # ~8 distinct strings a word, past the room first given (4 a word): the pass asks for more
    rng = np.random.default_rng(0)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"))
    types = list(dict.fromkeys("".join(rng.choice(letters, size=int(rng.integers(1, 16)))) for _ in range(2000)))
    ids, strings = attribute_table(types, 2)
    expected_ids, expected_strings = numbered_in_python(types)
    assert len(strings) > 4 * len(types) + 64
    assert strings == expected_strings and np.array_equal(ids, expected_ids)


@pytest.mark.parametrize("room", [1, 30, 200])
def test_attribute_table_goes_on_after_each_lack_of_room(room):
    """From a room of 1 string the pass stops and goes on many times: the strings so far hashed
    again into each larger table, the words numbered as one pass numbers them."""
    types = ["The", "cat", "Ünïcode", "ЖУК", "жук", "x-1", "", "İstanbul", "σοφός", "ΣΟΦΟΣ", "12²"] * 3
    types = list(dict.fromkeys(types + [f"w{i}ord" for i in range(60)]))
    ids, strings = attribute_table(types, 2, room=room)
    expected_ids, expected_strings = numbered_in_python(types)
    assert strings == expected_strings and np.array_equal(ids, expected_ids)
