"""KernelPerceptron against the slow dual oracle of tests/reference.py, the primal Perceptron,
scikit-learn's kernels, and its own contracts (budget, cache, model files, bad input)."""

import warnings

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import pairwise_kernels

from perceptrons import KernelPerceptron, Perceptron, load_model, save_model
from perceptrons._core.errors import PerceptronsError

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

#: the dual PLA of the oracle (and the defaults before they were tuned): last iterate, classic rule, bias
PLA = {"averaged": False, "margin": 0.0, "fit_intercept": True}

KERNEL_PARAMS = {
    "linear": {},
    "poly": {"degree": 2, "gamma": 1.0, "coef0": 1.0},
    "rbf": {"gamma": 0.5},
    "sigmoid": {"gamma": 0.1, "coef0": 0.3},
}


def _data(n, d, n_classes, seed, integer=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(float) if integer else rng.normal(size=(n, d))
    y = rng.integers(0, n_classes, size=n)
    y[:n_classes] = np.arange(n_classes)
    return X, y


def _oracle(X, y, n_classes, kernel, **kw):
    params = KERNEL_PARAMS[kernel]
    fn = ref.REFERENCE_KERNELS[kernel]
    return ref.dual_perceptron(
        X.tolist(),
        y.tolist(),
        n_classes,
        lambda a, b: fn(a, b, params.get("gamma"), params.get("degree"), params.get("coef0")),
        **kw,
    )


def _coef_matrix(result, support):
    """Oracle coefficients of the support examples as (n_cols, n_sv), like dual_coef_."""
    return np.array([result["A"][j] for j in support]).T.reshape(len(result["b"]), len(support))


# ----------------------------------------------------------------------------- oracle: exact α
@pytest.mark.parametrize("kernel", sorted(KERNEL_PARAMS))
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("margin,fit_intercept", [(0.0, True), (0.5, False), (1.0, True)])
def test_alpha_matches_oracle(kernel, n_classes, margin, fit_intercept):
    exact = kernel in ("linear", "poly")  # integer data: every score is an exact integer
    X, y = _data(30, 3, n_classes, seed=7, integer=exact)
    epochs = 6
    want = _oracle(X, y, n_classes, kernel, fit_intercept=fit_intercept, max_epochs=epochs, margin=margin)
    clf = KernelPerceptron(
        kernel=kernel,
        fit_intercept=fit_intercept,
        max_epochs=epochs,
        margin=margin,
        averaged=False,
        **KERNEL_PARAMS[kernel],
    ).fit(X, y)
    assert clf.alpha_.tolist() == want["alpha"]
    assert clf.mistakes_per_epoch_ == want["mistakes_per_epoch"]
    assert clf.support_.tolist() == want["support"]
    np.testing.assert_allclose(clf.dual_coef_, _coef_matrix(want, want["support"]), atol=1e-12)
    np.testing.assert_allclose(clf.intercept_, want["b"] if fit_intercept else 0.0, atol=1e-12)
    assert clf.n_updates_ == sum(want["alpha"])


def test_sample_weight_matches_oracle():
    X, y = _data(25, 2, 3, seed=3)
    w = np.random.default_rng(1).choice([0.0, 0.5, 1.0, 2.0], size=25)
    want = _oracle(X, y, 3, "rbf", max_epochs=5, weights=w.tolist())
    clf = KernelPerceptron(kernel="rbf", gamma=0.5, max_epochs=5, **PLA).fit(X, y, sample_weight=w)
    assert clf.alpha_.tolist() == want["alpha"]
    np.testing.assert_allclose(clf.dual_coef_, _coef_matrix(want, want["support"]), atol=1e-12)


@pytest.mark.parametrize("n_classes", [2, 4])
def test_averaged_matches_mean_of_all_hypotheses(n_classes):
    X, y = _data(30, 3, n_classes, seed=11)
    want = _oracle(X, y, n_classes, "rbf", max_epochs=4, margin=0.3)
    A, b = ref.averaged_dual(want)
    clf = KernelPerceptron(gamma=0.5, max_epochs=4, margin=0.3, averaged=True, fit_intercept=True).fit(X, y)
    np.testing.assert_allclose(clf.dual_coef_, np.array([A[j] for j in want["support"]]).T, atol=1e-12)
    np.testing.assert_allclose(clf.intercept_, b, atol=1e-12)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_voted_matches_vote_of_all_hypotheses(n_classes):
    X, y = _data(30, 2, n_classes, seed=5)
    X_test = np.random.default_rng(9).normal(size=(40, 2))
    want = _oracle(X, y, n_classes, "rbf", max_epochs=4)
    expected = ref.voted_dual_predict(
        want, X.tolist(), X_test.tolist(), lambda a, b: ref.kernel_rbf(a, b, 0.5), n_classes
    )
    clf = KernelPerceptron(gamma=0.5, max_epochs=4, voted=True, margin=0.0, fit_intercept=True).fit(X, y)
    assert clf.predict(X_test).tolist() == expected
    # the state is one record per update, not one hypothesis per update
    assert clf._votes["sv"].shape == (clf.n_updates_,)


# ----------------------------------------------------------------------------- primal equivalence
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("margin", [0.0, 2.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_linear_kernel_is_the_primal_perceptron(n_classes, margin, fit_intercept):
    X, y = _data(60, 4, n_classes, seed=2, integer=True)
    X_test = np.random.default_rng(4).integers(-3, 4, size=(50, 4)).astype(float)
    primal = Perceptron(max_epochs=15, margin=margin, fit_intercept=fit_intercept).fit(X, y)
    dual = KernelPerceptron(
        kernel="linear", max_epochs=15, margin=margin, fit_intercept=fit_intercept, averaged=False
    ).fit(X, y)
    assert dual.mistakes_per_epoch_ == primal.mistakes_per_epoch_
    assert dual.predict(X_test).tolist() == primal.predict(X_test).tolist()
    np.testing.assert_array_equal(dual.dual_coef_ @ dual.support_vectors_, primal.coef_)
    np.testing.assert_array_equal(dual.intercept_, primal.intercept_)


# ----------------------------------------------------------------------------- kernels
@pytest.mark.parametrize("kernel", sorted(KERNEL_PARAMS))
def test_kernel_values_match_scikit_learn(kernel):
    X, y = _data(40, 5, 2, seed=1)
    clf = KernelPerceptron(kernel=kernel, max_epochs=3, **KERNEL_PARAMS[kernel]).fit(X, y)
    X_test = np.random.default_rng(2).normal(size=(7, 5))
    K = pairwise_kernels(X_test, clf.support_vectors_, metric=kernel, filter_params=True, **KERNEL_PARAMS[kernel])
    expected = (K @ clf.dual_coef_.T + clf.intercept_).ravel()
    np.testing.assert_allclose(clf.decision_function(X_test), expected, rtol=1e-10, atol=1e-10)


def test_gamma_scale_and_auto_as_in_svc():
    X, y = _data(30, 4, 2, seed=3)
    X *= 3.0
    assert KernelPerceptron(max_epochs=1).fit(X, y).gamma_ == pytest.approx(1 / (4 * X.var()))
    assert KernelPerceptron(gamma="auto", max_epochs=1).fit(X, y).gamma_ == pytest.approx(0.25)


def test_precomputed_and_callable_equal_the_named_kernel():
    X, y = _data(40, 3, 3, seed=8)
    X_test = np.random.default_rng(3).normal(size=(10, 3))
    named = KernelPerceptron(kernel="rbf", gamma=0.7, max_epochs=5).fit(X, y)
    K = pairwise_kernels(X, X, metric="rbf", gamma=0.7)
    pre = KernelPerceptron(kernel="precomputed", max_epochs=5).fit(K, y)

    def my_rbf(A, B):
        return pairwise_kernels(A, B, metric="rbf", gamma=0.7)

    call = KernelPerceptron(kernel=my_rbf, max_epochs=5).fit(X, y)
    assert pre.alpha_.tolist() == named.alpha_.tolist() == call.alpha_.tolist()
    K_test = pairwise_kernels(X_test, X, metric="rbf", gamma=0.7)
    np.testing.assert_allclose(pre.decision_function(K_test), named.decision_function(X_test), atol=1e-10)
    np.testing.assert_allclose(call.decision_function(X_test), named.decision_function(X_test), atol=1e-10)


def test_small_cache_gives_the_same_run_as_the_full_matrix():
    X, y = _data(300, 5, 3, seed=12)
    full = KernelPerceptron(gamma=0.3, max_epochs=6, margin=0.5).fit(X, y)
    # rows of 300 float64: 0.005 MB holds two rows, 0.5 MB 218 — rows are evicted and recomputed
    tiny = KernelPerceptron(gamma=0.3, max_epochs=6, margin=0.5, cache_size=0.005).fit(X, y)
    lru = KernelPerceptron(gamma=0.3, max_epochs=6, margin=0.5, cache_size=0.5).fit(X, y)
    assert full.n_kernel_rows_ == 300
    assert tiny.n_kernel_rows_ > lru.n_kernel_rows_
    for other in (tiny, lru):
        assert other.alpha_.tolist() == full.alpha_.tolist()
        np.testing.assert_allclose(other.dual_coef_, full.dual_coef_, atol=1e-9)


def test_float32_input_keeps_float32_support_vectors():
    X, y = _data(40, 3, 2, seed=1)
    clf = KernelPerceptron(max_epochs=3).fit(X.astype(np.float32), y)
    assert clf.support_vectors_.dtype == np.float32


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
def test_rbf_separates_any_labelling_of_distinct_points(seed, n_classes):
    # A Gaussian Gram matrix of distinct points is positive definite, so every labelling is
    # separable in feature space and the (multiclass) perceptron must converge on it.  Points
    # on distinct cells of a grid keep the margin away from 0, so 500 epochs are plenty.
    rng = np.random.default_rng(seed)
    cells = rng.choice(100, size=25, replace=False)
    X = np.column_stack([cells // 10, cells % 10]).astype(float)
    y = rng.integers(0, n_classes, size=25)
    y[:n_classes] = np.arange(n_classes)
    clf = KernelPerceptron(gamma=5.0, max_epochs=500, fit_intercept=False).fit(X, y)
    assert clf.converged_
    # A point far from every support example scores ~e^-45; only there may rounding (a sum in
    # another order at predict time) decide the sign, so those scores are left out.
    scores = clf.decision_function(X)
    clear = np.abs(scores).max(axis=1) > 1e-9 if scores.ndim == 2 else np.abs(scores) > 1e-9
    assert (clf.predict(X) == y)[clear].all()


def test_callback_stops_and_warns_otherwise():
    X, y = _data(60, 2, 2, seed=4)
    seen = []
    clf = KernelPerceptron(kernel="linear", max_epochs=50).fit(
        X, y, callback=lambda e, m, t: seen.append((e, m)) or e < 3
    )
    assert clf.n_epochs_ == 3 and [e for e, _ in seen] == [1, 2, 3]
    for kw, warns in [({"averaged": False}, True), ({}, False), ({"voted": True}, False)]:
        # only a model that predicts with its last iterate failed by stopping with mistakes left
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            clf = KernelPerceptron(kernel="linear", max_epochs=2, **kw).fit(X, y)
        assert not clf.converged_ and clf.predicts_last_iterate is warns
        assert any(issubclass(w.category, ConvergenceWarning) for w in caught) is warns, kw


# ----------------------------------------------------------------------------- model files
@pytest.mark.parametrize(
    "kw", [{}, {"averaged": True, "kernel": "poly"}, {"voted": True}, {"budget": 5, "random_state": 0}]
)
def test_model_file_round_trip(tmp_path, kw):
    X, y = _data(50, 3, 3, seed=6)
    clf = KernelPerceptron(max_epochs=5, **kw).fit(X, y)
    save_model(clf, tmp_path / "k.model")
    back = load_model(tmp_path / "k.model")
    X_test = np.random.default_rng(0).normal(size=(20, 3))
    np.testing.assert_array_equal(back.decision_function(X_test), clf.decision_function(X_test))
    np.testing.assert_array_equal(back.support_vectors_, clf.support_vectors_)


def test_precomputed_model_file_round_trip(tmp_path):
    X, y = _data(30, 3, 2, seed=6)
    K = pairwise_kernels(X, X, metric="rbf", gamma=0.5)
    clf = KernelPerceptron(kernel="precomputed", max_epochs=5).fit(K, y)
    save_model(clf, tmp_path / "p.model")
    np.testing.assert_array_equal(load_model(tmp_path / "p.model").predict(K), clf.predict(K))


def test_callable_kernel_cannot_be_saved(tmp_path):
    X, y = _data(20, 2, 2, seed=6)
    clf = KernelPerceptron(kernel=lambda A, B: A @ B.T, max_epochs=2).fit(X, y)
    with pytest.raises(PerceptronsError, match="callable kernel .* cannot be saved"):
        save_model(clf, tmp_path / "c.model")
    assert not (tmp_path / "c.model").exists()


# ----------------------------------------------------------------------------- bad input
X_BAD, Y_BAD = _data(20, 3, 2, seed=0)


def test_unknown_kernel_lists_the_names():
    with pytest.raises(
        PerceptronsError, match=r"'kernel'.*'linear', 'poly', 'rbf', 'sigmoid', 'precomputed'.*Got 'gauss'"
    ):
        KernelPerceptron(kernel="gauss").fit(X_BAD, Y_BAD)


@pytest.mark.parametrize("gamma", [0.0, -1.0])
def test_gamma_must_be_positive(gamma):
    with pytest.raises(PerceptronsError, match=rf"'gamma'.*range \(0.0, inf\).*Got {gamma}"):
        KernelPerceptron(gamma=gamma).fit(X_BAD, Y_BAD)


def test_callable_kernel_with_wrong_shape_is_named():
    def short(A, B):
        return (A @ B.T)[:, :-1]

    with pytest.raises(
        PerceptronsError, match=r"kernel callable 'short' returned an array of shape \(\d+, 19\); expected"
    ):
        KernelPerceptron(kernel=short).fit(X_BAD, Y_BAD)


def test_callable_kernel_with_nan_is_named():
    def holey(A, B):
        K = A @ B.T
        K[0, 0] = np.nan
        return K

    with pytest.raises(PerceptronsError, match="kernel callable 'holey' returned NaN"):
        KernelPerceptron(kernel=holey).fit(X_BAD, Y_BAD)


def test_precomputed_must_be_square_at_fit():
    with pytest.raises(PerceptronsError, match=r"square training kernel matrix.*\(20, 20\), got \(20, 3\)"):
        KernelPerceptron(kernel="precomputed").fit(X_BAD, Y_BAD)


def test_precomputed_needs_train_columns_at_predict():
    K = X_BAD @ X_BAD.T
    clf = KernelPerceptron(kernel="precomputed", max_epochs=2).fit(K, Y_BAD)
    with pytest.raises(PerceptronsError, match=r"X has 3 features.*\(n_test, n_train\).*\(20\)"):
        clf.predict(X_BAD)


@pytest.mark.parametrize("budget", [0, -3])
def test_budget_below_one(budget):
    with pytest.raises(PerceptronsError, match=rf"'budget'.*\[1, 10000000\].*Got {budget}"):
        KernelPerceptron(budget=budget).fit(X_BAD, Y_BAD)


def test_averaged_and_voted_together_is_refused():
    with pytest.raises(PerceptronsError, match="averaged=True or voted=True, not both"):
        KernelPerceptron(averaged=True, voted=True).fit(X_BAD, Y_BAD)


def test_voted_with_budget_is_refused():
    with pytest.raises(PerceptronsError, match="cannot honour budget=10"):
        KernelPerceptron(voted=True, budget=10).fit(X_BAD, Y_BAD)


def test_sparse_input_equals_dense():
    import scipy.sparse as sp

    X, y = _data(40, 6, 3, seed=13)
    X[X < 0.3] = 0.0
    X_test = np.random.default_rng(5).normal(size=(10, 6))
    dense = KernelPerceptron(gamma=0.4, max_epochs=4).fit(X, y)
    sparse = KernelPerceptron(gamma=0.4, max_epochs=4).fit(sp.csr_matrix(X), y)
    assert sparse.alpha_.tolist() == dense.alpha_.tolist()
    np.testing.assert_allclose(
        sparse.decision_function(sp.csr_matrix(X_test)), dense.decision_function(X_test), atol=1e-12
    )


def test_progress_within_an_epoch():
    """``progress(epoch, visited, n)`` comes within each epoch, at the loop's stops for a kernel
    row: positions only grow within an epoch and never pass the epoch's rows; the fit is the
    same fit with it as without it."""
    X, y = _data(300, 4, 2, seed=7)
    calls = []
    kw = {"kernel": "rbf", "max_epochs": 3, "cache_size": 0.05, "averaged": False, "margin": 0.0}
    with_progress = KernelPerceptron(**kw).fit(X, y, progress=lambda *a: calls.append(a))
    plain = KernelPerceptron(**kw).fit(X, y)
    np.testing.assert_array_equal(with_progress.decision_function(X), plain.decision_function(X))
    assert calls and {n for _, _, n in calls} == {300}
    for epoch in {e for e, _, _ in calls}:
        visited = [v for e, v, _ in calls if e == epoch]
        assert visited == sorted(visited) and 0 <= visited[0] and visited[-1] < 300
    assert {e for e, _, _ in calls} <= set(range(1, with_progress.n_epochs_ + 1))
    with pytest.raises(PerceptronsError, match="progress"):
        KernelPerceptron().fit(X, y, progress=3)
