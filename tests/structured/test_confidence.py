"""Tag probabilities (forward-backward marginals, greedy softmax) against enumeration in
tests/reference.py, through the kernels, the sequence model and the tagger."""

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons._core.errors import PerceptronsError
from perceptrons._jit import confidence as K
from perceptrons._jit import decode as D
from perceptrons.structured.decoders import greedy, marginals, viterbi
from perceptrons.structured.sequence import SequencePerceptron

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
_NO_TRANS2 = np.zeros((0, 0, 0))


@st.composite
def chains(draw):
    """Score tables of a small chain: per-position transitions or not, a second order or not,
    integers (ties) or reals at any scale, forced tokens (−inf on every other tag), and
    transitions not allowed (−inf)."""
    T = draw(st.integers(1, 4))
    n = draw(st.integers(1, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([1.0, 30.0, 1e3]))  # large scores: exp would overflow unshifted
    per_position = draw(st.booleans())
    second = draw(st.booleans())
    emit = rng.normal(size=(n, T)) * scale
    if draw(st.booleans()):
        emit = np.round(emit)
    for i in np.flatnonzero(rng.random(n) < 0.3):
        keep = rng.integers(T)
        emit[i, np.arange(T) != keep] = -np.inf
    trans = rng.normal(size=(n if per_position else 1, T, T)) * scale
    trans2 = rng.normal(size=(T, T, T)) * scale if second else _NO_TRANS2
    if not per_position and not np.isinf(emit).any() and draw(st.booleans()):
        # transitions not allowed (−inf); a tag may always follow itself, whatever came before,
        # so that every path the greedy decoder starts can go on, and Viterbi's has a finite score
        same = np.eye(T, dtype=bool)
        trans[0][(rng.random((T, T)) < 0.4) & ~same] = -np.inf
        if second:
            trans2[(rng.random((T, T, T)) < 0.4) & ~same[None, :, :]] = -np.inf
    return emit, trans, per_position, trans2, rng.normal(size=T), rng.normal(size=T)


def _oracle_args(emit, trans, per_position, trans2, start, stop):
    return (
        emit.tolist(),
        (trans if per_position else trans[0]).tolist(),
        start.tolist(),
        stop.tolist(),
        per_position,
        trans2.tolist() if trans2.shape[0] else None,
    )


def _kernel_marginals(emit, trans, per_position, trans2, start, stop, tabled=True):
    n, T = emit.shape
    out = np.full((n, T), np.nan)
    if trans2.shape[0]:
        tables = K.pair_tables(trans2, K.PAIR_TABLE_BYTES if tabled else 0)
        assert (tables[0].shape[0] > 0) == tabled
        buffers = np.empty((n, T, T)), np.empty((n, T, T))
        K.marginals2(emit, n, trans, per_position, trans2, tables, start, stop, *buffers, out)
    else:
        steps = K.step_scratch(T)
        if not per_position:
            K.step_tables(trans[0], steps)
        K.marginals(emit, n, trans, per_position, steps, start, stop, np.empty((n, T)), np.empty((n, T)), out)
    return out


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(chains(), st.booleans())
def test_marginals_equal_enumeration(c, tabled):
    """Second order: with the tables of exp(trans2), and with an exponential per tag triple."""
    got = _kernel_marginals(*c, tabled=tabled)
    want = np.array(ref.brute_force_marginals(*_oracle_args(*c)))
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-12)
    assert (got <= 1).all()
    forced = np.isinf(c[0]).any(axis=1)
    assert (got[forced].max(axis=1) == 1).all()


@settings(max_examples=200, deadline=None)
@given(chains())
def test_greedy_confidence_equals_softmax_of_its_scores(c):
    emit, trans, per_position, trans2, start, stop = c
    n, T = emit.shape
    path = np.empty(n, dtype=np.int64)
    D.greedy(emit, n, trans, per_position, trans2, start, stop, path)
    out = np.empty((n, T))
    K.greedy_confidence(emit, n, trans, per_position, trans2, start, stop, path, out)
    args = _oracle_args(*c)
    want = ref.greedy_confidences(*args[:4], path.tolist(), *args[4:])
    np.testing.assert_allclose(out, want, rtol=1e-9, atol=1e-12)
    # the chosen tag is the most probable one of its own softmax
    assert (out[np.arange(n), path] == out.max(axis=1)).all()


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(chains(), st.sampled_from([D.VITERBI, D.GREEDY]), st.integers(1, 3))
def test_confidences_read_the_decoded_paths(c, decoder, n_seq):
    """Over a corpus of copies of the chain (lexicalised transitions as edge features): each
    token's confidence is its decoded tag's probability, enumerated."""
    emit, trans, per_position, trans2, start, stop = c
    n, T = emit.shape
    path = np.empty(n, dtype=np.int64)
    buffers = np.empty((n, T)), np.zeros((n, T), np.int32), np.empty((n, T, T)), np.zeros((n, T, T), np.int32)
    D.decode_one(decoder, emit, n, trans, per_position, trans2, start, stop, (*buffers, path), np.empty(0))
    # per-position transitions τᵢ = trans[0] + E[i] through one edge feature per token
    E = trans - trans[0] if per_position else np.zeros((0, T, T))
    Xe = (np.tile(np.arange(n, dtype=np.int32), n_seq), np.arange(n * n_seq + 1, dtype=np.int64))
    conf = np.full(n * n_seq, np.nan)
    K.confidences(
        np.tile(emit, (n_seq, 1)),
        Xe,
        np.arange(n_seq + 1, dtype=np.int64) * n,
        np.ascontiguousarray(trans[0]),
        E,
        trans2,
        start,
        stop,
        K.pair_tables(trans2) if decoder == D.VITERBI and trans2.shape[0] else None,
        np.tile(path, n_seq) if decoder == D.GREEDY else None,
        np.tile(path, n_seq),
        conf,
    )
    args = _oracle_args(*c)
    if decoder == D.VITERBI:
        probs = np.array(ref.brute_force_marginals(*args))
    else:
        probs = np.array(ref.greedy_confidences(*args[:4], path.tolist(), *args[4:]))
    np.testing.assert_allclose(conf, np.tile(probs[np.arange(n), path], n_seq), rtol=1e-9, atol=1e-12)
    assert ((conf > 0) & (conf <= 1)).all()


def test_public_marginals():
    emit = np.array([[1.0, 0.0], [0.0, 1.0], [0.2, 0.0]])
    trans = np.array([[0.0, -2.0], [0.5, 0.0]])
    z = np.zeros(2)
    p = marginals(emit, trans, z, z)
    np.testing.assert_allclose(p, ref.brute_force_marginals(emit.tolist(), trans.tolist(), [0, 0], [0, 0]))
    # the Viterbi path's tags are not always the marginals' argmax, but here they are
    assert p.argmax(axis=1).tolist() == viterbi(emit, trans, z, z)[1].tolist()
    trans2 = np.arange(8.0).reshape(2, 2, 2) / 8
    p2 = marginals(emit, trans, z, z, trans2=trans2)
    np.testing.assert_allclose(
        p2, ref.brute_force_marginals(emit.tolist(), trans.tolist(), [0, 0], [0, 0], trans2=trans2.tolist())
    )
    with pytest.raises(PerceptronsError, match="decoder tables"):
        marginals(emit, trans[:1], z, z)
    assert greedy(emit, trans, z, z)[1].shape == (3,)


@pytest.mark.parametrize("order", [1, 2])
def test_no_allowed_sequence_gives_every_tag_the_same_probability(order):
    """Every transition −inf: no sequence of two tokens or more has a finite score, so log Z
    is −inf.  Each tag then gets 1/T, for the marginals and for the greedy softmax (it was nan)."""
    emit = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 0.0]])
    z = np.zeros(3)
    closed = np.full((3, 3), -np.inf)
    trans, trans2 = (closed, None) if order == 1 else (np.zeros((3, 3)), np.full((3, 3, 3), -np.inf))
    emit3 = np.vstack([emit, emit[:1]]) if order == 2 else emit  # trans2 applies from the third token
    p = marginals(emit3, trans, z, z, trans2=trans2)
    np.testing.assert_array_equal(p, np.full(p.shape, 1 / 3))
    n = emit.shape[0]
    path, out = np.empty(n, dtype=np.int64), np.full((n, 3), np.nan)
    D.greedy(emit, n, closed[None], False, np.zeros((0, 3, 3)), z, z, path)
    K.greedy_confidence(emit, n, closed[None], False, np.zeros((0, 3, 3)), z, z, path, out)
    # the first token's choice is free (start scores are finite); the second has none
    np.testing.assert_allclose(out[0], np.exp(emit[0]) / np.exp(emit[0]).sum())
    np.testing.assert_array_equal(out[1], np.full(3, 1 / 3))


# ----------------------------------------------------------------------------- the sequence model
def _fitted(decoder, markov_order, seed=0):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 6, size=30)
    X = (rng.random((lengths.sum(), 6)) < 0.4).astype(float)
    y = rng.integers(0, 3, size=lengths.sum())
    clf = SequencePerceptron(decoder=decoder, markov_order=markov_order, max_epochs=3, random_state=0)
    return clf.fit(X, y, lengths), X, lengths


@pytest.mark.slow
@pytest.mark.parametrize("decoder", ["viterbi", "greedy"])
@pytest.mark.parametrize("markov_order", [1, 2])
def test_sequence_model_confidences_equal_enumeration(decoder, markov_order):
    clf, X, lengths = _fitted(decoder, markov_order)
    tags, conf = clf.predict(X, lengths, return_conf=True)
    assert (tags == clf.predict(X, lengths)).all()
    tags2, conf2 = clf.predict_from_scores(X @ clf.emission_weights(), lengths, return_conf=True)
    assert (tags2 == tags).all() and np.allclose(conf2, conf, rtol=1e-12)
    emit_all = X @ clf.emission_weights()
    trans2 = clf.coef_trans2_.tolist() if markov_order == 2 else None
    lo = 0
    for n in lengths.tolist():
        emit = emit_all[lo : lo + n].tolist()
        args = (clf.coef_trans_.tolist(), clf.coef_init_.tolist(), clf.coef_final_.tolist())
        path = np.searchsorted(clf.classes_, tags[lo : lo + n]).tolist()
        if decoder == "viterbi":
            probs = ref.brute_force_marginals(emit, *args, trans2=trans2)
        else:
            probs = ref.greedy_confidences(emit, *args, path, trans2=trans2)
        want = [probs[i][t] for i, t in enumerate(path)]
        np.testing.assert_allclose(conf[lo : lo + n], want, rtol=1e-9, atol=1e-12)
        lo += n


def test_sequence_model_return_conf_must_be_a_bool():
    clf, X, lengths = _fitted("viterbi", 1)
    with pytest.raises(PerceptronsError, match="The 'return_conf' parameter must be a bool. Got 'yes' instead."):
        clf.predict(X, lengths, return_conf="yes")


@pytest.mark.parametrize("decoder", ["viterbi", "greedy"])
def test_forced_tokens_are_certain_and_move_their_neighbours(decoder):
    clf, X, lengths = _fitted(decoder, 1)
    forced = np.where(np.arange(X.shape[0]) % 3 == 0, clf.classes_[2], -1)
    tags, conf = clf.predict(X, lengths, forced=forced, return_conf=True)
    assert (tags == clf.predict(X, lengths, forced=forced)).all()
    assert (tags[forced >= 0] == clf.classes_[2]).all() and (conf[forced >= 0] == 1).all()
    free_tags, free_conf = clf.predict(X, lengths, return_conf=True)
    assert not np.allclose(conf[forced < 0], free_conf[forced < 0])


def test_confidences_of_tags_decoded_elsewhere():
    clf, X, lengths = _fitted("viterbi", 1)
    scores = X @ clf.emission_weights()
    tags, conf = clf.predict_from_scores(scores, lengths, return_conf=True)
    assert clf.confidences_from_scores(scores, lengths, tags).tolist() == conf.tolist()
    assert clf.confidences_from_scores(scores, lengths, list(tags)).tolist() == conf.tolist()
    for bad in (tags[:-1], np.where(np.arange(len(tags)) == 3, 7, tags), ["x"] * len(tags)):
        with pytest.raises(PerceptronsError, match=f"tags must be {len(tags)} tags from classes_"):
            clf.confidences_from_scores(scores, lengths, bad)
