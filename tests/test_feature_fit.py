"""The compiled fit of the tagging feature dictionary (``fit_transform``) against the numpy path
of the incremental fit: the same vocabulary, keys, template cuts and matrix, on EWT and on
small corpora with the edge cases (empty sentences, one-word sentences, every min_count)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons.io.conllu import read_conllu
from perceptrons.structured.features import FeatureMap
from perceptrons.structured.words import corpus_types


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


@pytest.mark.parametrize(
    ("templates", "min_count", "rare_count"), [("rich", 2, 0), ("rich", 1, 3), ("basic", 3, 0), ("rich", 0, 2)]
)
def test_ewt_dev_same_dictionary_and_matrix(data_dir, templates, min_count, rare_count):
    sentences = [s.words for s in read_conllu(data_dir / "ud-english-ewt" / "dev.conllu", keep_lines=False)]
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
