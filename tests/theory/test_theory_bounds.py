"""The mistake bounds as theorems that could fail: Block–Novikoff and Freund–Schapire."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

from perceptrons import Perceptron
from perceptrons._core.errors import PerceptronsError
from perceptrons.theory import (
    best_gamma,
    freund_schapire_bound,
    fs_optimal_direction,
    margin,
    max_margin,
    novikoff_bound,
    online_mistakes,
    radius,
)


def separable_set(seed, n, d, fit_intercept):
    """Teacher-labelled Gaussian points with the ones too close to the teacher's plane removed."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * rng.uniform(0.2, 5.0)
    w = rng.standard_normal(d)
    b = rng.standard_normal() * np.abs(X).max() * 0.5 if fit_intercept else 0.0
    s = X @ w + b
    gap = rng.uniform(0.01, 0.3) * np.abs(s).max()
    keep = np.abs(s) > gap
    return X[keep], np.where(s[keep] > 0, 1, -1)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(4, 80), d=st.integers(2, 20), bias=st.booleans())
def test_novikoff_and_max_margin(seed, n, d, bias):
    X, y = separable_set(seed, n, d, bias)
    assume(len(np.unique(y)) == 2)
    nb = novikoff_bound(X, y, fit_intercept=bias)
    assert nb.separable
    assert nb.radius == pytest.approx(radius(X, fit_intercept=bias))
    # the max-margin separator's margin is γ* (recomputed from its weights)
    mm = max_margin(X, y, fit_intercept=bias)
    assert margin(mm.coef, mm.intercept, X, y).gamma == pytest.approx(nb.gamma, rel=1e-7, abs=1e-12)
    # Theorem 30.1.1: the PLA makes at most (R/γ*)² mistakes — in any order
    for order, seed_ in (("cyclic", None), ("shuffle", seed % 1000)):
        clf = Perceptron(fit_intercept=bias, order=order, random_state=seed_, max_epochs=int(nb.bound) + 2)
        clf.fit(X, y)
        assert clf.converged_
        assert clf.n_updates_ <= nb.bound
        # no separator the PLA finds beats γ*
        found = margin(clf.coef_[0], clf.intercept_[0] if bias else 0.0, X, y).gamma
        assert found <= nb.gamma * (1 + 1e-6) + 1e-12
        # the bound for the PLA's own separator is weaker than for γ*
        own = novikoff_bound(X, y, fit_intercept=bias, coef=clf.coef_[0], intercept=clf.intercept_[0])
        assert own.bound >= nb.bound * (1 - 1e-6)


def test_novikoff_gormley_example():
    X = np.array([[-1, 2], [1, 0], [1, 1], [-1, 0], [-1, -2], [1, -1]], dtype=float)
    y = np.array([-1, 1, 1, -1, -1, 1])
    nb = novikoff_bound(X, y, fit_intercept=False)
    # R = ‖(-1, 2)‖ = √5 and γ* = 1 (see test_theory_margins): bound 5; the PLA makes 3.
    assert nb.radius == pytest.approx(np.sqrt(5))
    assert nb.bound == pytest.approx(5.0, rel=1e-6)
    assert Perceptron(fit_intercept=False).fit(X, y).n_updates_ == 3


def test_novikoff_inseparable_is_infinite():
    nb = novikoff_bound([[0, 0], [1, 1], [0, 1], [1, 0]], [0, 0, 1, 1])
    assert not nb.separable and nb.gamma is None and nb.bound == np.inf


def inseparable_set(seed, n, d, bias):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    y = np.where(X @ w + (0.3 if bias else 0.0) + rng.normal(0, 0.7, n) > 0, 1, -1)
    X = np.vstack([X, X[:1]])  # one point with both labels: certainly inseparable
    return X, np.r_[y, -y[0]]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    n=st.integers(5, 120),
    d=st.integers(1, 10),
    bias=st.booleans(),
    gammas=st.lists(st.floats(1e-3, 10.0), min_size=1, max_size=4),
)
def test_freund_schapire_one_pass(seed, n, d, bias, gammas):
    X, y = inseparable_set(seed, n, d, bias)
    mistakes = online_mistakes(X, y, fit_intercept=bias)
    rng = np.random.default_rng(seed + 1)
    p = d + bias
    directions = [rng.standard_normal(p) for _ in range(3)]
    fs_opt, u_opt = fs_optimal_direction(X, y, fit_intercept=bias)
    directions.append(u_opt)
    for u in directions:
        for g in gammas:
            fs = freund_schapire_bound(X, y, u, g, fit_intercept=bias)
            assert mistakes <= fs.bound
        best = best_gamma(X, y, u, fit_intercept=bias)
        assert mistakes <= best.bound
        # the chosen γ is no worse than any γ tried
        assert best.bound <= min(freund_schapire_bound(X, y, u, g, fit_intercept=bias).bound for g in gammas) * (
            1 + 1e-6
        )
        # and the SOCP direction is no worse than any direction tried
        # (to 1e-4: when the infimum is only reached as γ → ∞ both sit near the limit n)
        assert fs_opt.bound <= best.bound * (1 + 1e-4)
    assert mistakes <= fs_opt.bound


def test_online_mistakes_is_one_pass_of_the_pla():
    X, y = inseparable_set(3, 50, 3, True)
    clf = Perceptron(max_epochs=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    assert online_mistakes(X, y) == clf.n_updates_ == clf.mistakes_per_epoch_[0]


def test_freund_schapire_known_values():
    fs = freund_schapire_bound([[1.0], [-1.0], [0.5]], [1, -1, -1], [2.0], 0.5, fit_intercept=False)
    # u normalised to 1; margins 1, 1, -0.5 → deviations 0, 0, 1; R = 1 → ((1 + 1)/0.5)² = 16
    assert fs.deviations.tolist() == [0.0, 0.0, 1.0] and fs.D == 1.0 and fs.bound == 16.0
    # margins all equal to R = 1: g(γ) = 1/γ up to γ = 1, then (1 + √2(γ − 1))/γ, increasing
    b = best_gamma([[1.0], [-1.0]], [1, -1], [1.0], fit_intercept=False)
    assert b.gamma == pytest.approx(1.0, rel=1e-6) and b.bound == pytest.approx(1.0, rel=1e-9)
    # margins 1 and 2, R = 2: a γ past the smallest margin does better than γ = 1 (bound 4);
    # g(γ) = (2 + √((γ−1)² + (γ−2)²))/γ has its minimum 1.4 at γ = 5
    b = best_gamma([[1.0], [-2.0]], [1, -1], [1.0], fit_intercept=False)
    assert b.gamma == pytest.approx(5.0, rel=1e-5) and b.bound == pytest.approx(1.96, rel=1e-9)


@pytest.mark.parametrize("gamma", [0, -1.0, 0.0, np.nan, np.inf, "1", True])
def test_gamma_must_be_positive(gamma):
    with pytest.raises(PerceptronsError, match="gamma"):
        freund_schapire_bound([[1.0], [-1.0]], [1, -1], [1.0], gamma, fit_intercept=False)


def test_bad_directions_and_separators():
    with pytest.raises(PerceptronsError, match="zero vector"):
        freund_schapire_bound([[1.0], [-1.0]], [1, -1], [0.0, 0.0], 1.0)
    with pytest.raises(PerceptronsError, match="2 finite numbers"):
        freund_schapire_bound([[1.0], [-1.0]], [1, -1], [1.0], 1.0)
    with pytest.raises(PerceptronsError, match="does not separate"):
        novikoff_bound([[1.0], [-1.0]], [1, -1], coef=[-1.0], intercept=0.0)
    with pytest.raises(PerceptronsError, match="finite"):
        novikoff_bound([[1.0], [np.inf]], [1, -1])
    with pytest.raises(PerceptronsError, match="two classes"):
        freund_schapire_bound([[1.0], [-1.0]], [1, 1], [1.0, 0.0], 1.0)


def test_analyze_separable_and_not():
    from perceptrons.theory import analyze

    X, y = separable_set(4, 60, 5, True)
    a = analyze(X, y)
    assert a.certificate.separable and a.converged and a.mistakes <= a.bound
    assert a.bound == pytest.approx(novikoff_bound(X, y).bound)
    X, y = inseparable_set(4, 60, 3, True)
    a = analyze(X, y)
    assert not a.certificate.separable and a.converged is None
    assert a.mistakes == online_mistakes(X, y) <= a.bound
    assert np.linalg.norm(a.direction) == pytest.approx(1.0)


@pytest.mark.data
def test_freund_schapire_on_real_data(shared_data):
    """a9a (Adult census, not separable): the bound of the best direction holds for one pass."""
    from sklearn.datasets import load_svmlight_file

    from perceptrons.theory import analyze

    X, y = load_svmlight_file(str(shared_data("a9a") / "a9a"), n_features=123)
    a = analyze(X[:1500], y[:1500])
    assert not a.certificate.separable
    assert a.certificate.residual <= 1e-9
    assert a.mistakes <= a.bound


@pytest.mark.parametrize("bias", [True, False])
def test_lbfgs_direction_matches_the_socp(bias):
    X, y = inseparable_set(9, 800, 6, bias)
    socp, u1 = fs_optimal_direction(X, y, fit_intercept=bias, solver="socp")
    lbfgs, u2 = fs_optimal_direction(X, y, fit_intercept=bias, solver="lbfgs")
    assert lbfgs.bound == pytest.approx(socp.bound, rel=1e-5)
    assert u1 @ u2 == pytest.approx(1.0, abs=1e-4)
    with pytest.raises(PerceptronsError, match="solver"):
        fs_optimal_direction(X, y, solver="newton")


@pytest.mark.filterwarnings("error::RuntimeWarning")
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), exponent=st.integers(-1000, 1000), solver=st.sampled_from(["socp", "lbfgs"]))
@example(seed=0, exponent=506, solver="socp")  # the deviations' squares overflowed
def test_fs_optimal_direction_through_the_origin_does_not_depend_on_the_units(seed, exponent, solver):
    """((R + D)/γ)² is the same for rows scaled by any factor when no bias is folded in, and so
    is the direction that minimises it: the rows are scaled to radius 1 before solving.  On
    rows of 2^300 the SOCP did not solve, and on rows of 2^506 the bound's D overflowed."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(30, 3)).astype(float)
    y = np.where(X @ np.array([1.5, -2.5, 0.5]) > 0, 1, -1)
    y[:3] *= -1  # not separable
    base, u = fs_optimal_direction(X, y, fit_intercept=False, solver=solver)
    moved, v = fs_optimal_direction(X * 2.0**exponent, y, fit_intercept=False, solver=solver)
    assert v.tolist() == u.tolist()
    assert moved.bound == pytest.approx(base.bound, rel=1e-9)


@pytest.mark.parametrize("solver", ["socp", "lbfgs"])
@pytest.mark.parametrize("bias", [True, False])
def test_fs_optimal_direction_where_no_direction_beats_the_trivial_bound(solver, bias):
    """Rows of zeros with both labels: the optimum is v = 0, where the command line's
    ``analyze`` and the report stopped with an error.  The bound is then its limit along any u,
    n mistakes in n trials, and it holds."""
    X = np.zeros((6, 2))
    y = np.array([0, 1, 0, 1, 1, 0])
    fs, u = fs_optimal_direction(X, y, fit_intercept=bias, solver=solver)
    assert np.linalg.norm(u) == pytest.approx(1.0)
    assert fs.bound == pytest.approx(6.0, rel=1e-9)  # √6² in floating point: 6 within rounding
    assert online_mistakes(X, y, fit_intercept=bias) <= fs.bound * (1 + 1e-12)


def test_online_mistakes_refuses_more_than_two_classes_as_every_bound_does():
    """Three classes returned the multiclass perceptron's updates, no quantity a binary bound limits."""
    X = np.random.default_rng(0).normal(size=(30, 2))
    with pytest.raises(PerceptronsError, match="exactly two classes"):
        online_mistakes(X, np.arange(30) % 3)
