"""SequencePerceptron and its kernels against the pure-Python oracles of tests/reference.py."""

import numpy as np
import pytest
import reference as ref
import scipy.sparse as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptrons import load_model, save_model
from perceptrons._core.errors import PerceptronsError
from perceptrons._jit.decode import SORT_AFTER, column_maxima
from perceptrons.structured.decoders import REGISTRY, greedy, viterbi
from perceptrons.structured.sequence import SequencePerceptron

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


# ----------------------------------------------------------------------------- decoders
@st.composite
def problems(draw):
    T = draw(st.integers(1, 4))
    n = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, T)), rng.normal(size=(T, T)), rng.normal(size=T), rng.normal(size=T)


@settings(max_examples=150, deadline=None)
@given(problems())
def test_viterbi_equals_brute_force(p):
    emit, trans, start, stop = p
    score, path = viterbi(emit, trans, start, stop)
    best, best_path = ref.brute_force_decode(emit.tolist(), trans.tolist(), start.tolist(), stop.tolist())
    assert score == best
    assert path.tolist() == best_path


@settings(max_examples=100, deadline=None)
@given(problems(), st.integers(-2, 2))
def test_viterbi_ties_on_integer_scores(p, shift):
    # integer tables make ties common: the lowest-index tie rule must match the oracle exactly
    emit, trans, start, stop = (np.round(a) + shift for a in p)
    score, path = viterbi(emit, trans, start, stop)
    best, best_path = ref.brute_force_decode(emit.tolist(), trans.tolist(), start.tolist(), stop.tolist())
    assert score == best and path.tolist() == best_path


@st.composite
def tables(draw, tags=(1, 20)):
    """Emissions, transitions, start and stop of ``tags`` (a range) tags: integers (ties
    everywhere), or reals spread like a trained tagger's; −inf where a token is forced or a
    transition barred, and now and then NaN."""
    T, n = draw(st.integers(*tags)), draw(st.integers(1, 30))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        emit, trans = rng.integers(-3, 4, (n, T)).astype(float), rng.integers(-3, 4, (T, T)).astype(float)
    else:
        emit, trans = rng.normal(0, 100, (n, T)), rng.normal(0, 10, (T, T))
    for a, p in ((emit, draw(st.sampled_from([0, 0.3, 1]))), (trans, draw(st.sampled_from([0, 0.1, 1])))):
        a[rng.random(a.shape) < p] = -np.inf
    for a in (emit, trans):  # NaN never wins a search: the bound must not let one win either
        a[rng.random(a.shape) < draw(st.sampled_from([0, 0, 0.05]))] = np.nan
    return emit, trans, rng.normal(size=T), rng.normal(size=T)


@settings(max_examples=300, deadline=None)
@given(st.one_of(tables(), tables((2 * SORT_AFTER, 2 * SORT_AFTER + 60))))
def test_viterbi_bounded_steps_equal_the_full_search(p):
    # one transition matrix takes the bounded steps (after SORT_AFTER searches at a position,
    # searches that visit the predecessors best first and stop early), the same matrix given per position the
    # full search at every (i, t): every prefix score and back-pointer must be the same, bit for bit
    from perceptrons._jit.decode import viterbi as kernel

    emit, trans, start, stop = p
    n, T = emit.shape
    # a bound looser than the column maxima (what training keeps between updates) is exact too
    looser = column_maxima(trans) + np.random.default_rng(T).uniform(0, 3, T)
    runs = []
    for tr, per_position, top in (
        (trans[None], False, np.empty(0)),
        (trans[None], False, looser),
        (np.repeat(trans[None], n, axis=0), True, np.empty(0)),
    ):
        delta, bp, path = np.full((n, T), np.nan), np.full((n, T), -1, np.int32), np.empty(n, np.int64)
        score = kernel(emit, n, tr, per_position, start, stop, delta, bp, path, top)
        runs.append((score, delta, bp, path))
    for s1, d1, b1, p1 in runs[:2]:
        s2, d2, b2, p2 = runs[2]
        assert s1 == s2 or (np.isnan(s1) and np.isnan(s2))
        np.testing.assert_array_equal(d1, d2)
        np.testing.assert_array_equal(b1[1:], b2[1:])
        np.testing.assert_array_equal(p1, p2)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, 3.0, np.inf, -np.inf, np.nan]) | st.floats(), max_size=80))
def test_best_first_orders_as_numpy_does(values):
    """The bounded step's order of predecessors: values from the largest, NaN last, as
    ``np.argsort(-v)`` would give them (among equal values, any order)."""
    from perceptrons._jit.decode import _best_first

    v = np.array(values, dtype=np.float64)
    order = _best_first(v)
    assert sorted(order.tolist()) == list(range(v.shape[0]))
    np.testing.assert_array_equal(v[order], v[np.argsort(-v, kind="stable")])


@settings(max_examples=100, deadline=None)
@given(problems())
def test_greedy_equals_reference(p):
    emit, trans, start, stop = p
    score, path = greedy(emit, trans, start, stop)
    assert path.tolist() == ref.greedy_decode(emit.tolist(), trans.tolist(), start.tolist(), stop.tolist())
    assert score == pytest.approx(
        ref.sequence_score(emit.tolist(), trans.tolist(), start.tolist(), stop.tolist(), path.tolist())
    )


def test_viterbi_known_answer():
    # "time flies" style fixture: emissions prefer N N, the transitions make N V the best pair
    emit = np.array([[2.0, 1.0, 0.0], [1.5, 1.4, 0.0], [0.0, 0.0, 1.0]])  # tags N, V, D
    trans = np.array([[-1.0, 1.0, 0.0], [0.0, -2.0, 0.5], [1.0, 0.0, -1.0]])
    start, stop = np.array([0.5, 0.0, 0.0]), np.array([0.0, 0.0, 0.2])
    score, path = viterbi(emit, trans, start, stop)
    assert path.tolist() == [0, 1, 2]  # N V D
    assert score == pytest.approx(0.5 + 2.0 + 1.0 + 1.4 + 0.5 + 1.0 + 0.2)
    assert greedy(emit, trans, start, stop)[1].tolist() == [0, 1, 2]


def test_greedy_is_not_exact():
    emit = np.array([[1.0, 0.9], [0.0, 0.0]])
    trans = np.array([[-5.0, -5.0], [0.0, 0.0]])
    z = np.zeros(2)
    assert greedy(emit, trans, z, z)[1].tolist() == [0, 0]
    assert viterbi(emit, trans, z, z)[1].tolist() == [1, 0]


def test_decoder_registry_and_bad_tables():
    assert set(REGISTRY) == {"viterbi", "greedy"}
    with pytest.raises(PerceptronsError, match="decoder tables"):
        viterbi(np.zeros((0, 2)), np.zeros((2, 2)), np.zeros(2), np.zeros(2))


# ----------------------------------------------------------------------------- training oracle
def tiny_corpus(seed=0, n_seq=8, n_features=6, n_tags=3):
    rng = np.random.default_rng(seed)
    seqs, rows, tags, lengths = [], [], [], []
    for _ in range(n_seq):
        n = int(rng.integers(1, 6))
        toks = []
        y = rng.integers(0, n_tags, size=n).tolist()
        for t in y:
            feats = {int(f): 1.0 for f in rng.choice(n_features, size=2, replace=False)}
            feats[t] = 1.0  # make the tag partly predictable
            toks.append(feats)
            row = np.zeros(n_features)
            row[list(feats)] = 1.0
            rows.append(row)
        seqs.append((toks, y))
        tags += y
        lengths.append(n)
    return seqs, sp.csr_matrix(np.array(rows)), np.array(tags), np.array(lengths)


@pytest.mark.parametrize("decoder", ["viterbi", "greedy"])
@pytest.mark.parametrize("shuffle", [False, True])
def test_training_equals_oracle(decoder, shuffle):
    seqs, X, y, lengths = tiny_corpus()
    clf = SequencePerceptron(decoder=decoder, max_epochs=2, shuffle=shuffle, random_state=3)
    clf.fit(X, y, lengths)
    rng = np.random.default_rng(3)
    orders = [rng.permutation(len(seqs)).tolist() for _ in range(2)] if shuffle else None
    (W, trans, start, stop, _, _), mean = ref.structured_perceptron(seqs, X.shape[1], 3, 2, orders, decoder)
    s = clf._state
    assert s.W.tolist() == W
    assert s.trans.tolist() == trans
    assert s.start.tolist() == start and s.stop.tolist() == stop
    # lazy average == explicit mean of the weights after every sequence visit
    np.testing.assert_allclose(clf.coef_.T, mean[0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(clf.coef_trans_, mean[1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(clf.coef_init_, mean[2], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(clf.coef_final_, mean[3], rtol=1e-12, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4))
def test_lazy_average_is_mean_of_iterates(seed, epochs):
    seqs, X, y, lengths = tiny_corpus(seed, n_seq=5, n_features=4, n_tags=2)
    assume(len(np.unique(y)) == 2)  # the estimator only knows the tags it has seen
    clf = SequencePerceptron(max_epochs=epochs).fit(X, y, lengths)
    _, mean = ref.structured_perceptron(seqs, X.shape[1], 2, clf.n_epochs_)
    np.testing.assert_allclose(clf.coef_.T, mean[0], atol=1e-12)
    np.testing.assert_allclose(clf.coef_trans_, mean[1], atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([np.float32, np.float64]), st.sampled_from([0.0, 1.0, 3.0, 7.5]))
def test_nonzero_rows_in_single_precision_are_the_average_pruned_and_cast(seed, dtype, c):
    """The fused pass against numpy: W − U / c (W when c is 0) in float64, the rows with a
    non-zero kept, cast to float32."""
    from perceptrons._jit.structured import nonzero_rows32

    rng = np.random.default_rng(seed)
    d, T = int(rng.integers(0, 30)), int(rng.integers(1, 6))
    W = (rng.integers(-3, 4, size=(d, T)) * (rng.random((d, 1)) < 0.6)).astype(dtype)
    U = np.where(W != 0, rng.normal(size=(d, T)) * 7, 0.0)
    U[rng.random(d) < 0.2] = 0.0  # rows whose average is W's row
    if d:
        U[0] = W[0] * c  # a row whose average is exactly zero though W is not
    rows, n_kept, keep = nonzero_rows32(W, U, c)
    rows, keep = rows[:n_kept], keep.view(np.bool_)
    final = W - U / c if c else W.astype(np.float64)
    want = np.any(final != 0, axis=1)
    assert keep.tolist() == want.tolist()
    assert rows.dtype == np.float32 and rows.flags.c_contiguous
    np.testing.assert_array_equal(rows, final[want].astype(np.float32))


def with_edges(seqs, n_edge, seed):
    """Attach random binary edge features to each token of a tiny corpus."""
    rng = np.random.default_rng(seed)
    out, rows = [], []
    for toks, y in seqs:
        edges = [sorted(set(rng.integers(0, n_edge, size=int(rng.integers(0, 3))).tolist())) for _ in toks]
        out.append((toks, y, edges))
        for e in edges:
            row = np.zeros(n_edge)
            row[e] = 1.0
            rows.append(row)
    return out, sp.csr_matrix(np.array(rows))


@pytest.mark.slow
@pytest.mark.parametrize("decoder", ["viterbi", "greedy"])
def test_edge_features_equal_oracle(decoder):
    seqs, X, y, lengths = tiny_corpus(11)
    seqs, X_edge = with_edges(seqs, 3, 0)
    clf = SequencePerceptron(decoder=decoder, max_epochs=2).fit(X, y, lengths, X_edge=X_edge)
    (W, trans, start, stop, E, _), mean = ref.structured_perceptron(seqs, X.shape[1], 3, 2, None, decoder, n_edge=3)
    s = clf._state
    assert s.W.tolist() == W and s.trans.tolist() == trans and s.E.tolist() == E
    assert s.start.tolist() == start and s.stop.tolist() == stop
    np.testing.assert_allclose(clf.coef_edge_, mean[4], atol=1e-12)
    np.testing.assert_allclose(clf.coef_.T, mean[0], atol=1e-12)
    pred = clf.predict(X, lengths, X_edge=X_edge)
    assert pred.shape == y.shape
    with pytest.raises(PerceptronsError, match="pass X_edge"):
        clf.predict(X, lengths)
    with pytest.raises(PerceptronsError, match="X_edge has 2 columns"):
        clf.predict(X, lengths, X_edge=X_edge[:, :2])
    with pytest.raises(PerceptronsError, match="X_edge must be binary"):
        SequencePerceptron().fit(X, y, lengths, X_edge=X_edge * 2)


@settings(max_examples=60, deadline=None)
@given(problems(), st.integers(0, 2**32 - 1))
def test_viterbi_per_position_transitions_equal_brute_force(p, seed):
    from perceptrons._jit import decode as K

    emit, _, start, stop = p
    n, T = emit.shape
    tr = np.random.default_rng(seed).normal(size=(n, T, T))
    delta, bp, path = np.empty((n, T)), np.zeros((n, T), np.int32), np.empty(n, np.int64)
    score = K.viterbi(emit, n, tr, True, start, stop, delta, bp, path, np.empty(0))
    best, best_path = ref.brute_force_decode(
        emit.tolist(), tr.tolist(), start.tolist(), stop.tolist(), per_position=True
    )
    assert score == best and path.tolist() == best_path
    gpath = np.empty(n, np.int64)
    K.greedy(emit, n, tr, True, np.zeros((0, 0, 0)), start, stop, gpath)
    assert gpath.tolist() == ref.greedy_decode(
        emit.tolist(), tr.tolist(), start.tolist(), stop.tolist(), per_position=True
    )


@settings(max_examples=120, deadline=None)
@given(problems(), st.integers(0, 2**32 - 1), st.booleans())
def test_second_order_decoders_equal_oracle(p, seed, integer):
    emit, trans, start, stop = p
    T = emit.shape[1]
    trans2 = np.random.default_rng(seed).normal(size=(T, T, T))
    if integer:  # ties everywhere: the tie rule must match too
        emit, trans, start, stop, trans2 = (np.round(a) for a in (emit, trans, start, stop, trans2))
    args = (emit.tolist(), trans.tolist(), start.tolist(), stop.tolist())
    score, path = viterbi(emit, trans, start, stop, trans2=trans2)
    best, best_path = ref.brute_force_decode(*args, trans2=trans2.tolist())
    assert score == best and path.tolist() == best_path
    gscore, gpath = greedy(emit, trans, start, stop, trans2=trans2)
    assert gpath.tolist() == ref.greedy_decode(*args, trans2=trans2.tolist())


def test_second_order_known_answer():
    # first order alone prefers A A A; a strong triple weight on (A, B, A) makes A B A win
    emit = np.array([[1.0, 0.0], [1.0, 0.5], [1.0, 0.0]])
    trans, z = np.zeros((2, 2)), np.zeros(2)
    assert viterbi(emit, trans, z, z)[1].tolist() == [0, 0, 0]
    trans2 = np.zeros((2, 2, 2))
    trans2[0, 1, 0] = 1.0
    score, path = viterbi(emit, trans, z, z, trans2=trans2)
    assert path.tolist() == [0, 1, 0] and score == 3.5
    with pytest.raises(PerceptronsError, match="trans2 must have shape"):
        viterbi(emit, trans, z, z, trans2=np.zeros((2, 2)))


@pytest.mark.slow
@pytest.mark.parametrize("decoder", ["viterbi", "greedy"])
def test_second_order_training_equals_oracle(decoder):
    seqs, X, y, lengths = tiny_corpus(12, n_seq=10)
    seqs, X_edge = with_edges(seqs, 2, 1)
    clf = SequencePerceptron(decoder=decoder, max_epochs=2, markov_order=2).fit(X, y, lengths, X_edge=X_edge)
    (W, trans, start, stop, E, T2), mean = ref.structured_perceptron(
        seqs, X.shape[1], 3, 2, None, decoder, n_edge=2, second_order=True
    )
    s = clf._state
    assert s.W.tolist() == W and s.trans.tolist() == trans and s.trans2.tolist() == T2
    assert s.E.tolist() == E and s.start.tolist() == start and s.stop.tolist() == stop
    np.testing.assert_allclose(clf.coef_trans2_, mean[5], atol=1e-12)
    np.testing.assert_allclose(clf.coef_.T, mean[0], atol=1e-12)


def test_second_order_round_trip(tmp_path):
    _, X, y, lengths = tiny_corpus(13, n_seq=20)
    clf = SequencePerceptron(max_epochs=3, markov_order=2).fit(X, y, lengths)
    assert clf.coef_trans2_.shape == (3, 3, 3) and np.any(clf.coef_trans2_ != 0)
    save_model(clf, tmp_path / "m.npz")
    back = load_model(tmp_path / "m.npz")
    np.testing.assert_array_equal(back.coef_trans2_, clf.coef_trans2_)
    np.testing.assert_array_equal(back.predict(X, lengths), clf.predict(X, lengths))


def test_unaveraged_keeps_last_weights():
    seqs, X, y, lengths = tiny_corpus(1)
    clf = SequencePerceptron(max_epochs=2, averaged=False).fit(X, y, lengths)
    (W, trans, _, _, _, _), _ = ref.structured_perceptron(seqs, X.shape[1], 3, 2)
    assert clf.coef_.T.tolist() == W and clf.coef_trans_.tolist() == trans


def test_partial_fit_equals_fit_epochs():
    _, X, y, lengths = tiny_corpus(2)
    a = SequencePerceptron(max_epochs=3).fit(X, y, lengths)
    b = SequencePerceptron()
    for _ in range(3):
        b.partial_fit(X, y, lengths, classes=np.unique(y))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.coef_trans_, b.coef_trans_)
    assert b.n_epochs_ == 3


def test_partial_fit_needs_classes_and_known_tags():
    _, X, y, lengths = tiny_corpus(2)
    with pytest.raises(PerceptronsError, match="classes must be passed"):
        SequencePerceptron().partial_fit(X, y, lengths)
    clf = SequencePerceptron().partial_fit(X, y, lengths, classes=[0, 1, 2])
    with pytest.raises(PerceptronsError, match="not in classes"):
        clf.partial_fit(X, np.full_like(y, 7), lengths)


def test_separable_sequences_converge():
    X = sp.csr_matrix(np.eye(3)[[0, 1, 2, 0, 2, 1, 1]])
    y = np.array(["D", "N", "V", "D", "V", "N", "N"])
    clf = SequencePerceptron(max_epochs=20).fit(X, y, [3, 2, 2])
    assert clf.converged_ and clf.mistakes_per_epoch_[-1] == 0
    assert clf.predict(X, [3, 2, 2]).tolist() == y.tolist()


def test_forced_tags_are_obeyed():
    _, X, y, lengths = tiny_corpus(4)
    clf = SequencePerceptron(max_epochs=2).fit(X, y, lengths)
    forced = np.full(X.shape[0], -1)
    forced[::2] = 1
    pred = clf.predict(X, lengths, forced=forced)
    assert np.all(pred[::2] == 1)


def test_tagger_methods_equal_the_general_path():
    """What the Tagger calls — fit(assume_binary=True), emission_weights, forced_indices,
    predict_from_scores, to_single_precision — agrees with fit / predict on the same data."""
    seqs, X, y, lengths = tiny_corpus(12, n_seq=20)
    _, X_edge = with_edges(seqs, 3, 1)
    dseqs, Xd, yd, ld = tiny_corpus(13, n_seq=10)
    dev = {"X": Xd, "y": yd, "lengths": ld, "X_edge": with_edges(dseqs, 3, 2)[1]}
    a = SequencePerceptron(max_epochs=3).fit(X, y, lengths, X_edge=X_edge, dev=dev)
    b = SequencePerceptron(max_epochs=3).fit(X, y, lengths, X_edge=X_edge, dev=dev, assume_binary=True)
    for name in ("coef_", "coef_trans_", "coef_edge_", "coef_init_", "coef_final_"):
        np.testing.assert_array_equal(getattr(b, name), getattr(a, name))
    assert b.dev_scores_ == a.dev_scores_ and b.best_epoch_ == a.best_epoch_
    W = b.emission_weights()
    assert W.shape == (X.shape[1], 3) and W.flags.c_contiguous
    np.testing.assert_array_equal(W, b.coef_.T)
    forced = np.where(np.arange(X.shape[0]) % 3 == 0, 1, -1)  # -1 is not a tag: a free token
    idx = b.forced_indices(forced, X.shape[0])
    assert idx.dtype == np.int64 and idx.tolist() == forced.tolist()
    assert b.forced_indices(None, X.shape[0]).shape == (0,)
    with pytest.raises(PerceptronsError, match="one entry per token"):
        b.forced_indices(forced[:-1], X.shape[0])
    scores = np.asarray(X @ W)
    scores[idx >= 0] = -np.inf
    scores[idx >= 0, 1] = np.asarray(X @ W)[idx >= 0, 1]
    want = b.predict(X, lengths, X_edge=X_edge, forced=forced)
    assert np.all(want[idx >= 0] == 1)
    for trusted in (False, True):
        got = b.predict_from_scores(scores, lengths, X_edge, assume_binary=trusted)
        np.testing.assert_array_equal(got, want)
    b.to_single_precision()
    assert b.emission_weights().dtype == np.float32 and np.shares_memory(b.coef_, b.emission_weights())
    np.testing.assert_array_equal(b.emission_weights(), W.astype(np.float32))


def test_early_stopping_keeps_best_epoch():
    _, X, y, lengths = tiny_corpus(5, n_seq=30)
    _, Xd, yd, ld = tiny_corpus(6, n_seq=20)
    clf = SequencePerceptron(max_epochs=8, shuffle=True, random_state=0)
    clf.fit(X, y, lengths, dev=(Xd, yd, ld))
    assert len(clf.dev_scores_) == clf.n_epochs_
    assert clf.best_epoch_ == int(np.argmax(clf.dev_scores_)) + 1
    assert clf.score(Xd, yd, ld) == max(clf.dev_scores_)
    stopped = SequencePerceptron(max_epochs=50, shuffle=True, random_state=0, patience=1).fit(
        X, y, lengths, dev=(Xd, yd, ld)
    )
    assert stopped.n_epochs_ < 50 or stopped.converged_


def test_callback_can_stop():
    _, X, y, lengths = tiny_corpus(5, n_seq=30)
    seen = []
    clf = SequencePerceptron(max_epochs=10).fit(X, y, lengths, callback=lambda e, m, t: seen.append(e) or e < 2)
    assert seen == [1, 2] and clf.n_epochs_ == 2


def test_callback_reads_the_averaged_weights_of_each_epoch():
    # averaged weights are computed when first read: a callback that reads them gets those of the
    # epoch just run, and one that does not changes nothing
    _, X, y, lengths = tiny_corpus(5, n_seq=30)
    seen = {}
    clf = SequencePerceptron(max_epochs=4, shuffle=True, random_state=3)
    clf.fit(X, y, lengths, callback=lambda e, m, t: seen.update({e: clf.coef_.copy()}))
    for epoch in (1, 3):
        alone = SequencePerceptron(max_epochs=epoch, shuffle=True, random_state=3).fit(X, y, lengths)
        np.testing.assert_array_equal(seen[epoch], alone.coef_)
    quiet = SequencePerceptron(max_epochs=4, shuffle=True, random_state=3).fit(X, y, lengths, callback=lambda *a: None)
    np.testing.assert_array_equal(quiet.coef_, clf.coef_)
    np.testing.assert_array_equal(quiet.coef_trans_, clf.coef_trans_)


def test_same_seed_same_weights():
    _, X, y, lengths = tiny_corpus(7, n_seq=20)
    a = SequencePerceptron(shuffle=True, random_state=11, max_epochs=4).fit(X, y, lengths)
    b = SequencePerceptron(shuffle=True, random_state=11, max_epochs=4).fit(X, y, lengths)
    np.testing.assert_array_equal(a.coef_, b.coef_)


def test_int64_indices_and_dense_give_the_same_model():
    _, X, y, lengths = tiny_corpus(8)
    X64 = X.copy()
    X64.indices = X64.indices.astype(np.int64)
    X64.indptr = X64.indptr.astype(np.int64)
    a = SequencePerceptron(max_epochs=3).fit(X, y, lengths)
    b = SequencePerceptron(max_epochs=3).fit(X64, y, lengths)
    c = SequencePerceptron(max_epochs=3).fit(X.toarray(), y, lengths)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.coef_, c.coef_)


def test_lengths_none_is_one_sequence_per_row():
    _, X, y, _ = tiny_corpus(9)
    a = SequencePerceptron(max_epochs=3).fit(X, y)
    b = SequencePerceptron(max_epochs=3).fit(X, y, np.ones(X.shape[0], dtype=int))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.predict(X), b.predict(X, np.ones(X.shape[0], dtype=int)))


@pytest.mark.parametrize(
    "lengths, match", [([1, 2], "sum to 3"), ([-1, 100], "non-negative"), ([[1]], "1-d array"), ([1.5], "1-d array")]
)
def test_bad_lengths(lengths, match):
    _, X, y, _ = tiny_corpus(0)
    with pytest.raises(PerceptronsError, match=match):
        SequencePerceptron().fit(X, y, lengths)


@pytest.mark.parametrize(
    "lengths",
    [np.array([20, 2**64 - 8], dtype=np.uint64), np.array([2**63 - 1, 2**63 - 1, 14], dtype=np.int64)],
    ids=["uint64 wrapping", "int64 wrapping"],
)
def test_lengths_whose_sum_wraps_are_refused_before_any_row_is_read(lengths):
    """Their int64 sum wrapped round to X's row count: predict read past X (a segfault)."""
    X = np.random.default_rng(0).normal(size=(12, 3))
    y = np.array([0, 1, 2] * 4)
    model = SequencePerceptron(max_epochs=1).fit(X, y, lengths=[3, 3, 3, 3])
    for call in (lambda: model.predict(X, lengths=lengths), lambda: SequencePerceptron().fit(X, y, lengths)):
        with pytest.raises(PerceptronsError, match="but X has 12 rows"):
            call()


def test_bad_decoder_parameter():
    _, X, y, lengths = tiny_corpus(0)
    with pytest.raises(PerceptronsError, match="'decoder' parameter of SequencePerceptron"):
        SequencePerceptron(decoder="beam").fit(X, y, lengths)


def test_long_sequence_decodes():
    rng = np.random.default_rng(0)
    n = 12_000
    X = sp.csr_matrix((np.ones(n), rng.integers(0, 50, n), np.arange(n + 1)), shape=(n, 50))
    y = rng.integers(0, 5, n)
    clf = SequencePerceptron(max_epochs=1).fit(X, y, [n])
    assert clf.predict(X, [n]).shape == (n,)


def test_round_trip(tmp_path):
    _, X, y, lengths = tiny_corpus(10, n_seq=20)
    clf = SequencePerceptron(max_epochs=3, decoder="greedy").fit(X, y, lengths)
    save_model(clf, tmp_path / "m.npz")
    back = load_model(tmp_path / "m.npz")
    assert back.decoder == "greedy"
    np.testing.assert_array_equal(back.predict(X, lengths), clf.predict(X, lengths))
    np.testing.assert_array_equal(back.coef_, clf.coef_)
    back.partial_fit(X, y, lengths)  # continues from the stored weights
    assert back.n_epochs_ == 1


#: the checks that take more than a few seconds (marked slow by tests/conftest.py)
SLOW_CASES = {
    "test_sklearn_compatible[SequencePerceptron()-check_estimators_pickle(readonly_memmap=True)]",
    "test_sklearn_compatible[SequencePerceptron(markov_order=2)-check_estimators_pickle(readonly_memmap=True)]",
    "test_sklearn_compatible[SequencePerceptron(markov_order=2)-check_fit_score_takes_y]",
    "test_sklearn_compatible[SequencePerceptron(decoder='greedy',random_state=0,shuffle=True)-check_fit_score_takes_y]",
    "test_sklearn_compatible[SequencePerceptron(decoder='greedy',random_state=0,shuffle=True)"
    "-check_classifiers_train(readonly_memmap=True,X_dtype=float32)]",
}


@parametrize_with_checks(
    [
        SequencePerceptron(),
        SequencePerceptron(decoder="greedy", shuffle=True, random_state=0),
        SequencePerceptron(markov_order=2),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("markov_order", [1, 2])
def test_predict_equals_brute_force_with_final_weights(markov_order):
    seqs, X, y, lengths = tiny_corpus(14, n_seq=12)
    seqs, X_edge = with_edges(seqs, 2, 3)
    clf = SequencePerceptron(max_epochs=3, markov_order=markov_order).fit(X, y, lengths, X_edge=X_edge)
    pred = clf.predict(X, lengths, X_edge=X_edge)
    W, E = clf.coef_.T, clf.coef_edge_
    expected = []
    for toks, _, edges in seqs:
        emit = [[sum(v * W[f][t] for f, v in x.items()) for t in range(3)] for x in toks]
        per_pos = [(clf.coef_trans_ + sum((E[f] for f in e), np.zeros((3, 3)))).tolist() for e in edges]
        expected += ref.brute_force_decode(
            emit,
            per_pos,
            clf.coef_init_.tolist(),
            clf.coef_final_.tolist(),
            True,
            clf.coef_trans2_.tolist() if markov_order == 2 else None,
        )[1]
    assert pred.tolist() == clf.classes_[expected].tolist()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 2**40), unique=True, max_size=300), st.lists(st.integers(-1, 2**40), max_size=100))
def test_hash_table_equals_dict(keys, queries):
    from perceptrons._jit.features import hash_build, hash_lookup

    keys = np.array(keys, dtype=np.int64)
    values = np.arange(keys.shape[0], dtype=np.int64) * 7
    table = hash_build(keys, values, 1 << max(4, int(2 * keys.shape[0]).bit_length()))
    q = np.array(queries + keys[:20].tolist(), dtype=np.int64)
    out = np.empty(q.shape[0], dtype=np.int64)
    hash_lookup(table, q, out)
    d = dict(zip(keys.tolist(), values.tolist()))
    assert out.tolist() == [d.get(k, -1) if k >= 0 else -1 for k in q.tolist()]
