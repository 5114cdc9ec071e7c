"""Exact separability with certificates (perceptrons.theory.separability)."""

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from perceptrons import Perceptron
from perceptrons._core.errors import PerceptronsError
from perceptrons.theory import is_separable, max_margin, novikoff_bound


def _check_certificate(r, X, y, fit_intercept=True):
    classes = np.unique(y)
    s = np.where(np.asarray(y) == classes[1], 1.0, -1.0)
    if r.separable:
        scores = s * (X @ r.coef + (r.intercept if fit_intercept else 0.0))
        assert scores.min() > 0
        assert r.multipliers is None
    else:
        lam = r.multipliers
        assert lam.min() >= 0 and lam.sum() == pytest.approx(1.0)
        Z = (np.hstack([X, np.ones((len(X), 1))]) if fit_intercept else X) * s[:, None]
        R = np.linalg.norm(Z, axis=1).max()
        assert np.linalg.norm(lam @ Z) <= 1e-6 * R
        assert r.residual <= 1e-6
        if fit_intercept:  # the two convex combinations meet at witness_point
            pos, neg = s > 0, s < 0
            assert lam[pos].sum() == pytest.approx(0.5, abs=1e-6)
            np.testing.assert_allclose(lam[neg] @ X[neg] / lam[neg].sum(), r.witness_point, atol=1e-6 * R)


def test_xor_witness_is_the_centre():
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], dtype=float)
    y = np.array(["a", "a", "b", "b"])
    for method in ("auto", "cutting-plane", "lp"):
        r = is_separable(X, y, method=method)
        assert not r.separable
        np.testing.assert_allclose(r.witness_point, [0.5, 0.5], atol=1e-9)
        _check_certificate(r, X, y)
    assert "not separable" in r.summary()


def test_separable_any_labels_and_summary():
    X = np.array([[0.0, 0.0], [1.0, 0.2], [3.0, 3.0], [4.0, 2.5]])
    for y in ([False, False, True, True], ["cat", "cat", "dog", "dog"], [7, 7, 9, 9]):
        r = is_separable(X, y)
        assert r.separable and r.margin > 0
        assert r.classes.tolist() == sorted(set(y))
        _check_certificate(r, X, np.asarray(y))
    assert "separable" in r.summary()


def test_through_origin_differs_from_affine():
    X = np.array([[1.0], [2.0]])
    y = [0, 1]
    assert is_separable(X, y).separable
    r = is_separable(X, y, fit_intercept=False)  # both on the same side of 0
    assert not r.separable
    _check_certificate(r, X, np.array(y), fit_intercept=False)


def test_duplicate_point_with_two_labels():
    X = np.array([[1.0, 2.0], [1.0, 2.0], [5.0, 5.0], [-3.0, 0.0]])
    y = [0, 1, 1, 0]
    r = is_separable(X, y)
    assert not r.separable
    np.testing.assert_allclose(r.witness_point, [1.0, 2.0], atol=1e-9)


def _separable_set(seed, n, d, fit_intercept, gap=0.05):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    b = rng.standard_normal() if fit_intercept else 0.0
    s = X @ w + b
    keep = np.abs(s) > gap * np.linalg.norm(w)
    return X[keep], np.where(s[keep] > 0, 1, -1)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(6, 60), d=st.integers(2, 20), bias=st.booleans())
def test_agrees_with_pla_and_max_margin_on_separable(seed, n, d, bias):
    X, y = _separable_set(seed, n, d, bias)
    assume(len(np.unique(y)) == 2)
    for method in ("auto", "cutting-plane", "lp"):
        r = is_separable(X, y, fit_intercept=bias, method=method)
        assert r.separable
        _check_certificate(r, X, y, bias)
    nb = novikoff_bound(X, y, fit_intercept=bias)
    clf = Perceptron(fit_intercept=bias, max_epochs=int(nb.bound) + 2).fit(X, y)
    assert clf.converged_ and clf.n_updates_ <= nb.bound


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**31), d=st.integers(1, 8), extra=st.integers(0, 30), bias=st.booleans())
def test_agrees_with_max_margin_on_inseparable(seed, d, extra, bias):
    rng = np.random.default_rng(seed)
    # Cover: more than 2(d + 1) random points with random labels are rarely separable, and a
    # point repeated with both labels never is — keep only sets whose label flip makes it sure.
    n = 2 * (d + 1) + extra
    X = rng.standard_normal((n, d))
    y = rng.integers(0, 2, n)
    X = np.vstack([X, X[:1]])
    y = np.r_[y, 1 - y[0]]
    mm = max_margin(X, y, fit_intercept=bias)
    assert not mm.separable
    for method in ("auto", "cutting-plane", "lp"):
        r = is_separable(X, y, fit_intercept=bias, method=method)
        assert not r.separable
        _check_certificate(r, X, y, bias)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(4, 40), d=st.integers(1, 6), bias=st.booleans())
# the PLA's sums passed a row whose exact score is 0; numpy's X @ coef gave it -1.3e-17
@example(seed=6711, n=4, d=2, bias=False)
def test_random_labels_all_methods_and_qp_agree(seed, n, d, bias):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).round(1)  # rounding makes ties and touching hulls common
    y = rng.integers(0, 2, n)
    assume(len(np.unique(y)) == 2)
    answers = {m: is_separable(X, y, fit_intercept=bias, method=m) for m in ("auto", "cutting-plane", "lp")}
    mm = max_margin(X, y, fit_intercept=bias)
    assert {a.separable for a in answers.values()} == {mm.separable}
    for a in answers.values():
        _check_certificate(a, X, y, bias)


def test_cutting_plane_uses_a_working_set():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((4000, 5))
    y = (X @ np.arange(1.0, 6.0) > 0).astype(int)
    flip = rng.choice(4000, 200, replace=False)
    y[flip] = 1 - y[flip]
    r = is_separable(X, y, method="cutting-plane")
    assert not r.separable and r.n_lp_rows < 4000
    _check_certificate(r, X, y)
    y2 = (X @ np.arange(1.0, 6.0) > 0).astype(int)
    r2 = is_separable(X, y2, method="cutting-plane")
    assert r2.separable and r2.n_lp_rows < 4000
    _check_certificate(r2, X, y2)


@pytest.mark.data
@pytest.mark.slow
def test_a9a_is_not_separable(shared_data):
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(shared_data("a9a") / "a9a"), n_features=123)
    X = X[:6000].toarray()
    y = y[:6000]
    r = is_separable(X, y)
    assert not r.separable
    _check_certificate(r, X, y)


def test_bad_input():
    with pytest.raises(PerceptronsError, match="finite"):
        is_separable([[0.0], [np.nan]], [0, 1])
    with pytest.raises(PerceptronsError, match="at least two classes"):
        is_separable([[0.0], [1.0]], [3, 3])
    with pytest.raises(PerceptronsError, match="method"):
        is_separable([[0.0], [1.0]], [0, 1], method="simplex")
    with pytest.raises(PerceptronsError, match="fit_intercept"):
        is_separable([[0.0], [1.0]], [0, 1], fit_intercept="yes")
    with pytest.raises(PerceptronsError, match="one label per sample"):
        is_separable([[0.0], [1.0]], [0, 1, 1])
    with pytest.raises(PerceptronsError, match="pla_epochs"):
        is_separable([[0.0], [1.0]], [0, 1], pla_epochs=-1)
    with pytest.raises(PerceptronsError, match="working_size"):
        is_separable([[0.0], [1.0]], [0, 1], working_size=0)
    assert is_separable([[0.0], [1.0]], [0, 1], pla_epochs=0).method == "cutting-plane"


@pytest.mark.parametrize("labels", ["teacher", "random"])
def test_wide_dense_sets_interior_point_agrees_with_highs(labels):
    # more than 300 columns and more rows than columns: the dense interior-point path
    rng = np.random.default_rng(11)
    X = rng.standard_normal((700, 320))
    y = (X @ rng.standard_normal(320) > 0).astype(int) if labels == "teacher" else rng.integers(0, 2, 700)
    ours = is_separable(X, y, method="cutting-plane")
    highs = is_separable(X, y, method="lp")
    assert ours.separable == highs.separable == (labels == "teacher")
    _check_certificate(ours, X, y)
    _check_certificate(highs, X, y)


def test_interior_point_solver_directly():
    from perceptrons.theory._ipm import separation_ipm

    rng = np.random.default_rng(2)
    Z = rng.standard_normal((50, 4))
    Z[:, 0] = np.abs(Z[:, 0]) + 0.1  # every row has z₀ > 0: separable by v = e₀
    v, delta, lam = separation_ipm(Z)
    assert delta > 0 and (Z @ v).min() == pytest.approx(delta, rel=1e-6) and np.abs(v).max() <= 1 + 1e-9
    v, delta, lam = separation_ipm(np.vstack([Z, -Z[:1]]))  # z and −z: 0 is in the hull
    assert delta == pytest.approx(0.0, abs=1e-8)
    assert np.linalg.norm(lam @ np.vstack([Z, -Z[:1]])) <= 1e-8 and lam.sum() == pytest.approx(1.0)


@pytest.mark.filterwarnings("error::RuntimeWarning")
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), exponent=st.integers(-1000, 1000), bias=st.booleans())
def test_the_answer_does_not_depend_on_the_units(seed, exponent, bias):
    """Rows scaled by a power of two are separable as they were, by a separator that holds on
    them, without an overflow.  Before, on rows of 2^-800 the certificate's margin was 0 (the
    norm of the LP's huge v overflowed), and on rows of 2^800 the PLA's sums overflowed.
    Through the origin the PLA's run, or the LP, is the same at every scale, so the margin
    scales exactly."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(30, 3)).astype(float)
    w = rng.integers(-3, 4, size=3) + 0.5
    X = X[X @ w != 0]
    y = np.where(X @ w > 0, 1, -1)
    moved = X * 2.0**exponent
    r = is_separable(moved, y, fit_intercept=bias)
    assert r.separable and r.margin > 0
    unit = r.coef / np.abs(r.coef).max()  # its direction: the coef of rows of 2^-1000 is huge
    assert np.all(y * (moved @ unit + r.intercept / np.abs(r.coef).max()) > 0)
    if not bias:
        base = is_separable(X, y, fit_intercept=False)
        assert r.method == base.method
        assert r.margin == pytest.approx(base.margin * 2.0**exponent, rel=1e-12)


def test_wide_hashed_rows_are_certified_without_a_dense_normal_matrix():
    """300 rows hashed into 2^18 columns: the interior-point solver's (p+1)² normal matrix would
    need 512 GiB (``analyze`` of a VW file ended in "Unable to allocate 512. GiB"); such a working
    set goes to HiGHS, and the certificate is exact either way."""
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    n, d = 120, 1 << 18
    cols = rng.integers(0, d, size=(n, 6))
    X = sp.csr_matrix((np.ones(n * 6), cols.ravel(), np.arange(0, n * 6 + 1, 6)), shape=(n, d))
    X.sum_duplicates()
    w = np.zeros(d)
    w[cols[:, 0]] = rng.normal(size=n)
    y = np.where(X @ w > 0, 1, -1)
    both = sp.vstack([X, X[:1]]).tocsr(), np.r_[y, -y[0]]  # a row with both labels: inseparable
    for (rows, labels), separable in (((X, y), True), (both, False)):
        result = is_separable(rows, labels, method="cutting-plane", pla_epochs=0)
        assert result.separable is separable
