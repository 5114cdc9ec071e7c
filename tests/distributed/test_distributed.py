"""Iterative parameter mixing on a real Dask cluster of worker processes (perceptrons.distributed).

One LocalCluster of two single-threaded worker *processes* serves the module, so that every
shard, state and template really goes through pickling, as on a cluster.
"""

import os
import signal
import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from refusals import refusal_failure

from perceptrons import (
    AveragedPerceptron,
    KernelPerceptron,
    Perceptron,
    PocketPerceptron,
    SequencePerceptron,
    Tagger,
    VotedPerceptron,
    distributed,
)
from perceptrons._core.errors import PerceptronsError
from perceptrons.theory import novikoff_bound

pytest.importorskip("distributed")
from perceptrons.distributed._engine import connect  # noqa: E402

pytestmark = pytest.mark.cluster


@pytest.fixture(scope="module")
def client():
    with connect(n_workers=2) as c:  # the library's own LocalCluster: two single-threaded processes
        yield c


def _quiet_fit(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y)


def _quiet_ipm(est, X, y=None, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return distributed.fit(est, X, y, **kw)


def _data(kind, n_classes):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 12))
    y = np.argmax(X[:, :n_classes] + 0.3 * rng.normal(size=(600, n_classes)), axis=1)
    if kind == "dense32":
        return X.astype(np.float32), y
    if kind == "csr":
        X[np.abs(X) < 0.8] = 0
        return sp.csr_matrix(X), y
    if kind == "csr-binary":
        return sp.csr_matrix((np.abs(X) > 0.8).astype(np.float64)), y
    return X, y


# ---------------------------------------------------------------------- one shard = the serial fit
#: the cases that take more than a few seconds (marked slow by tests/conftest.py)
SLOW_CASES = {
    "test_one_shard_is_the_serial_fit_bit_for_bit[4-csr-binary-Perceptron]",
    "test_one_shard_is_the_serial_fit_bit_for_bit[4-csr-binary-AveragedPerceptron]",
}


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron])
@pytest.mark.parametrize("kind", ["dense", "dense32", "csr", "csr-binary"])
@pytest.mark.parametrize("n_classes", [2, 4])
def test_one_shard_is_the_serial_fit_bit_for_bit(client, cls, kind, n_classes):
    X, y = _data(kind, n_classes)
    serial = _quiet_fit(cls(max_epochs=4), X, y)
    ipm = _quiet_ipm(cls(max_epochs=4), X, y, shards=1, client=client)
    assert ipm.coef_.dtype == serial.coef_.dtype
    assert np.array_equal(ipm.coef_, serial.coef_)
    assert np.array_equal(ipm.intercept_, serial.intercept_)
    assert ipm.mistakes_per_epoch_ == serial.mistakes_per_epoch_
    assert ipm.n_updates_ == serial.n_updates_
    assert ipm.shard_mistakes_.shape == (4, 1)


@pytest.mark.data
def test_one_shard_tagger_is_the_serial_fit_bit_for_bit(client, shared_data):
    from perceptrons.io.conllu import read_conllu

    sents = read_conllu(shared_data("ud-english-ewt") / "dev.conllu")[:400]
    words, tags = [s.words for s in sents], [s.tags for s in sents]
    serial = Tagger(shuffle=False, max_epochs=3, tag_dict=True).fit(words, tags)
    ipm = distributed.fit_tagger(
        Tagger(shuffle=False, max_epochs=3, tag_dict=True), words, tags, shards=1, client=client
    )
    for a, b in [
        (serial.model_.coef_, ipm.model_.coef_),
        (serial.model_.coef_trans_, ipm.model_.coef_trans_),
        (serial.model_.coef_init_, ipm.model_.coef_init_),
        (serial.model_.coef_final_, ipm.model_.coef_final_),
    ]:
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert serial.model_.mistakes_per_epoch_ == ipm.model_.mistakes_per_epoch_
    assert serial.predict(words[:50]) == ipm.predict(words[:50])


@pytest.mark.slow
@pytest.mark.data
def test_a_tagger_on_a_corpus_is_the_tagger_on_its_lists(client, tmp_path, shared_data):
    """``fit_tagger`` on a Corpus (what ``tag train FILE --workers`` reads) makes the model it
    makes of the same sentences as lists, and the command makes it too."""
    from perceptrons import load_model
    from perceptrons.io.conllu import read_conllu
    from perceptrons.structured.corpus import Corpus

    sents = read_conllu(shared_data("ud-english-ewt") / "dev.conllu")[:300]
    path = tmp_path / "part.conllu"
    path.write_text("".join("\n".join(s.lines) + "\n\n" for s in sents))
    words, tags = [s.words for s in sents], [s.tags for s in sents]
    fits = [
        distributed.fit_tagger(Tagger(max_epochs=2), data, tags_arg, shards=2, client=client)
        for data, tags_arg in ((words, tags), (Corpus.from_lists(words, tags), None))
    ]
    r = _cli("tag", "train", str(path), "--epochs", "2", "--workers", "2", "-o", str(tmp_path / "m.npz"))
    assert r.returncode == 0, r.stderr
    assert "300 sentences" in r.stdout
    fits.append(load_model(tmp_path / "m.npz"))
    for got in fits[1:]:
        assert np.array_equal(got.model_.coef_trans_, fits[0].model_.coef_trans_)
        assert np.array_equal(got.model_.coef_, fits[0].model_.coef_)
        assert got.predict(words[:50]) == fits[0].predict(words[:50])


def test_one_shard_sequence_perceptron_is_the_serial_fit_bit_for_bit(client):
    from perceptrons import SequencePerceptron

    rng = np.random.default_rng(7)
    lengths = rng.integers(2, 7, size=60)
    n = int(lengths.sum())
    X = rng.normal(size=(n, 6))  # real values: float64 weights, as fit keeps them
    y = np.array(list("ABC"))[np.argmax(X[:, :3] + 0.5 * rng.normal(size=(n, 3)), axis=1)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        serial = SequencePerceptron(shuffle=False, max_epochs=4).fit(X, y, lengths)
    ipm = distributed.fit_sequences(
        SequencePerceptron(shuffle=False, max_epochs=4), X, y, lengths, shards=1, client=client
    )
    assert np.array_equal(serial.coef_, ipm.coef_) and np.array_equal(serial.coef_trans_, ipm.coef_trans_)
    assert serial.mistakes_per_epoch_ == ipm.mistakes_per_epoch_
    three = distributed.fit_sequences(SequencePerceptron(max_epochs=4), X, y, lengths, shards=3, client=client)
    assert three.shard_mistakes_.shape[1] == 3 and three.score(X, y, lengths) > 0.5


# ---------------------------------------------------------------------- the oracle
@pytest.mark.parametrize("mixing", ["error", "uniform"])
@pytest.mark.parametrize("S", [2, 3])
@pytest.mark.parametrize("rounds", [1, 3])
@pytest.mark.parametrize("mixed_on", ["client", "workers"])
def test_ipm_and_its_true_average_match_the_oracle(client, monkeypatch, mixing, S, rounds, mixed_on):
    """Weights mixed as McDonald et al. mix them (``rounds`` times an epoch), and coef_ the mean
    of every iterate visited on every shard (tests/reference.py spells both out), with the
    weights sent as changed rows; mixed by the client (a small state) or on the workers."""
    import reference

    from perceptrons.distributed import _loop

    if mixed_on == "workers":  # as every state of 1 MB or more is
        monkeypatch.setattr(_loop, "SCATTER_BYTES", 0)

    rng = np.random.default_rng(S)
    X = rng.normal(size=(90, 5000))  # wide enough that the weights come back as changed rows
    X[rng.random(X.shape) < 0.995] = 0
    y = np.where(X[:, :40].sum(axis=1) + 0.3 * rng.normal(size=90) > 0, 1, -1)
    clf = _quiet_ipm(
        AveragedPerceptron(max_epochs=4), sp.csr_matrix(X), y, shards=S, client=client, mixing=mixing, rounds=rounds
    )
    bounds = np.cumsum([0] + [len(p) for p in np.array_split(np.arange(90), S)])
    parts = [(X[a:b].tolist(), y[a:b].tolist()) for a, b in zip(bounds[:-1], bounds[1:])]
    w, b, avg_w, avg_b, history = reference.ipm(parts, mixing=mixing, max_epochs=4, rounds=rounds)
    assert clf.shard_mistakes_.tolist() == history
    np.testing.assert_allclose(clf.last_coef_[0], w, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(clf.coef_[0], avg_w, rtol=1e-9, atol=1e-9)
    assert clf.intercept_[0] == pytest.approx(avg_b, rel=1e-9, abs=1e-9)
    # the weights came back as the rows that changed, not as 5000 values: what the epoch moved
    # besides the state out to each shard each round
    arrays = clf._state._asdict()
    sent = sum(a.nbytes for k, a in arrays.items() if k not in ("u", "ub"))
    back = clf.bytes_per_epoch_ - S * rounds * sent
    assert 0 < back < S * rounds * 5000 * 8
    assert clf.mixing_weights_.shape == (len(history) * rounds, S)


@pytest.mark.parametrize("mixing", ["error", "uniform"])
@pytest.mark.parametrize("S, fan_in", [(5, 2), (7, 3)])
def test_a_mix_in_a_tree_is_the_flat_mix(client, monkeypatch, mixing, S, fan_in):
    """With more shards than a mixing task reads, groups are mixed into virtual shards first
    (perceptrons.distributed._tree): the flat mix up to the order floats are added in, the same
    mistakes, and the averaged weights of the oracle."""
    import reference

    from perceptrons.distributed import _loop, _tree

    monkeypatch.setattr(_loop, "SCATTER_BYTES", 0)  # mixed on the workers, as a state of 1 MB or more is
    rng = np.random.default_rng(S)
    X = rng.normal(size=(140, 5000))  # the changed rows travel, between the levels too
    X[rng.random(X.shape) < 0.995] = 0
    y = np.where(X[:, :40].sum(axis=1) + 0.3 * rng.normal(size=140) > 0, 1, -1)
    fit = lambda: _quiet_ipm(  # noqa: E731
        AveragedPerceptron(max_epochs=4), sp.csr_matrix(X), y, shards=S, client=client, mixing=mixing, rounds=2
    )
    flat = fit()
    monkeypatch.setattr(_tree, "FAN_IN", fan_in)
    tree = fit()
    assert tree.shard_mistakes_.tolist() == flat.shard_mistakes_.tolist()
    np.testing.assert_allclose(tree.last_coef_, flat.last_coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tree.coef_, flat.coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tree.intercept_, flat.intercept_, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(tree.mixing_weights_, flat.mixing_weights_)
    bounds = np.cumsum([0] + [len(p) for p in np.array_split(np.arange(140), S)])
    parts = [(X[a:b].tolist(), y[a:b].tolist()) for a, b in zip(bounds[:-1], bounds[1:])]
    w, b, avg_w, avg_b, history = reference.ipm(parts, mixing=mixing, max_epochs=4, rounds=2)
    assert tree.shard_mistakes_.tolist() == history
    np.testing.assert_allclose(tree.last_coef_[0], w, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(tree.coef_[0], avg_w, rtol=1e-9, atol=1e-9)
    assert tree.intercept_[0] == pytest.approx(avg_b, rel=1e-9, abs=1e-9)
    # the groups' rows travelled between the levels too
    assert tree.bytes_per_epoch_ > flat.bytes_per_epoch_


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron])
def test_one_shard_in_rounds_is_the_serial_fit_bit_for_bit(client, cls):
    """One shard's epoch cut into parts, each from the state the part before left: the serial
    epoch itself."""
    X, y = _data("csr", 3)
    serial = _quiet_fit(cls(max_epochs=3), X, y)
    ipm = _quiet_ipm(cls(max_epochs=3), X, y, shards=1, client=client, rounds=4)
    assert np.array_equal(ipm.coef_, serial.coef_)
    assert np.array_equal(ipm.intercept_, serial.intercept_)
    assert ipm.mistakes_per_epoch_ == serial.mistakes_per_epoch_


def test_rounds_out_of_range_are_refused_before_a_cluster_starts():
    X, y = _data("dense", 2)
    for bad in (0, 1.5, 10_001):
        with pytest.raises(
            PerceptronsError,
            match=r"^The 'rounds' parameter of distributed.fit must be an int in the range \[1, 10000\]",
        ):
            distributed.fit(Perceptron(), X, y, rounds=bad)


# ---------------------------------------------------------------------- the theory
def _separable(seed, n, d):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    X = rng.normal(size=(n, d))
    s = X @ w
    keep = np.abs(s) > 0.15 * np.abs(s).max()  # a margin bounded away from 0
    return X[keep], np.where(s[keep] > 0, 1, -1)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), S=st.sampled_from([2, 3, 5]), d=st.integers(2, 6))
def test_error_weighted_ipm_keeps_the_serial_mistake_bound(client, seed, S, d):
    """McDonald et al., Theorem 3: Σₙ Σᵢ μᵢ,ₙ kᵢ,ₙ ≤ (R/γ*)², and IPM converges."""
    X, y = _separable(seed, 120, d)
    clf = _quiet_ipm(Perceptron(max_epochs=10_000, fit_intercept=False), X, y, shards=S, client=client)
    assert clf.converged_ and clf.score(X, y) == 1.0
    report = distributed.mixing_bound(clf, X, y)
    nb = novikoff_bound(X, y, fit_intercept=False)
    assert report.bound == pytest.approx(nb.bound)
    assert 0 < report.mistake_sum <= report.bound
    assert report.holds
    k = clf.shard_mistakes_.astype(float)
    assert report.mistake_sum == pytest.approx(float((k * k / np.maximum(k.sum(1, keepdims=True), 1)).sum()))


# a separable set (w = (1, 0.3) separates it) split in two shards: each shard's PLA converges,
# their one-shot average (1.5, 1.5) puts (-1, 2) on the wrong side (McDonald et al., Theorem 2)
THEOREM2_X = np.array([[2.0, 0.0], [-2.0, -2.0], [-1.0, 2.0], [-1.0, -3.0], [1.0, 2.0], [-2.0, 0.0]])
THEOREM2_Y = np.array([1, -1, -1, -1, 1, -1])


def test_one_shot_mixing_fails_where_iterative_mixing_separates(client):
    X, y = THEOREM2_X, THEOREM2_Y
    assert np.all(y * (X @ np.array([1.0, 0.3])) > 0)
    parts = [Perceptron(fit_intercept=False).fit(X[:3], y[:3]), Perceptron(fit_intercept=False).fit(X[3:], y[3:])]
    assert all(p.converged_ and p.score(X[k * 3 : k * 3 + 3], y[k * 3 : k * 3 + 3]) == 1 for k, p in enumerate(parts))
    one_shot = (parts[0].coef_[0] + parts[1].coef_[0]) / 2
    assert np.any(y * (X @ one_shot) <= 0)  # fails to separate
    for mixing in ("error", "uniform"):
        ipm = distributed.fit(Perceptron(fit_intercept=False), X, y, shards=2, client=client, mixing=mixing)
        assert ipm.converged_ and ipm.score(X, y) == 1.0


# ---------------------------------------------------------------------- inputs
def test_file_shards_are_read_on_the_workers(client, tmp_path):
    X, y = _separable(3, 800, 5)
    X, y = X[:400], y[:400]
    for k in range(4):
        with open(tmp_path / f"part-{k}.svm", "w") as f:
            for row, label in zip(X[k * 100 : (k + 1) * 100], y[k * 100 : (k + 1) * 100]):
                f.write(f"{label} " + " ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row)) + "\n")
    from_files = _quiet_ipm(AveragedPerceptron(max_epochs=20), str(tmp_path / "part-*.svm"), client=client, shards=2)
    # the LIBSVM reader keeps values in float32: the same rows as float32 CSR in memory
    X32 = sp.csr_matrix(X.astype(np.float32))
    in_memory = _quiet_ipm(AveragedPerceptron(max_epochs=20), X32, y, client=client, shards=2)
    # shard 0 = parts 0-1 = the first 200 rows, as the in-memory split: the same weights
    assert np.array_equal(from_files.coef_, in_memory.coef_)
    assert from_files.classes_.tolist() == [-1, 1]
    assert from_files.shard_mistakes_.shape[1] == 2


def test_csv_shards_through_the_streaming_reader(client, tmp_path):
    pytest.importorskip("pyarrow")
    from perceptrons.io.sources import Source

    X, y = _separable(11, 400, 3)
    X, y = X[:200], y[:200]
    for k in range(2):
        rows = [
            ",".join(map(repr, map(float, r))) + f",{'yes' if t > 0 else 'no'}"
            for r, t in zip(X[k * 100 :], y[k * 100 :])
        ]
        (tmp_path / f"p{k}.csv").write_text("a,b,c,label\n" + "\n".join(rows[:100]) + "\n")
    clf = _quiet_ipm(Perceptron(max_epochs=100), Source(str(tmp_path / "p*.csv"), label="label"), client=client)
    assert clf.classes_.tolist() == ["no", "yes"] and clf.n_shards_ == 2
    assert clf.converged_ and np.mean(clf.predict(X) == np.where(y > 0, "yes", "no")) == 1.0


def test_a_model_whose_scores_lost_their_features_is_refused(client, tmp_path):
    """Rows of size ~2^-600: every product of a score underflows, and the mixed model is a
    constant one. Refused as the serial fit refuses it, with the largest feature over every
    shard (in memory, or from each worker's summary of the files it read)."""
    X, y = _separable(5, 400, 3)
    tiny = np.ldexp(X, -600)
    match = "every score lost its features; scale the features"
    with pytest.raises(PerceptronsError, match=match):
        _quiet_ipm(Perceptron(fit_intercept=False, max_epochs=5), tiny, y, client=client, shards=2)
    for k in range(2):
        rows = [",".join(map(repr, map(float, r))) + f",{t}" for r, t in zip(tiny[k * 200 :], y[k * 200 :])]
        (tmp_path / f"p{k}.csv").write_text("a,b,c,label\n" + "\n".join(rows[:200]) + "\n")
    with pytest.raises(PerceptronsError, match=match):
        _quiet_ipm(Perceptron(fit_intercept=False, max_epochs=5), str(tmp_path / "p*.csv"), client=client)
    # the same rows in units of ~1 train
    assert _quiet_ipm(Perceptron(fit_intercept=False, max_epochs=5), X, y, client=client, shards=2).coef_.any()


def test_importing_perceptrons_does_not_import_dask():
    code = "import sys, perceptrons; from perceptrons import distributed; print('dask' in sys.modules, 'distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]


def test_dask_array_and_dataframe_partitions_are_the_shards(client):
    da = pytest.importorskip("dask.array")
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y = _separable(5, 600, 4)
    X, y = X[:300], y[:300]
    serial_split = _quiet_ipm(Perceptron(max_epochs=50), X, y, client=client, shards=3)
    clf = _quiet_ipm(
        Perceptron(max_epochs=50), da.from_array(X, chunks=(100, 4)), da.from_array(y, chunks=100), client=client
    )
    assert np.array_equal(clf.coef_, serial_split.coef_) and clf.n_shards_ == 3
    df = dd.from_pandas(pd.DataFrame(np.column_stack([X, y]), columns=[*"abcd", "label"]), npartitions=3)
    clf_df = _quiet_ipm(Perceptron(max_epochs=50), df, "label", client=client)
    assert clf_df.n_shards_ == 3 and clf_df.score(X, y.astype(float)) == serial_split.score(X, y)
    with pytest.raises(PerceptronsError, match="repartition"):
        distributed.fit(
            Perceptron(), da.from_array(X, chunks=(100, 4)), da.from_array(y, chunks=100), client=client, shards=2
        )


def test_the_result_is_an_ordinary_estimator(client, tmp_path):
    from perceptrons import load_model, save_model

    X, y = _data("dense", 3)
    clf = _quiet_ipm(AveragedPerceptron(max_epochs=3), X, y, client=client, shards=2)
    save_model(clf, tmp_path / "m.npz")
    back = load_model(tmp_path / "m.npz")
    assert np.array_equal(back.predict(X), clf.predict(X))
    # out: the weights without the sums (each shard sums from zero), to 2 shards; back: all of
    # it from each shard to the client, which mixes a state this small itself
    arrays = clf._state._asdict()
    sent = sum(a.nbytes for k, a in arrays.items() if k not in ("u", "ub"))
    assert clf.bytes_per_epoch_ == 2 * sent + 2 * sum(a.nbytes for a in arrays.values())


@pytest.mark.parametrize(
    "est, match",
    [
        (PocketPerceptron(), "cannot be trained by parameter mixing"),
        (VotedPerceptron(), "cannot be trained by parameter mixing"),
        (Perceptron(order="random-mistake"), "random-mistake"),
    ],
)
def test_estimators_whose_state_does_not_mix_are_refused(client, est, match):
    X, y = _data("dense", 2)
    with pytest.raises(PerceptronsError, match=match):
        distributed.fit(est, X, y, client=client)


def test_bad_arguments_are_refused(client):
    X, y = _data("dense", 2)
    with pytest.raises(PerceptronsError, match="'mixing' parameter of distributed.fit must be one of"):
        distributed.fit(Perceptron(), X, y, client=client, mixing="median")
    with pytest.raises(PerceptronsError, match="more than the"):
        distributed.fit(Perceptron(), X[:3], y[:3], client=client, shards=4)
    with pytest.raises(PerceptronsError, match="shards must be a positive integer"):
        distributed.fit(Perceptron(), X, y, client=client, shards=0)


def test_every_argument_is_checked_before_a_cluster_starts(monkeypatch):
    """A bad argument of the three fits (and of the theorem's functions) is one line naming it,
    before any cluster is started or reached.  Before: a callback of 3 failed after the first
    epoch, n_workers=10**30 started processes until the memory ran out, dashboard="x" failed
    inside Dask, a tls:// address raised Dask's TypeError, max_epochs=0 waited for a cluster,
    and a class given for the estimator raised Python's own errors."""
    from perceptrons.distributed import linear, tagger

    def no_cluster(*args, **kwargs):
        raise AssertionError("a cluster was started or reached for a bad argument")

    monkeypatch.setattr(linear, "connect", no_cluster)
    monkeypatch.setattr(tagger, "connect", no_cluster)
    X, y = _data("dense", 2)
    words, tags = [["a", "b"]], [["N", "V"]]
    fit = distributed.fit
    cases = [
        (lambda v: fit(Perceptron(), X, y, callback=v), "callback", [3, "f"]),
        (lambda v: fit(Perceptron(), X, y, mixing=v), "mixing", [np.array([1, 2]), "median", None]),
        (lambda v: fit(Perceptron(), X, y, dashboard=v), "dashboard", ["x", np.array([1, 2]), 1, ":99999", None]),
        (lambda v: fit(Perceptron(), X, y, n_workers=v), "n_workers", [10**30, 0, 1.5, True, "2"]),
        (
            lambda v: fit(Perceptron(), X, y, client=v),
            "client",
            ["x", "/dev/null", "tls://127.0.0.1:8799", "ucx://127.0.0.1:8799", 5, "tcp://h:99999"],
        ),
        (lambda v: fit(Perceptron(), X, y, client="tcp://127.0.0.1:1", n_workers=v), "n_workers", [2]),
        (lambda v: fit(Perceptron(), X, y, source_options=v), "source_options", [{"fmt": "csv"}, "x"]),
        (lambda v: fit(v, X, y), "estimator", [Perceptron, None, KernelPerceptron()]),
        (lambda v: fit(v, X, y), "max_epochs", [Perceptron(max_epochs=0)]),
        (lambda v: distributed.fit_tagger(v, words, tags), "tagger", [None, Perceptron()]),
        (lambda v: distributed.fit_tagger(Tagger(), words, tags, column=v), "column", [3, "lemma"]),
        (lambda v: distributed.fit_tagger(Tagger(), words, tags, n_workers=v), "n_workers", [0]),
        (lambda v: distributed.fit_sequences(v, X, y), "model", [None, Perceptron()]),
        (lambda v: distributed.fit_sequences(SequencePerceptron(), X, y, callback=v), "callback", [3]),
        (lambda v: distributed.mistake_sum(v), "estimator", [None, Perceptron().fit([[1.0], [-1.0]], [1, 0])]),
        (lambda v: distributed.mixing_bound(v, X, y), "estimator", [None]),
    ]
    failures = [refusal_failure(call, name, value) for call, name, values in cases for value in values]
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures)


def test_a_closed_client_is_refused():
    with connect(n_workers=1) as c:
        pass
    X, y = _data("dense", 2)
    with pytest.raises(PerceptronsError, match="'client' parameter of distributed.fit is a Client that is closed"):
        distributed.fit(Perceptron(), X, y, client=c)


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_clear_error():
    X, y = _data("dense", 2)
    with pytest.raises(PerceptronsError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'"):
        distributed.fit(Perceptron(), X, y, client="tcp://127.0.0.1:1")


def test_a_scheduler_address_that_is_no_scheduler_is_one_clear_error():
    """An HTTP server at the address: its reply, read as a message header, declared exabytes,
    and the error blamed the data file and the memory ("out of memory: Unable to allocate
    3.07 EiB")."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer():
        while True:  # every connection the client tries: one left waiting in the backlog is silent
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<html>not dask</html>" * 50)
            conn.close()

    threading.Thread(target=answer, daemon=True).start()
    X, y = _data("dense", 2)
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        with pytest.raises(PerceptronsError, match=f"cannot reach the Dask scheduler at '{address}'"):
            distributed.fit(Perceptron(), X, y, client=address)
    finally:
        server.close()


def test_a_server_that_accepts_and_stays_silent_is_unreachable_within_the_timeout(monkeypatch):
    """Dask's Client bounds the TCP connection but waited for the scheduler's handshake without
    a deadline: a port that accepts and never answers hung the fit forever."""
    import socket
    import time

    from perceptrons.distributed import _engine

    monkeypatch.setattr(_engine, "CONNECT_TIMEOUT", 2)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()  # the kernel completes the connection; nobody ever reads or writes
    X, y = _data("dense", 2)
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    start = time.monotonic()
    try:
        with pytest.raises(PerceptronsError, match=f"cannot reach the Dask scheduler at '{address}' within 2 s"):
            distributed.fit(Perceptron(), X, y, client=address)
    finally:
        server.close()
    assert time.monotonic() - start < 30


# ---------------------------------------------------------------------- faults
def _kill_a_worker_after(client, epoch_to_kill):
    pids = list(client.run(os.getpid).values())

    def callback(epoch, mistakes, elapsed):
        if epoch == epoch_to_kill:
            os.kill(pids[0], signal.SIGKILL)  # the nanny restarts it; its shards are gone

    return callback


@pytest.mark.slow
@pytest.mark.parametrize("source, kill_after", [("memory", 2), ("files", 2), ("memory", 7)])
def test_killing_a_worker_mid_training_changes_nothing(tmp_path, source, kill_after):
    """The epochs since the last state the client received (every CHECKPOINT_EVERY = 5 epochs)
    run again: after epoch 2, from the start; after epoch 7, from epoch 5's state."""
    X, y = _data("csr", 2)
    data, labels = X, y
    if source == "files":
        from sklearn.datasets import dump_svmlight_file

        for k in range(2):
            dump_svmlight_file(
                X[k * 300 : (k + 1) * 300], y[k * 300 : (k + 1) * 300], str(tmp_path / f"p{k}.svm"), zero_based=False
            )
        data, labels = str(tmp_path / "p*.svm"), None
    with connect(n_workers=2) as c:
        calm = _quiet_ipm(AveragedPerceptron(max_epochs=9), data, labels, client=c, shards=2)
        hit = _quiet_ipm(
            AveragedPerceptron(max_epochs=9),
            data,
            labels,
            client=c,
            shards=2,
            callback=_kill_a_worker_after(c, kill_after),
        )
    assert hit.n_epochs_ == calm.n_epochs_ == 9
    assert np.array_equal(hit.coef_, calm.coef_) and np.array_equal(hit.intercept_, calm.intercept_)
    assert np.array_equal(hit.shard_mistakes_, calm.shard_mistakes_)


@pytest.mark.slow
def test_a_file_changed_before_a_lost_worker_s_shard_is_read_again_is_refused(tmp_path):
    """Dask remakes a lost shard by reading its files again. A file changed since its first read
    would give rows that the classes and the epochs before the loss were not computed from."""
    from sklearn.datasets import dump_svmlight_file

    X, y = _data("csr", 2)
    paths = [tmp_path / f"p{k}.svm" for k in range(2)]
    for k, path in enumerate(paths):
        dump_svmlight_file(X[k * 300 : (k + 1) * 300], y[k * 300 : (k + 1) * 300], str(path), zero_based=False)
    with connect(n_workers=2) as c:
        pids = list(c.run(os.getpid).values())

        def edit_then_kill(epoch, mistakes, elapsed):
            if epoch == 2:
                for path in paths:
                    with open(path, "a") as f:
                        f.write("1 1:0.5\n")
                for pid in pids:  # every worker: both shards are read again, wherever they were
                    os.kill(pid, signal.SIGKILL)

        with pytest.raises(PerceptronsError, match=r"p[01]\.svm: changed after its shard was first read"):
            _quiet_ipm(
                AveragedPerceptron(max_epochs=6),
                str(tmp_path / "p*.svm"),
                None,
                client=c,
                shards=2,
                callback=edit_then_kill,
            )


def test_a_file_changed_while_its_worker_reads_it_is_refused(tmp_path, monkeypatch):
    from perceptrons.distributed import _linear_shards as ls
    from perceptrons.io import sources

    path = tmp_path / "a.csv"
    path.write_text("y,a\n0,1\n1,2\n")
    blocks = sources.Source.blocks

    def then_append(self):
        yield from blocks(self)
        with open(path, "a") as f:
            f.write("0,3\n")

    monkeypatch.setattr(sources.Source, "blocks", then_append)
    with pytest.raises(PerceptronsError, match=r"a\.csv: changed while a worker read it"):
        ls.on_worker_read([str(path)], {"label": "y"})


# ---------------------------------------------------------------------- the command line
def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "perceptrons", *args], capture_output=True, text=True, **kw)


@pytest.mark.slow
def test_cli_train_with_workers(tmp_path):
    from sklearn.datasets import dump_svmlight_file

    X, y = _data("csr", 2)
    for k in range(3):
        dump_svmlight_file(
            X[k * 200 : (k + 1) * 200], y[k * 200 : (k + 1) * 200], str(tmp_path / f"p{k}.svm"), zero_based=False
        )
    r = _cli("train", str(tmp_path / "p*.svm"), "-o", str(tmp_path / "m.npz"), "--workers", "2", "--epochs", "3")
    assert r.returncode == 0, r.stderr
    assert "shards     3" in r.stdout and "weights moved" in r.stdout
    assert os.path.exists(tmp_path / "m.npz")


@pytest.mark.slow
def test_cli_unreachable_scheduler_exits_2_with_one_line(tmp_path):
    from sklearn.datasets import dump_svmlight_file

    X, y = _data("dense", 2)
    dump_svmlight_file(X, y, str(tmp_path / "d.svm"), zero_based=False)
    r = _cli("train", str(tmp_path / "d.svm"), "-o", str(tmp_path / "m.npz"), "--scheduler", "tcp://127.0.0.1:1")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "--scheduler" in r.stderr and "Traceback" not in r.stderr
    assert not os.path.exists(tmp_path / "m.npz")


@pytest.mark.parametrize("n", [601, 603, 7])
def test_threads_and_shards_cut_an_odd_number_of_rows_alike(client, n):
    """S shards hold the rows S threads train on (numpy.array_split's cut, the first n mod S one
    row longer): the same model on either side, in rounds too."""
    X, y = _data("dense", 2)
    X, y = np.vstack([X, X[:3]])[:n], np.concatenate([y, y[:3]])[:n]
    for every in (None, 2):
        threads = _quiet_fit(Perceptron(max_epochs=3, n_jobs=2, mix_every=every), X, y)
        ipm = _quiet_ipm(Perceptron(max_epochs=3, mix_every=every), X, y, shards=2, client=client)
        assert np.array_equal(threads.coef_, ipm.coef_) and np.array_equal(threads.intercept_, ipm.intercept_)


def test_a_mix_every_past_the_rounds_a_cluster_makes_is_refused(client, monkeypatch):
    """A mix_every that comes to more rounds an epoch than a cluster makes (10,000 round trips;
    4 here) is refused as such a ``rounds`` is, naming the smallest mix_every that fits."""
    from perceptrons.distributed import _inputs

    monkeypatch.setattr(_inputs, "MAX_ROUNDS", 4)
    X, y = _data("dense", 2)
    X, y = X[:100], y[:100]
    with pytest.raises(PerceptronsError, match=r"mix_every=10 makes 5 mixes an epoch of 100 examples on 2 shards; a"):
        distributed.fit(Perceptron(mix_every=10), X, y, shards=2, client=client)
    fit = _quiet_ipm(Perceptron(mix_every=13, max_epochs=1), X, y, shards=2, client=client)
    assert fit.mixing_weights_.shape == (4, 2)


def test_rounds_and_mix_every_together_are_refused_before_a_cluster_starts():
    X, y = _data("dense", 2)
    with pytest.raises(PerceptronsError, match=r"^distributed.fit: rounds=3 and the estimator's mix_every=50 both"):
        distributed.fit(Perceptron(mix_every=50), X, y, rounds=3)
    with pytest.raises(PerceptronsError, match=r"^distributed.fit_tagger: rounds=2 and the estimator's mix_every=9"):
        distributed.fit_tagger(Tagger(mix_every=9), [["a", "b"]], [["X", "Y"]], rounds=2)


def test_a_tagger_s_mix_every_is_its_rounds_on_the_cluster(client):
    """Tagger(mix_every=m) mixes the shards every m sentences a shard, as its threads exchange."""
    words = [["kal", "mora"], ["ten", "visor", "dapa"], ["sol"]] * 40
    tags = [["NOUN", "ADJ"], ["NOUN", "ADJ", "NOUN"], ["NOUN"]] * 40
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = distributed.fit_tagger(Tagger(max_epochs=2, mix_every=15), words, tags, shards=2, client=client)
    # 120 sentences, 2 shards, 15 a shard between mixes: ⌈120 / 30⌉ rounds an epoch
    assert fit.model_.mixing_weights_.shape == (len(fit.model_.mistakes_per_epoch_) * 4, 2)


def test_cli_conflicting_options(tmp_path):
    r = _cli("train", "x.svm", "-o", str(tmp_path / "m.npz"), "--workers", "2", "--scheduler", "tcp://h:1")
    assert r.returncode == 2 and "not both" in r.stderr
    r = _cli("train", "x.svm", "-o", str(tmp_path / "m.npz"), "--shards", "2")
    assert r.returncode == 2 and "--shards, --mixing and --rounds go with" in r.stderr
    r = _cli("tag", "train", "x.conllu", "-o", str(tmp_path / "m.npz"), "--rounds", "2")
    assert r.returncode == 2 and "--shards, --mixing and --rounds go with" in r.stderr


def _fit_under_way(tmp_path, *options, env=None, starting=False):
    """``train --workers 2`` on never-separable data (its 1000 epochs outlast the test) in a
    process group of its own, a few epochs in (``starting``: as soon as its first worker
    process appears, while the cluster starts); the process and a function listing its group."""
    import time

    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(0)
    dump_svmlight_file(rng.normal(size=(2000, 20)), rng.integers(0, 2, 2000), str(tmp_path / "d.svm"), zero_based=False)
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "perceptrons",
            "train",
            str(tmp_path / "d.svm"),
            "--workers",
            "2",
            "--model",
            "perceptron",
            *options,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches it
    )

    def group():
        return subprocess.run(["pgrep", "-g", str(p.pid)], capture_output=True, text=True).stdout.split()

    deadline = time.monotonic() + 60
    # the command, a tracker, and two workers (one, when starting)
    while len(group()) < (3 if starting else 4) and time.monotonic() < deadline:
        time.sleep(0.05 if starting else 0.2)
    if not starting:  # the workers up and a few epochs run (under load they took more than 3 s)
        time.sleep(8)
    assert p.poll() is None, "the fit ended before it could be stopped"
    return p, group


def _left(group):
    """The group's processes still there after its workers' shutdown, which may finish just
    after the command's (slowly on a busy machine)."""
    import time

    for _ in range(150):
        left = group()
        if not left:
            break
        time.sleep(0.2)
    return left


@pytest.mark.slow
def test_cli_ctrl_c_stops_the_cluster_and_writes_nothing(tmp_path):
    """Ctrl-C reaches the whole process group, workers included: they ignore it, the command
    stops between two epochs, closes the cluster it started and writes no model."""
    out = tmp_path / "m.npz"
    p, group = _fit_under_way(tmp_path, "-o", str(out))
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode in (1, 130), err
    assert not out.exists()
    assert _left(group) == []
    assert "Traceback" not in err


@pytest.mark.slow
def test_cli_ctrl_c_while_the_workers_start_is_held_not_lost(tmp_path):
    """A Ctrl-C typed while the cluster starts is held until it is up, then stops the fit:
    ignored (as the workers must not see it), it was lost, and the fit ran on to its model."""
    out = tmp_path / "m.npz"
    p, group = _fit_under_way(tmp_path, "-o", str(out), starting=True)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode in (1, 130), err
    assert "interrupted" in err and "Traceback" not in err, err
    assert not out.exists()
    assert _left(group) == []


@pytest.mark.slow
def test_cli_sigterm_closes_the_cluster_and_leaves_no_scratch(tmp_path):
    """SIGTERM (``timeout``, ``docker stop``) closes the cluster as Ctrl-C does: killed on the
    spot, the command left its workers' semaphores to the resource tracker's warning and its
    scratch directories behind.  Dask's scratch space is the fit's own temporary directory,
    removed after it, also after a fit that ends well (Dask leaves its lock files)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    (tmp_path / "small.svm").write_text("1 1:1\n-1 2:1\n1 1:1 3:1\n-1 2:1 3:1\n")
    done = _cli("train", str(tmp_path / "small.svm"), "--workers", "2", "-o", str(tmp_path / "ok.npz"), env=env)
    assert done.returncode == 0, done.stderr
    assert list(scratch.iterdir()) == []
    out = tmp_path / "m.npz"
    p, group = _fit_under_way(tmp_path, "-o", str(out), env=env)
    p.send_signal(signal.SIGTERM)  # the command alone, as ``kill`` sends it
    _, err = p.communicate(timeout=60)
    assert p.returncode == -signal.SIGTERM, err
    assert "semaphore" not in err and "Traceback" not in err, err
    assert not out.exists()
    assert _left(group) == [] and list(scratch.iterdir()) == []


@pytest.mark.slow
def test_two_local_clusters_at_once_do_not_clash_on_a_port():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # distributed warns when a port it wanted is taken
        with connect(n_workers=1) as a, connect(n_workers=1) as b:
            ports = {c.cluster.scheduler.http_server.port for c in (a, b)}
            assert len(ports) == 2 and 8787 not in ports


@pytest.mark.slow
def test_workers_of_a_started_cluster_drop_the_heartbeat_record_of_a_closed_scheduler():
    """Closing a LocalCluster on a loaded machine can leave a worker whose next heartbeat meets the
    closed scheduler: its CommClosedError traceback must not reach the terminal (after Ctrl-C,
    the CLI prints one line).  The filter is in every worker, and drops that record only."""
    import logging

    def verdicts():
        logger = logging.getLogger("distributed.worker")

        def passes(msg):
            record = logging.LogRecord("distributed.worker", logging.ERROR, __file__, 1, msg, None, None)
            return all(f.filter(record) for f in logger.filters)

        return passes("Failed to communicate with scheduler during heartbeat."), passes(
            "Worker is at 85% memory usage."
        )

    with connect(n_workers=2) as c:
        found = c.run(verdicts)
    assert len(found) == 2
    assert all(v == (False, True) for v in found.values())


@pytest.mark.data
def test_a_tagger_shard_changed_after_the_survey_is_refused_on_its_worker(client, tmp_path, monkeypatch, shared_data):
    """The driver learns the features from the files; the workers read them afterwards. A file
    that changed in between would train on data the features were not learned from."""
    from perceptrons.io.conllu import read_conllu

    sents = read_conllu(shared_data("ud-english-ewt") / "dev.conllu")[:200]
    paths = [tmp_path / "a.conllu", tmp_path / "b.conllu"]
    for k, path in enumerate(paths):
        path.write_text("".join("\n".join(s.lines) + "\n\n" for s in sents[k * 100 : (k + 1) * 100]))
    survey = Tagger.learn_features_from

    def then_edit(*args, **kwargs):
        out = survey(*args, **kwargs)
        with open(paths[1], "a") as f:  # a sentence more, once the driver has read the file twice
            f.write("\n".join(sents[0].lines) + "\n\n")
        return out

    monkeypatch.setattr(Tagger, "learn_features_from", then_edit)
    with pytest.raises(PerceptronsError, match=r"b\.conllu: changed after the driver learned the features from it"):
        distributed.fit_tagger(Tagger(max_epochs=1), [str(p) for p in paths], shards=2, client=client)
    monkeypatch.setattr(Tagger, "learn_features_from", survey)
    fitted = distributed.fit_tagger(Tagger(max_epochs=1), [str(p) for p in paths], shards=2, client=client)
    assert fitted.predict([sents[0].words])[0]  # the same files, unchanged since: trained


@pytest.mark.slow
def test_a_lost_worker_is_one_warning_of_ours_not_dask_s_records(capfd):
    """Dask's WARNING and ERROR records (the nanny's restart, the scheduler's lost data, the
    client's rescheduling, each with a timestamp) went to the terminal when a worker was lost.
    They go to the ``perceptrons.distributed`` logger, and the fit says it once."""
    import logging

    from perceptrons.distributed import WorkerLostWarning

    X, y = _data("csr", 2)
    seen = []
    handler = logging.Handler()
    handler.emit = seen.append
    logging.getLogger("perceptrons.distributed").addHandler(handler)
    try:
        with pytest.warns(WorkerLostWarning, match="1 worker was lost during the fit"):
            with connect(n_workers=2) as c:
                _quiet_ipm(
                    AveragedPerceptron(max_epochs=6), X, y, client=c, shards=2, callback=_kill_a_worker_after(c, 2)
                )
    finally:
        logging.getLogger("perceptrons.distributed").removeHandler(handler)
    err = capfd.readouterr().err
    assert "distributed." not in err and " - WARNING - " not in err and " - ERROR - " not in err, err
    assert any(r.name.startswith("distributed") for r in seen)  # the records are in our log


# ---------------------------------------------------------------------- columns scaled on the cluster
def _scaled_shards(tmp_path, k=3):
    """LIBSVM shard files whose columns sit on scales from 1 to 5000."""
    from sklearn.datasets import dump_svmlight_file

    X, y = _data("csr", 2)
    X = sp.csr_matrix(X.multiply(np.resize([1.0, 100.0, 5000.0], X.shape[1])))
    for part in range(k):
        rows = slice(part * 200, (part + 1) * 200)
        dump_svmlight_file(X[rows], y[rows], str(tmp_path / f"p{part}.svm"), zero_based=False)
    return str(tmp_path / "p*.svm")


def test_shard_files_scaled_by_the_merged_maxima_are_the_streamed_fit(client, tmp_path):
    """A MaxAbsScaler before the estimator: each worker sends its columns' largest |x|, the
    client takes their maximum and each worker divides its shard by it.  On one shard that is
    the streamed fit of the same files, scaler and weights, bit for bit."""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MaxAbsScaler

    from perceptrons import stream

    files = _scaled_shards(tmp_path)
    make = lambda: make_pipeline(MaxAbsScaler(), AveragedPerceptron(max_epochs=4))  # noqa: E731
    mixed = _quiet_ipm(make(), files, shards=1, client=client)
    streamed = stream.fit(make(), files)
    np.testing.assert_array_equal(mixed[0].scale_, streamed[0].scale_)
    assert mixed[0].n_samples_seen_ == streamed[0].n_samples_seen_ == 600
    np.testing.assert_array_equal(mixed[-1].coef_, streamed[-1].coef_)
    np.testing.assert_array_equal(mixed[-1].intercept_, streamed[-1].intercept_)
    two = _quiet_ipm(make(), files, shards=3, client=client)
    np.testing.assert_array_equal(two[0].scale_, streamed[0].scale_)  # maxima merge exactly
    from sklearn.preprocessing import StandardScaler

    with pytest.raises(PerceptronsError, match="StandardScaler\\(\\) \\(with_mean and with_std\\)"):
        _quiet_ipm(make_pipeline(StandardScaler(with_mean=False), Perceptron()), files, shards=1, client=client)
    with pytest.raises(PerceptronsError, match="cannot scale sparse rows: centring makes them dense"):
        _quiet_ipm(make_pipeline(StandardScaler(), Perceptron()), files, shards=1, client=client)
    with pytest.raises(PerceptronsError, match="got MaxAbsScaler then MaxAbsScaler"):
        _quiet_ipm(make_pipeline(MaxAbsScaler(), MaxAbsScaler(), Perceptron()), files, shards=1, client=client)


def test_shard_files_with_gaps_are_imputed_by_the_merged_means_as_the_streamed_fit(client, tmp_path):
    """A mean imputer before the scaler: each worker sends its columns' sums and counts of the
    values given, the client merges them into the means, and each worker fills its shard's
    missing numbers with them.  On one shard or three, the imputer, the scaler and the weights
    are the streamed fit's, to the rounding of the sums (added in another order)."""
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MaxAbsScaler

    from perceptrons import stream

    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 4)) * [1, 10, 100, 1000]
    y = (X[:, 0] + X[:, 1] / 10 > 0).astype(int)
    X[rng.random(X.shape) < 0.1] = np.nan
    X[:, 3] = np.nan  # a column of no value: filled with 0
    for part in range(3):
        rows = range(part * 200, (part + 1) * 200)
        lines = [",".join("NA" if np.isnan(v) else repr(float(v)) for v in X[i]) + f",{y[i]}" for i in rows]
        (tmp_path / f"g{part}.csv").write_text("a,b,c,d,y\n" + "\n".join(lines) + "\n")
    files = str(tmp_path / "g*.csv")

    def make():
        imputer = SimpleImputer(strategy="mean", keep_empty_features=True)
        return make_pipeline(imputer, MaxAbsScaler(), AveragedPerceptron(max_epochs=4))

    streamed = stream.fit(make(), files)
    one = _quiet_ipm(make(), files, shards=1, client=client)
    three = _quiet_ipm(make(), files, shards=3, client=client)
    in_memory = SimpleImputer(strategy="mean", keep_empty_features=True).fit(X)
    for mixed in (one, three, streamed):
        np.testing.assert_allclose(mixed[0].statistics_, in_memory.statistics_, rtol=1e-12)
        np.testing.assert_allclose(mixed[1].scale_, streamed[1].scale_, rtol=1e-12)
    np.testing.assert_allclose(one[-1].coef_, streamed[-1].coef_, rtol=1e-9)
    assert three[-1].score(three[1].transform(three[0].transform(X)), y) > 0.85


def _table_shards(tmp_path, text):
    """Three CSV shard files of rows sorted by class, numbers on scales from 1 to 1000 with gaps,
    and with ``text`` a column of words (the rows are then hashed)."""
    rng = np.random.default_rng(4)
    y = np.sort(rng.integers(0, 2, 600))
    X = (rng.normal(size=(600, 3)) + y[:, None]) * [1, 10, 1000] + [5, 50, 3000]
    X[rng.random(X.shape) < 0.1] = np.nan
    words = rng.choice(["ab", "cd", "ef"], 600)
    for part in range(3):
        rows = range(part * 200, (part + 1) * 200)
        lines = [
            ",".join("NA" if np.isnan(v) else repr(float(v)) for v in X[i])
            + (f",{words[i]}" if text else "")
            + f",{y[i]}"
            for i in rows
        ]
        (tmp_path / f"t{part}.csv").write_text("a,b,c" + ",w" * text + ",y\n" + "\n".join(lines) + "\n")
    return str(tmp_path / "t*.csv"), X, y


def test_shard_files_of_a_table_are_standardised_by_merged_statistics_as_the_streamed_fit(client, tmp_path):
    """Dense rows: each worker fits a ColumnStandardScaler of every column on its shard (a
    missing number left out), the client merges them into the imputer's means and the
    StandardScaler's means and variances, which are the streamed fit's and memory's."""
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from perceptrons import stream

    files, X, y = _table_shards(tmp_path, text=False)

    def make():
        imputer = SimpleImputer(strategy="mean", keep_empty_features=True)
        return make_pipeline(imputer, StandardScaler(), AveragedPerceptron(max_epochs=4))

    streamed = stream.fit(make(), stream.Source(files, keep_missing=True))
    memory = make_pipeline(SimpleImputer(strategy="mean"), StandardScaler()).fit(X)
    for shards in (1, 3):
        mixed = _quiet_ipm(make(), files, shards=shards, client=client)
        assert [type(s).__name__ for _, s in mixed.steps] == ["SimpleImputer", "StandardScaler", "AveragedPerceptron"]
        np.testing.assert_allclose(mixed[0].statistics_, memory[0].statistics_, rtol=1e-12)
        for got in (mixed[1], streamed[1]):
            np.testing.assert_allclose(got.mean_, memory[1].mean_, rtol=1e-12)
            np.testing.assert_allclose(got.var_, memory[1].var_, rtol=1e-9)
        if shards == 1:  # the streamed fit's epochs on the same scaled rows
            np.testing.assert_allclose(mixed[-1].coef_, streamed[-1].coef_, rtol=1e-9, atol=1e-12)
        assert abs(mixed.score(X, y) - streamed.score(X, y)) < 0.05, (mixed.score(X, y), streamed.score(X, y))


def test_shard_files_of_a_hashed_table_standardise_its_columns_of_numbers_as_the_streamed_fit(client, tmp_path):
    """Hashed rows: the workers' ColumnStandardScalers of the columns of numbers, merged, are
    the streamed fit's."""
    from sklearn.pipeline import make_pipeline

    from perceptrons import stream
    from perceptrons.column_scaler import ColumnStandardScaler

    files, X, y = _table_shards(tmp_path, text=True)
    src = stream.Source(files, keep_missing=True)  # a missing number: left out, at the mean once standardised
    numbers = list(src.number_columns)
    assert len(numbers) == 3

    def make():
        return make_pipeline(ColumnStandardScaler(columns=numbers), AveragedPerceptron(max_epochs=4))

    streamed = stream.fit(make(), src)
    mixed = _quiet_ipm(make(), files, shards=3, client=client)
    for name in ("mean_", "var_"):
        np.testing.assert_allclose(getattr(mixed[0], name), getattr(streamed[0], name), rtol=1e-9)
    np.testing.assert_array_equal(mixed[0].n_samples_seen_, streamed[0].n_samples_seen_)
    assert mixed[0].n_rows_seen_ == 600


def test_every_shard_is_read_with_the_first_files_kinds(client, tmp_path):
    """A worker read its shard's columns by the shard's own first run: codes that happen to be all
    numbers there were a column of numbers where the first file's were words.  The workers read
    with the first file's kinds (Source.reader_options), as one file is read."""
    from perceptrons import stream
    from perceptrons.io.sources import Source

    rows = [(f"{i % 9}{'a' if i % 4 == 0 and i < 60 else ''}", (i * 7) % 11, "pq"[(i % 9) > 4]) for i in range(120)]
    text = ["code,x,y\n" + "".join(f"{c},{x},{t}\n" for c, x, t in part) for part in (rows[:60], rows[60:])]
    for k in range(2):
        (tmp_path / f"s{k}.csv").write_text(text[k])
    (tmp_path / "whole.csv").write_text(text[0] + text[1].split("\n", 1)[1])
    one = stream.fit(AveragedPerceptron(max_epochs=3), Source(str(tmp_path / "whole.csv"), hash_bits=12))
    mixed = _quiet_ipm(
        AveragedPerceptron(max_epochs=3), Source(str(tmp_path / "s*.csv"), hash_bits=12), shards=1, client=client
    )
    np.testing.assert_array_equal(mixed.coef_, one.coef_)


@pytest.mark.slow
def test_cli_scales_the_columns_of_shard_files(tmp_path):
    from perceptrons import load_model

    files = _scaled_shards(tmp_path)
    r = _cli("train", files, "-o", str(tmp_path / "m.npz"), "--workers", "2", "--epochs", "3")
    assert r.returncode == 0, r.stderr
    assert "merged from every worker's shards" in r.stdout
    model = load_model(tmp_path / "m.npz")
    assert [type(s).__name__ for _, s in model.steps] == ["MaxAbsScaler", "AveragedPerceptron"]
    r = _cli("evaluate", str(tmp_path / "m.npz"), str(tmp_path / "p0.svm"))
    assert r.returncode == 0 and "accuracy" in r.stdout, r.stderr
    r = _cli("train", files, "-o", str(tmp_path / "s.npz"), "--workers", "2", "--scale", "standard")
    assert r.returncode == 2 and "--scale: applies only as auto, maxabs or none to LIBSVM or VW shard" in r.stderr
    for text, steps in ((False, ["SimpleImputer", "StandardScaler"]), (True, ["ColumnStandardScaler"])):
        tables, _, _ = _table_shards(tmp_path / f"t{text}", text) if (tmp_path / f"t{text}").mkdir() is None else None
        r = _cli("train", tables, "-o", str(tmp_path / "t.npz"), "--workers", "2", "--epochs", "5")
        assert r.returncode == 0 and "standardised" in r.stdout, r.stdout + r.stderr
        model = load_model(tmp_path / "t.npz")
        assert [type(s).__name__ for _, s in model.steps] == [*steps, "AveragedPerceptron"]
        r = _cli("evaluate", str(tmp_path / "t.npz"), tables.replace("*", "1"))  # the shard of both classes
        assert r.returncode == 0 and float(r.stdout.split("accuracy")[1].split()[0]) > 0.75, r.stdout + r.stderr


@pytest.mark.parametrize(
    "name", ["Perceptron", "AveragedPerceptron", "PassiveAggressive", "AROW", "SecondOrderPerceptron", "Winnow"]
)
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("mix_every", [None, 70])
def test_threads_mix_as_the_cluster_does(client, name, n_classes, mix_every):
    """A fit in 2 threads is parameter mixing of the epoch's two halves, by the cluster's own mix:
    the same model as 2 shards of the same rows on the cluster, bit for bit; and with the same
    ``mix_every`` (600 rows, 2 shards, 70 a shard between mixes: 5 rounds an epoch) too."""
    import perceptrons

    cls = getattr(perceptrons, name)
    X, y = _data("dense", n_classes)
    if name == "Winnow":
        X = np.abs(X)
    threads = _quiet_fit(cls(max_epochs=3, n_jobs=2, mix_every=mix_every), X, y)
    ipm = _quiet_ipm(cls(max_epochs=3, mix_every=mix_every), X, y, shards=2, client=client)
    assert ipm.mixing_weights_.shape == (len(ipm.mistakes_per_epoch_) * (1 if mix_every is None else 5), 2)
    assert np.array_equal(threads.coef_, ipm.coef_)
    assert np.array_equal(threads.intercept_, ipm.intercept_)
    assert threads.mistakes_per_epoch_ == ipm.mistakes_per_epoch_
    # both count an online learner's updates, which a margin rule makes on rows it got right too
    assert threads.n_updates_ == ipm.n_updates_ >= sum(ipm.mistakes_per_epoch_)
