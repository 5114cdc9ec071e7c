"""Radius, margins and the maximum-margin separator (perceptrons.theory.margins)."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.optimize import nnls

from perceptrons._core.errors import PerceptronsError
from perceptrons.theory import margin, max_margin, radius

# Gormley's six-point worked example (through the origin).
GX = np.array([[-1, 2], [1, 0], [1, 1], [-1, 0], [-1, -2], [1, -1]], dtype=float)
GY = np.array([-1, 1, 1, -1, -1, 1])


def test_radius_plain_and_augmented():
    X = np.array([[3.0, 4.0], [0.0, 1.0]])
    assert radius(X, fit_intercept=False) == 5.0
    assert radius(X) == pytest.approx(np.sqrt(26.0))


def test_margin_per_example_and_set():
    m = margin([1.0, 0.0], 0.5, [[2.0, 0.0], [-1.0, 5.0], [0.0, 0.0]], [1, -1, -1])
    norm = np.sqrt(1.25)
    assert m.per_example == pytest.approx([2.5 / norm, 0.5 / norm, -0.5 / norm])
    assert m.gamma == pytest.approx(-0.5 / norm)  # misclassified: negative


def test_margin_input_geometry_is_distance_to_hyperplane():
    m = margin([3.0, 4.0], -5.0, [[3.0, 4.0], [0.0, 0.0]], ["b", "a"], geometry="input")
    assert m.per_example == pytest.approx([4.0, 1.0])


def test_max_margin_gormley_example():
    r = max_margin(GX, GY, fit_intercept=False)
    assert r.separable
    # By hand: (1,1) and (1,-1) (signed) force v₁ + v₂ ≥ 1 and v₁ − v₂ ≥ 1, so v₁ ≥ 1 and
    # v* = (1, 0) meets every constraint: γ* = 1/‖v*‖ = 1.
    assert r.gamma == pytest.approx(1.0, abs=1e-7)
    assert r.coef == pytest.approx([1.0, 0.0], abs=1e-6)
    Z = GX * GY[:, None]
    assert margin(r.coef, 0.0, GX, GY).gamma == pytest.approx(r.gamma, abs=1e-9)
    _check_kkt(Z, r.coef / r.gamma, r.support)


def _check_kkt(Z, v, support):
    """v* = Σ αᵢ zᵢ with αᵢ ≥ 0 on the support: the optimality condition of min ‖v‖², Zv ≥ 1."""
    alpha, res = nnls(Z[support].T, v)
    assert res <= 1e-5 * max(1.0, np.linalg.norm(v))


def test_max_margin_kkt_random():
    rng = np.random.default_rng(3)
    for d in (2, 5, 12):
        X = rng.standard_normal((60, d))
        w = rng.standard_normal(d)
        s = X @ w + 0.3
        keep = np.abs(s) > 0.2
        X, y = X[keep], np.where(s[keep] > 0, 1, -1)
        r = max_margin(X, y)
        Z = np.hstack([X, np.ones((X.shape[0], 1))]) * y[:, None]
        v = np.r_[r.coef, r.intercept] / r.gamma
        assert (Z @ v).min() == pytest.approx(1.0, abs=1e-6)
        _check_kkt(Z, v, r.support)


def test_max_margin_input_geometry_matches_svm():
    from sklearn.svm import SVC

    rng = np.random.default_rng(5)
    X = rng.standard_normal((80, 3))
    s = X @ np.array([1.0, -2.0, 0.5]) + 1.0
    keep = np.abs(s) > 0.5
    X, y = X[keep], np.where(s[keep] > 0, 1, -1)
    r = max_margin(X, y, geometry="input")
    svm = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, y)
    gamma_svm = 1.0 / np.linalg.norm(svm.coef_)
    assert r.gamma == pytest.approx(gamma_svm, rel=1e-4)
    # the free bias can only enlarge the margin
    assert r.gamma >= max_margin(X, y).gamma - 1e-9


def test_max_margin_inseparable_is_clear():
    r = max_margin([[0, 0], [1, 1], [0, 1], [1, 0]], [0, 0, 1, 1])
    assert not r.separable and r.gamma is None and r.coef is None
    assert "Infeasible" in r.status


def test_max_margin_working_set_equals_full():
    rng = np.random.default_rng(8)
    X = rng.standard_normal((3000, 4))
    s = X @ np.array([1.0, 1.0, -1.0, 0.5]) - 0.2
    keep = np.abs(s) > 0.05
    X, y = X[keep], np.where(s[keep] > 0, 1, -1)
    a = max_margin(X, y, max_working=300)
    b = max_margin(X, y, max_working=10_000)
    assert a.n_working < X.shape[0]
    assert a.gamma == pytest.approx(b.gamma, rel=1e-5)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_points_refused(bad):
    X = np.array([[0.0, 1.0], [1.0, bad]])
    for call in (lambda: radius(X), lambda: max_margin(X, [0, 1]), lambda: margin([1, 0], 0, X, [0, 1])):
        with pytest.raises(PerceptronsError, match=f"X contains {bad} at row 1, column 1; every value must be finite"):
            call()  # the value as a user writes it ('nan', 'inf'), not numpy's repr


def test_one_class_refused():
    with pytest.raises(PerceptronsError, match="at least two classes"):
        max_margin([[0.0], [1.0]], [1, 1])
    with pytest.raises(PerceptronsError, match="exactly two classes"):
        max_margin([[0.0], [1.0], [2.0]], [1, 2, 3])


def test_zero_separator_and_bad_geometry_refused():
    with pytest.raises(PerceptronsError, match="zero norm"):
        margin([0.0, 0.0], 0.0, [[1.0, 0.0], [0.0, 1.0]], [0, 1])
    with pytest.raises(PerceptronsError, match="geometry"):
        margin([1.0, 0.0], 0.0, [[1.0, 0.0], [0.0, 1.0]], [0, 1], geometry="euclid")
    with pytest.raises(PerceptronsError, match="one weight per feature"):
        margin([1.0], 0.0, [[1.0, 0.0], [0.0, 1.0]], [0, 1])
    with pytest.raises(PerceptronsError, match="2-D"):
        radius([1.0, 2.0])


def _integer_rows(seed, n=30, d=3):
    """Integer rows labelled by a hyperplane that no row lies on (separable with and without a bias)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(float)
    w = rng.integers(-3, 4, size=d) + 0.5
    keep = X @ w != 0
    X = X[keep]
    return X, np.where(X @ w > 0, 1, -1)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    exponent=st.integers(-1000, 1000),
    kw=st.sampled_from([{"fit_intercept": False}, {"geometry": "input"}]),
)
def test_max_margin_does_not_depend_on_the_units(seed, exponent, kw):
    """Without the bias in the norm, the same rows in other units (scaled by a power of two) have
    the same separator and a margin in those units.  Solved as given, rows of size 1e-12 were
    called inseparable, and rows of size 1e12 were refused (the QP did not solve)."""
    X, y = _integer_rows(seed)
    base, moved = max_margin(X, y, **kw), max_margin(X * 2.0**exponent, y, **kw)
    assert base.separable and moved.separable
    assert moved.gamma == pytest.approx(base.gamma * 2.0**exponent, rel=1e-12)
    assert moved.coef.tolist() == base.coef.tolist()
    assert moved.intercept == pytest.approx(base.intercept * 2.0**exponent, rel=1e-12, abs=0.0)
    assert moved.support.tolist() == base.support.tolist()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), exponent=st.integers(-1000, 1000))
@example(seed=0, exponent=-22)  # the solver's answer had a negative margin
@example(seed=0, exponent=-40)  # the solver called the rows infeasible
@example(seed=0, exponent=20)  # the solver stopped short of the optimum
@example(seed=3678991, exponent=0)  # short by 1.4e-6: a fourth support row left out
@example(seed=46, exponent=43)  # the bound's multipliers were off (b too small to be known)
def test_max_margin_with_the_bias_in_the_norm_is_optimal_in_any_units(seed, exponent):
    """The augmented problem min ‖w‖² + b², y(w·x + b) ≥ 1 weighs the bias against w
    differently at every scale t, but it is one QP: with x = t·x', its optimality condition is
    (w, t·b) = Σ αᵢ yᵢ (x'ᵢ, 1) with αᵢ ≥ 0 on the support, and those α bound γ* from above.
    Solved as given, rows of 2^-16 and smaller were refused or called "not separable", and on
    rows of 2^20 the margin returned was 15 % below γ*."""
    X, y = _integer_rows(seed)
    t = 2.0**exponent
    r = max_margin(X * t, y)
    assert r.separable and r.gamma > 0
    signed = np.hstack([X, np.ones((X.shape[0], 1))])[r.support] * y[r.support, None]
    alpha = nnls(signed.T, np.r_[r.coef, t * r.intercept])[0]
    # the multipliers of w alone: on large rows b is too small against w·x to be known to more
    # than a few digits, and matching t·b to it pulls α off γ*'s (rows of 2^43: by 5e-7)
    alpha_w = nnls(signed[:, :-1].T, r.coef)[0]
    # Above γ*: the free-bias margin (the bias out of the norm), tight on small rows, and the
    # bound of the multipliers, tight elsewhere (on small rows nnls meets Σ αᵢ yᵢ = t·b ≈ 0 only
    # to its rounding, which c / t then magnifies).  Any α ≥ 0 gives a true bound.
    free = max_margin(X * t, y, geometry="input")
    upper = min(free.gamma, _dual_bound(signed, alpha, t), _dual_bound(signed, alpha_w, t))
    # equal to the solvers' tolerance (the free-bias margin is another solve's)
    assert upper * (1 - 1e-7) <= r.gamma <= upper * (1 + 1e-7)


def _dual_bound(signed, alpha, t):
    """Any α ≥ 0 bounds the augmented margin of the rows t·x': γ* ≤ ‖Σ αᵢ yᵢ (t·x'ᵢ, 1)‖ / Σ αᵢ
    (the margin of a unit v is at most the α-average of the rows' y·v); the optimum's
    multipliers make it γ*."""
    a, c = alpha @ signed[:, :-1], alpha @ signed[:, -1]
    return t * float(np.hypot(np.linalg.norm(a), c / t)) / alpha.sum()


@pytest.mark.parametrize("c", [1e-200, 1e-100, 1e100, 1e200])
@pytest.mark.parametrize("geometry", ["augmented", "input"])
def test_the_margin_of_a_separator_scaled_by_any_positive_number_is_the_same(c, geometry):
    """(w, b) and c·(w, b) are one hyperplane: w·w overflowed to γ = 0 at c = 1e200 and vanished
    to "zero norm" at 1e-200."""
    X = np.array([[1.0, 2.0], [-1.0, -1.0], [0.5, -2.0]])
    y = [1, -1, -1]
    w, b = np.array([1.0, 1.0]), 0.25
    one = margin(w, b, X, y, geometry=geometry)
    scaled = margin(c * w, c * b, X, y, geometry=geometry)
    np.testing.assert_allclose(scaled.per_example, one.per_example, rtol=1e-12)
