"""Every algorithm's mistake bound holds on random data that meet its assumptions (hypothesis),
and is refused, in one line saying why, where they are not met."""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptrons import (
    ALMA,
    AROW,
    ROMMA,
    AveragedPerceptron,
    KernelPerceptron,
    PassiveAggressive,
    Perceptron,
    PocketPerceptron,
    SecondOrderPerceptron,
    Winnow,
)
from perceptrons._core.errors import PerceptronsError
from perceptrons.theory import NoBound, mistake_bound
from perceptrons.theory.mistake_bounds import ROUNDING

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

SEPARABLE = [
    Perceptron(),
    PocketPerceptron(),
    AveragedPerceptron(fit_intercept=False),
    PassiveAggressive(variant="pa"),
    PassiveAggressive(variant="pa1", C=0.3),
    PassiveAggressive(variant="pa2", C=2.0),
    SecondOrderPerceptron(a=0.5),
    ALMA(alpha=0.6),
    ALMA(fit_intercept=False),
    AROW(),
    ROMMA(),
    ROMMA(fit_intercept=False),
    KernelPerceptron(margin=0, gamma=1.0),
]
ANY_DATA = [
    Perceptron(),
    PocketPerceptron(fit_intercept=False),
    PassiveAggressive(variant="pa1", C=0.5),
    PassiveAggressive(variant="pa2", C=0.5),
    SecondOrderPerceptron(),
    AROW(r=0.1),
    AROW(r=10.0, fit_intercept=False),
    KernelPerceptron(margin=0, kernel="poly", degree=2, coef0=1.0, fit_intercept=True),
]


def _within(mb):
    """The count within the bound on every prefix of the sequence, and the whole run's bound
    the curve's last value."""
    assert mb.curve.shape[0] > 0 and mb.curve[-1] == pytest.approx(mb.bound, rel=1e-12), mb
    assert np.all(mb.observed_curve <= mb.curve * (1 + ROUNDING)), mb
    assert mb.observed_curve[-1] == mb.observed and mb.holds, mb


def _points(seed, n, d, separable):
    """Rows labelled by a hyperplane through the origin (so separable with and without an
    intercept), kept off it by a margin; or the same with 15 % of the labels flipped."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.choice([0.1, 1.0, 10.0])
    w = rng.normal(size=d)
    score = X @ w
    if np.all(score > 0) or np.all(score <= 0):  # both classes: the first row mirrored
        X[0], score[0] = -X[0], -score[0]
    keep = np.abs(score) > 0.05 * np.abs(score).max()  # a margin, however small
    keep[[int(np.argmax(score)), int(np.argmin(score))]] = True
    X, y = X[keep], (score[keep] > 0).astype(int)
    if not separable:
        flip = rng.random(y.shape[0]) < 0.15
        y[flip] = 1 - y[flip]
        if len(np.unique(y)) < 2:
            y[:2] = [0, 1]
    return X, y


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 30), d=st.integers(1, 4), passes=st.integers(1, 3))
def test_the_count_never_exceeds_the_bound_on_separable_data(seed, n, d, passes):
    X, y = _points(seed, n, d, separable=True)
    for model in SEPARABLE:
        _within(mistake_bound(model, X, y, passes=passes))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 30), d=st.integers(1, 4), passes=st.integers(1, 2))
def test_the_count_never_exceeds_the_bound_on_any_data(seed, n, d, passes):
    X, y = _points(seed, n, d, separable=False)
    for model in ANY_DATA:
        _within(mistake_bound(model, X, y, passes=passes))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40), d=st.integers(2, 12), r=st.integers(1, 3))
def test_winnow_within_its_bound_on_disjunctions(seed, n, d, r):
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < 0.3).astype(float)
    target = rng.choice(d, min(r, d), replace=False)
    y = X[:, target].max(axis=1).astype(int)
    if len(np.unique(y)) < 2:
        return  # one class: nothing to learn
    mb = mistake_bound(Winnow(balanced=False, fit_intercept=False), X, y, passes=3)
    assert mb.quantities["r"] <= min(r, d) * (1 + np.log(n)), mb
    _within(mb)


def test_normalised_rows_give_pa_its_bound_on_data_that_are_not_separable():
    X, y = _points(3, 40, 3, separable=False)
    X = X / np.linalg.norm(X, axis=1)[:, None]
    mb = mistake_bound(PassiveAggressive(variant="pa", fit_intercept=False), X, y)
    assert mb.theorem.endswith("Theorem 3")
    _within(mb)


def test_arow_bound_is_the_theorem_with_its_reference_vector():
    """AROW's bound recomputed from a plain run of the paper's Fig. 1 (μ = 0, Σ = I over
    z = (x, 1)): the same mistakes, the same updates without a mistake U, log det(I + X_A / r),
    and Theorem 2 of Crammer, Kulesza & Dredze (2009) put together from them."""
    X, y = _points(5, 25, 2, separable=False)
    r, passes = 2.0, 2
    mb = mistake_bound(AROW(r=r), X, y, passes=passes)
    Z = np.hstack([X, np.ones((X.shape[0], 1))]) * np.where(y == 1, 1.0, -1.0)[:, None]
    mu, S = np.zeros(3), np.eye(3)
    A, M = [], 0
    for z in np.tile(Z, (passes, 1)):
        m = float(mu @ z)
        M += m <= 0
        if m < 1:
            A.append(z)
            g = S @ z
            beta = 1.0 / (float(z @ g) + r)
            mu += (1.0 - m) * beta * g
            S -= beta * np.outer(g, g)
    ZA = np.array(A)
    q = mb.quantities
    assert mb.observed == M and q["U"] == len(A) - M
    assert q["log_det"] == pytest.approx(np.linalg.slogdet(np.eye(3) + ZA.T @ ZA / r)[1], rel=1e-9)
    theorem = np.sqrt((r * q["u_norm2"] + q["u_spread"]) * (q["log_det"] + q["U"])) + q["hinge_over_A"] - q["U"]
    assert mb.bound == pytest.approx(theorem, rel=1e-12) and M <= mb.bound
    # u = 0 would make the bound the count itself (every g is 1): the reference u is a real one
    assert q["u_norm2"] > 0 and mb.bound > M


@pytest.mark.parametrize(
    "model, data, message",
    [
        (Perceptron(), "three", "y must contain exactly two classes for a binary separator; got 3"),
        (KernelPerceptron(), "separable", "for margin=0 (the PLA's own rule), not margin='auto'"),
        (KernelPerceptron(margin=0, budget=10), "separable", "without a budget: fit with budget=None"),
        (KernelPerceptron(margin=0, kernel="sigmoid", gamma=5.0, coef0=1.0), "separable", "is not a dot product"),
        (Perceptron(init="random", random_state=0), "separable", "from w = 0: fit with init='zeros'"),
        (SecondOrderPerceptron(), "zeros", "no row has a positive margin along any direction tried"),
        (AROW(covariance="diagonal"), "separable", "AROW's bound is for its full covariance"),
        (Perceptron(class_weight={0: 2.0}), "separable", "for unweighted steps: fit with class_weight=None"),
        (PassiveAggressive(variant="pa"), "noisy", "Theorem 3 needs ‖x‖ = 1 on every row"),
        (ALMA(), "noisy", "ALMA's bound is for separable data"),
        (ALMA(C=1.0), "separable", "ALMA's bound is for B = 1/α and C = √2"),
        (ROMMA(aggressive=True), "separable", "for the plain variant, which updates on mistakes only"),
        (ROMMA(), "noisy", "ROMMA's bound is for separable data"),
        (SecondOrderPerceptron(covariance="diagonal"), "separable", "for its full covariance"),
        (Winnow(), "boolean", "Winnow's bound is for balanced=False (positive Winnow), fit_intercept=False"),
        (Winnow(balanced=False, fit_intercept=False), "separable", "features of 0 and 1"),
        (Perceptron(margin=1.0), "separable", "for margin=0"),
    ],
)
def test_assumptions_not_met_are_refused_naming_them(model, data, message):
    X, y = _points(1, 30, 3, separable=data != "noisy")
    if data == "three":
        y = np.arange(y.shape[0]) % 3
    if data == "boolean":
        X = (X > 0).astype(float)
    if data == "zeros":  # the SVM's comparison vector is 0: the bound was NaN
        X, y = np.zeros((4, 2)), np.array([0, 1, 0, 1])
    with pytest.raises(PerceptronsError, match=message.replace("(", r"\(").replace(")", r"\)")) as exc:
        mistake_bound(model, X, y)
    assert "\n" not in str(exc.value)
    # a theorem the data or parameters do not meet is NoBound; not a model with a bound, not input
    assert isinstance(exc.value, NoBound) == (data != "three")


def test_rows_of_zeros_and_a_bound_met_exactly():
    """Freund–Schapire's deviations were squared in absolute units: on rows of zeros the γ found,
    1e-287, squared to 0 and the bound to 0 against 12 mistakes.  And Novikoff's bound of exactly
    2 mistakes, computed as 1.9999999999999996, is held by a run of 2."""
    mb = mistake_bound(Perceptron(fit_intercept=False), np.zeros((4, 2)), [0, 1, 0, 1], passes=3)
    assert mb.observed == 12 and mb.bound == pytest.approx(12) and mb.holds
    mb = mistake_bound(PocketPerceptron(), [[0, 1, -1], [1, 0, 1]], [0, 1])
    assert (mb.theorem, mb.observed) == ("Novikoff 1962", 2) and mb.bound == pytest.approx(2) and mb.holds


def test_rows_of_1e_minus_160_and_a_socp_that_does_not_solve():
    """(R/γ)² in Python floats raised OverflowError on rows of 1e-160 (the bound passes the float
    range: inf, true and useless); where the Freund–Schapire SOCP does not solve, L-BFGS's
    direction gives the bound (it raised "the Freund–Schapire SOCP did not solve")."""
    X = [[1e-160, 2e-160], [-1e-160, 0.0], [3e-160, -1e-160]]
    for model in (Perceptron(), PocketPerceptron()):
        mb = mistake_bound(model, X, [1, 0, 1])
        assert mb.bound == np.inf and mb.holds
    X, y = [[2000.0], [-1000.0], [-1000.0], [2000.0]], [1, 1, 0, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mb = mistake_bound(KernelPerceptron(kernel="poly", gamma=1.0, margin=0, fit_intercept=True), X, y, passes=20)
    assert mb.theorem == "Freund & Schapire 1999, Theorem 2" and mb.holds


def test_an_estimator_of_another_package_is_not_taken_for_ours():
    from sklearn.linear_model import Perceptron as TheirPerceptron

    X, y = _points(1, 30, 3, separable=True)
    with pytest.raises(PerceptronsError, match=r"no mistake bound for sklearn\.linear_model.*Perceptron here"):
        mistake_bound(TheirPerceptron(), X, y)


def test_passes_beyond_memory_are_refused_before_the_run():
    X, y = _points(1, 30, 3, separable=True)
    with pytest.raises(
        PerceptronsError, match=r"the bound.s curves over 1,000,000 × [0-9,]+ trials need .* ask for fewer passes"
    ):
        mistake_bound(Perceptron(), np.repeat(X, 1000, axis=0), np.repeat(y, 1000), passes=10**6)


def test_a_fitted_model_is_left_as_it_was():
    X, y = _points(2, 30, 2, separable=True)
    model = PassiveAggressive().fit(X, y)
    coef = model.coef_.copy()
    mistake_bound(model, X, y, passes=2)
    np.testing.assert_array_equal(model.coef_, coef)
