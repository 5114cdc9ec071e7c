"""The numba kernels against the slow, obvious versions in tests/reference.py.

Integer-valued data keeps every sum exact, so cyclic runs must agree bit for bit: weights,
update counts and the mistake history — dense, CSR with values, CSR of ones, binary, multiclass.
"""

import os
import subprocess
import sys

import numpy as np
import pytest
import reference as ref
import scipy.sparse as sp
from numba import config, njit

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron
from perceptrons._core.errors import PerceptronsError
from perceptrons._jit.fence import fenced
from perceptrons._jit.index import unsigned
from perceptrons._jit.rows import dense_ahead

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def int_data(seed, n=60, d=5, k=2, density=1.0, ones=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    if ones:
        X = (rng.random((n, d)) < 0.4).astype(np.float64)
    X[rng.random((n, d)) > density] = 0.0
    W = rng.standard_normal((k, d))
    y = np.argmax(X @ W.T + rng.normal(0, 1.0, (n, k)), axis=1)
    y[:k] = np.arange(k)  # every class present
    return X, y


STORAGES = {
    "dense": lambda X: X,
    "dense32": lambda X: X.astype(np.float32),
    "csr": lambda X: sp.csr_matrix(X),
    "csr-int64": lambda X: _int64(sp.csr_matrix(X)),
    "csr32": lambda X: sp.csr_matrix(X.astype(np.float32)),  # float32 weights: exact on integers
}


def _int64(A):
    A.indices = A.indices.astype(np.int64)
    A.indptr = A.indptr.astype(np.int64)
    return A


@pytest.mark.parametrize("storage", list(STORAGES))
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_binary_pla_matches_reference(storage, seed, fit_intercept):
    X, y = int_data(seed, density=0.6)
    pm = np.where(y == 1, 1, -1)
    w, b, k, hist = ref.pla(X.tolist(), pm.tolist(), fit_intercept=fit_intercept, max_epochs=25)
    est = Perceptron(fit_intercept=fit_intercept, max_epochs=25).fit(STORAGES[storage](X), pm)
    assert est.coef_.ravel().tolist() == w
    assert est.intercept_[0] == b
    assert est.n_updates_ == k
    assert est.mistakes_per_epoch_ == hist


def test_binary_pla_on_ones_csr_matches_reference():
    X, y = int_data(7, n=80, d=12, ones=True)
    A = sp.csr_matrix(X)
    assert np.all(A.data == 1)
    pm = np.where(y == 1, 1, -1)
    w, b, k, hist = ref.pla(X.tolist(), pm.tolist(), max_epochs=30)
    est = Perceptron(max_epochs=30).fit(A, pm)
    assert (est.coef_.ravel().tolist(), est.intercept_[0], est.n_updates_, est.mistakes_per_epoch_) == (w, b, k, hist)


@njit
def _gather(w, ind):
    out = np.empty(ind.shape[0])
    for p in range(ind.shape[0]):
        out[p] = w[unsigned(ind[unsigned(p)])]
    return out


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_unsigned_indices_read_what_numpy_reads(dtype):
    """The sparse loops index through ``unsigned`` (no negative-index wraparound): compiled and
    as Python, every valid index reads the element numpy reads, up to the last."""
    w = np.arange(1000.0) * 1.5
    ind = np.array([0, 999, 3, 3, 512, 998], dtype=dtype)
    assert _gather(w, ind).tolist() == w[ind].tolist()


@njit(fastmath=True)
def _fenced_dot(x, w):
    s = 0.0
    for j in range(x.shape[0]):
        s = fenced(s + fenced(x[j] * w[j]))
    return s


@njit(fastmath=True)
def _loose_dot(x, w):
    s = 0.0
    for j in range(x.shape[0]):
        s += x[j] * w[j]
    return s


def test_fenced_sums_are_the_order_written():
    """The sparse rows' sums are fenced inside loops compiled with every fast-math flag: the
    result is Python's, product by product, rounded in order.  Values over 16 orders of
    magnitude make any other order or a fused multiply-add visible, as the unfenced loop shows."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1001) * 10.0 ** rng.uniform(-8, 8, 1001)
    w = rng.standard_normal(1001)
    expected = 0.0
    for a, b in zip(x.tolist(), w.tolist()):
        expected += a * b
    assert _fenced_dot(x, w) == expected
    if not config.DISABLE_JIT:
        assert _loose_dot(x, w) != expected


_MULTICLASS_CSR = """
import numpy as np, scipy.sparse as sp, sys, warnings
from perceptrons import AveragedPerceptron, Perceptron
warnings.simplefilter("ignore")
rng = np.random.default_rng(4)
X = sp.random(200, 40, density=0.2, format="csr", random_state=4)
X.data = rng.standard_normal(X.nnz) * 10.0 ** rng.uniform(-6, 6, X.nnz)
y = rng.integers(0, 3, 200)
fits = [cls(max_epochs=3).fit(X, y) for cls in (Perceptron, AveragedPerceptron)]
sys.stdout.write(b"".join(np.ascontiguousarray(f.coef_).tobytes() for f in fits).hex())
"""


@pytest.mark.slow
def test_multiclass_csr_compiled_is_the_python_order():
    """Multiclass CSR rows with real values, over 12 orders of magnitude: the compiled loops
    (fastmath, their sparse sums fenced) give the plain-Python bodies' weights bit for bit, every
    product rounded before its add; a fused multiply-add in the averaging sums would not."""
    runs = [
        subprocess.run(
            [sys.executable, "-c", _MULTICLASS_CSR],
            env={**os.environ, "NUMBA_DISABLE_JIT": flag},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for flag in ("0", "1")
    ]
    assert runs[0] and runs[0] == runs[1]


@pytest.mark.parametrize("dtype, d", [(np.float64, 40), (np.float32, 100)])
def test_rows_the_loops_prefetch_match_reference(dtype, d):
    """Rows of 320 and 400 bytes, which the dense loops ask for a few rows ahead: the binary,
    multiclass and pocket loops still follow the reference exactly."""
    X, y = int_data(5, n=60, d=d, k=3, density=0.5)
    Xd = X.astype(dtype)
    assert dense_ahead(Xd)  # the prefetching path is the one under test
    pm = np.where(y == 1, 1, -1)
    w, b, k, hist = ref.pla(X.tolist(), pm.tolist(), max_epochs=20)
    est = Perceptron(max_epochs=20).fit(Xd, pm)
    assert (est.coef_.ravel().tolist(), est.intercept_[0], est.n_updates_, est.mistakes_per_epoch_) == (w, b, k, hist)
    W, bm, km, hist = ref.multiclass_pla(X.tolist(), y.tolist(), 3, max_epochs=20)
    est = Perceptron(max_epochs=20).fit(Xd, y)
    assert (est.coef_.tolist(), est.intercept_.tolist(), est.n_updates_, est.mistakes_per_epoch_) == (W, bm, km, hist)
    pw, pb, errs, _ = ref.pocket(X.tolist(), pm.tolist(), max_epochs=10)
    est = PocketPerceptron(max_epochs=10).fit(Xd, pm)
    assert (est.coef_.ravel().tolist(), est.intercept_[0], est.pocket_errors_) == (pw, pb, errs)


@pytest.mark.parametrize("storage", list(STORAGES))
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("margin", [0.0, 2.0])
def test_multiclass_pla_matches_reference(storage, seed, margin):
    X, y = int_data(seed, n=70, d=6, k=4, density=0.7)
    W, b, k, hist = ref.multiclass_pla(X.tolist(), y.tolist(), 4, max_epochs=15, margin=margin)
    est = Perceptron(max_epochs=15, margin=margin).fit(STORAGES[storage](X), y)
    assert est.coef_.tolist() == W
    assert est.intercept_.tolist() == b
    assert (est.n_updates_, est.mistakes_per_epoch_) == (k, hist)


def test_sample_weights_match_reference():
    X, y = int_data(3)
    pm = np.where(y == 1, 1, -1)
    weights = np.random.default_rng(0).integers(0, 4, size=len(y)).astype(float)
    w, b, k, hist = ref.pla(X.tolist(), pm.tolist(), max_epochs=10, weights=weights.tolist())
    est = Perceptron(max_epochs=10).fit(X, pm, sample_weight=weights)
    assert (est.coef_.ravel().tolist(), est.intercept_[0], est.n_updates_) == (w, b, k)
    X3, y3 = int_data(4, k=3)
    W, bm, km, hist = ref.multiclass_pla(X3.tolist(), y3.tolist(), 3, max_epochs=10, weights=weights.tolist())
    est = Perceptron(max_epochs=10).fit(X3, y3, sample_weight=weights)
    assert (est.coef_.tolist(), est.intercept_.tolist(), est.n_updates_, est.mistakes_per_epoch_) == (W, bm, km, hist)


@pytest.mark.parametrize("storage", ["dense", "csr"])
@pytest.mark.parametrize("ratchet", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_pocket_matches_reference(storage, ratchet, seed):
    X, y = int_data(seed, n=50, d=4)
    pm = np.where(y == 1, 1, -1)
    pw, pb, hist, repl = ref.pocket(X.tolist(), pm.tolist(), max_epochs=12, ratchet=ratchet)
    est = PocketPerceptron(max_epochs=12, ratchet=ratchet).fit(STORAGES[storage](X), pm)
    assert est.coef_.ravel().tolist() == pw
    assert est.intercept_[0] == pb
    assert est.pocket_errors_ == hist
    assert est.pocket_updates_ == repl


@pytest.mark.parametrize("storage", ["dense", "csr", "dense32"])
@pytest.mark.parametrize("seed", range(3))
def test_averaged_matches_explicit_mean(storage, seed):
    X, y = int_data(seed, n=40, d=5)
    pm = np.where(y == 1, 1, -1)
    w, b = ref.averaged(X.tolist(), pm.tolist(), max_epochs=8)
    est = AveragedPerceptron(max_epochs=8).fit(STORAGES[storage](X), pm)
    np.testing.assert_allclose(est.coef_.ravel(), w, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(est.intercept_[0], b, rtol=1e-12, atol=1e-12)


def test_averaged_across_partial_fit_equals_one_fit():
    X, y = int_data(5, n=40, d=5)
    one = AveragedPerceptron(max_epochs=3).fit(X, y)
    assert one.n_epochs_ == 3  # noisy labels: no early convergence, so three passes either way
    parts = AveragedPerceptron()
    for _ in range(3):
        parts.partial_fit(X, y, classes=[0, 1])
    np.testing.assert_allclose(parts.coef_, one.coef_, rtol=1e-12)


@pytest.mark.parametrize("storage", ["dense", "csr"])
@pytest.mark.parametrize("seed", range(3))
def test_voted_matches_reference(storage, seed):
    X, y = int_data(seed, n=40, d=4)
    pm = np.where(y == 1, 1, -1)
    vectors = ref.voted(X.tolist(), pm.tolist(), max_epochs=6)
    est = VotedPerceptron(max_epochs=6).fit(STORAGES[storage](X), pm)
    assert est.vectors_.tolist() == [w for w, _, _ in vectors]
    assert est.vector_intercepts_.tolist() == [b for _, b, _ in vectors]
    assert est.vector_counts_.tolist() == [c for _, _, c in vectors]
    Xt, _ = int_data(seed + 100, n=30, d=4)
    assert est.predict(Xt).tolist() == ref.voted_predict(vectors, Xt.tolist())


def test_voted_weighted_mean_is_the_average():
    X, y = int_data(11, n=60, d=5, k=3)
    v = VotedPerceptron(max_epochs=5).fit(X, y)
    a = AveragedPerceptron(max_epochs=5).fit(X, y)
    mean = np.tensordot(v.vector_counts_, v.vectors_, axes=1) / v.vector_counts_.sum()
    np.testing.assert_allclose(mean, a.coef_, rtol=1e-10, atol=1e-12)


def test_voted_max_vectors_keeps_the_longest_surviving():
    X, y = int_data(2, n=80, d=5)
    full = VotedPerceptron(max_epochs=5).fit(X, y)
    capped = VotedPerceptron(max_epochs=5, max_vectors=5).fit(X, y)
    assert capped.n_vectors_ == 5
    assert capped.n_vectors_dropped_ == full.n_vectors_ - 5
    # the last (current) vector is always kept; the other four are the longest-surviving finished ones
    finished = sorted(full.vector_counts_[:-1].tolist(), reverse=True)[:4]
    assert sorted(capped.vector_counts_[:-1].tolist(), reverse=True) == finished


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("model_file", [False, True])
def test_voted_partial_fits_equal_one_fit(tmp_path, k, model_file):
    """Each partial_fit stacks only the vectors it finished (it restacked the whole run: 50
    partial_fits of 50,000 rows took 24 s); the run's vectors are the one fit's, also when it
    resumes from a model file."""
    from perceptrons import load_model, save_model

    X, y = int_data(7, n=50, d=4, k=k)
    one = VotedPerceptron(max_epochs=6).fit(X, y)
    parts = VotedPerceptron()
    for epoch in range(6):
        if model_file and epoch == 3:
            save_model(parts, tmp_path / "v.npz")
            parts = load_model(tmp_path / "v.npz")
        parts.partial_fit(X, y, classes=np.unique(y))
    for name in ("vectors_", "vector_intercepts_", "vector_counts_"):
        assert getattr(parts, name).tolist() == getattr(one, name).tolist(), name


def test_voted_cap_set_between_partial_fits_keeps_the_longest_surviving():
    """A cap set after uncapped partial_fits dropped one vector a step, never reaching it."""
    X, y = int_data(3, n=60, d=5)
    full, capped = VotedPerceptron(), VotedPerceptron()
    for epoch in range(4):
        if epoch == 2:
            capped.set_params(max_vectors=4)
        full.partial_fit(X, y, classes=[0, 1])
        capped.partial_fit(X, y, classes=[0, 1])
    assert capped.n_vectors_ == 4 and capped.n_vectors_dropped_ == full.n_vectors_ - 4
    # the current vector, and the three finished ones that lasted longest (later first on a tie)
    order = sorted(range(full.n_vectors_ - 1), key=lambda i: (full.vector_counts_[i], i))[-3:]
    kept = [*sorted(order), full.n_vectors_ - 1]
    assert capped.vectors_.tolist() == full.vectors_[kept].tolist()
    assert capped.vector_counts_.tolist() == full.vector_counts_[kept].tolist()


@pytest.mark.parametrize("seed", range(3))
def test_binary_votes_match_reference(seed):
    """The compiled vote the report's training curve uses, vector by vector, against the
    reference's sum in its own order: equal, not close."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(70, 3))
    pm = np.where(X @ [1.0, -2.0, 0.5] + rng.normal(scale=0.8, size=70) > 0, 1, -1)
    est = VotedPerceptron(max_epochs=4).fit(X, pm)
    vectors = list(zip(est.vectors_.tolist(), est.vector_intercepts_.tolist(), est.vector_counts_.tolist()))
    Xt = rng.normal(size=(40, 3)).tolist()
    want = [sum(c * (1 if ref.dot(w, x) + b >= 0 else -1) for w, b, c in vectors) for x in Xt]
    m = est.n_vectors_
    assert est.vote_sum(np.array(Xt), 0, m).tolist() == want
    # in two parts, as the curve adds them
    parts = est.vote_sum(np.array(Xt), 0, m // 2) + est.vote_sum(np.array(Xt), m // 2, m)
    assert parts.tolist() == want


def test_binary_votes_refuse_an_overflow():
    est = VotedPerceptron(max_epochs=2).fit([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]], [0, 1, 1])
    X = np.array([[1.0, 1.0], [1e308, 1e308]])
    with pytest.raises(PerceptronsError, match="the score of row 1 overflowed"):
        est.vote_sum(X, 0, est.n_vectors_)


@pytest.mark.parametrize("storage", list(STORAGES))
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("seed", range(3))
def test_random_mistake_matches_reference(storage, k, seed):
    # The estimator draws one r per step from default_rng(random_state); zero init draws none.
    X, y = int_data(seed, n=40, d=4, k=k)
    steps = 25
    rs = np.random.default_rng(seed).random(steps).tolist()
    labels = np.where(y == 1, 1, -1) if k == 2 else y
    W, b, hist = ref.random_mistake_pla(X.tolist(), labels.tolist(), rs, n_classes=k)
    est = Perceptron(order="random-mistake", max_epochs=steps, random_state=seed).fit(STORAGES[storage](X), labels)
    assert est.coef_.tolist() == W
    assert est.intercept_.tolist() == b
    assert est.mistakes_per_epoch_ == hist
    assert est.n_updates_ == sum(1 for m in hist if m)


@pytest.mark.parametrize("storage", list(STORAGES))
@pytest.mark.parametrize("ratchet", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_multiclass_pocket_matches_reference(storage, ratchet, seed):
    X, y = int_data(seed, n=45, d=4, k=3)
    pW, pb, hist, repl = ref.multiclass_pocket(X.tolist(), y.tolist(), 3, max_epochs=10, ratchet=ratchet)
    est = PocketPerceptron(max_epochs=10, ratchet=ratchet).fit(STORAGES[storage](X), y)
    assert est.coef_.tolist() == pW
    assert est.intercept_.tolist() == pb
    assert est.pocket_errors_ == hist
    assert est.pocket_updates_ == repl


@pytest.mark.parametrize("storage", ["dense", "csr"])
@pytest.mark.parametrize("k", [2, 3])
def test_random_mistake_averaging_does_not_change_the_path(storage, k):
    # The averaged estimator keeps its sums beside the same run: its last iterate is the PLA's.
    X, y = int_data(5, n=40, d=4, k=k)
    kw = {"order": "random-mistake", "max_epochs": 25, "random_state": 1}
    plain = Perceptron(**kw).fit(STORAGES[storage](X), y)
    avg = AveragedPerceptron(**kw).fit(STORAGES[storage](X), y)
    assert avg.last_coef_.tolist() == plain.coef_.tolist()
    assert avg.mistakes_per_epoch_ == plain.mistakes_per_epoch_
    assert not np.array_equal(avg.coef_, avg.last_coef_)  # the average is another vector


@pytest.mark.slow
@pytest.mark.parametrize("storage", list(STORAGES))
@pytest.mark.parametrize("k", [2, 3])
def test_loops_given_none_equal_loops_given_the_arrays(storage, k):
    """perm, u and log given as None are compiled out (_jit/visits.py): the same pass as with the
    identity permutation, averaging sums and a log that are there but hold nothing, bit for bit."""
    from perceptrons._core.operands import to_operand
    from perceptrons._jit import linear as K

    X, y = int_data(11, n=50, d=6, k=k, density=0.7)
    Xop = to_operand(STORAGES[storage](X))
    yi = y.astype(np.int64)
    scale = np.where(np.arange(50) % 7 == 3, 0.0, 1.0)  # some rows weighted 0: skipped either way
    shape = (6,) if k == 2 else (6, k)
    nb = 1 if k == 2 else k
    epoch = K.epoch_binary if k == 2 else K.epoch_multiclass
    runs = []
    for perm, sums, log in [
        (None, None, None),
        (np.arange(50), np.zeros((0,) + shape[1:]), np.zeros((0, 3), np.int64)),
    ]:
        w, b, ub, count = np.zeros(shape), np.zeros(nb), np.zeros(nb), np.zeros(1, np.int64)
        out = [epoch(Xop, yi, scale, perm, w, b, (True, 0.0), sums, ub, count, log, None) for _ in range(3)]
        runs.append((out, w, b, ub, count))
    (out0, *arrays0), (out1, *arrays1) = runs
    assert out0 == out1
    assert all(np.array_equal(a, c) for a, c in zip(arrays0, arrays1))
    assert out0[0][0] > 0  # the pass made updates: the comparison saw the update path
