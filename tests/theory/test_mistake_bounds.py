"""Every algorithm's mistake bound holds on random data that meet its assumptions (hypothesis),
and is refused, in one line saying why, where they are not met."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptrons import (
    ALMA,
    AROW,
    AveragedPerceptron,
    KernelPerceptron,
    PassiveAggressive,
    Perceptron,
    SecondOrderPerceptron,
    Winnow,
)
from perceptrons._core.errors import PerceptronsError
from perceptrons.theory import mistake_bound

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

SEPARABLE = [
    Perceptron(),
    AveragedPerceptron(fit_intercept=False),
    PassiveAggressive(variant="pa"),
    PassiveAggressive(variant="pa1", C=0.3),
    PassiveAggressive(variant="pa2", C=2.0),
    SecondOrderPerceptron(a=0.5),
    ALMA(alpha=0.6),
    ALMA(fit_intercept=False),
]
ANY_DATA = [
    Perceptron(),
    PassiveAggressive(variant="pa1", C=0.5),
    PassiveAggressive(variant="pa2", C=0.5),
    SecondOrderPerceptron(),
]


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
        mb = mistake_bound(model, X, y, passes=passes)
        assert mb.observed <= mb.bound, (mb, model)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 30), d=st.integers(1, 4), passes=st.integers(1, 2))
def test_the_count_never_exceeds_the_bound_on_any_data(seed, n, d, passes):
    X, y = _points(seed, n, d, separable=False)
    for model in ANY_DATA:
        mb = mistake_bound(model, X, y, passes=passes)
        assert mb.observed <= mb.bound, (mb, model)


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
    assert mb.quantities["r"] <= min(r, d) * (1 + np.log(n)) and mb.observed <= mb.bound, mb


def test_normalised_rows_give_pa_its_bound_on_data_that_are_not_separable():
    X, y = _points(3, 40, 3, separable=False)
    X = X / np.linalg.norm(X, axis=1)[:, None]
    mb = mistake_bound(PassiveAggressive(variant="pa", fit_intercept=False), X, y)
    assert mb.theorem.endswith("Theorem 3") and mb.observed <= mb.bound


@pytest.mark.parametrize(
    "model, data, message",
    [
        (Perceptron(), "three", "y must contain exactly two classes for a binary separator; got 3"),
        (KernelPerceptron(), "separable", "no mistake bound for KernelPerceptron here"),
        (AROW(), "separable", "no mistake bound for AROW here"),
        (PassiveAggressive(variant="pa"), "noisy", "Theorem 3 needs ‖x‖ = 1 on every row"),
        (ALMA(), "noisy", "ALMA's bound is for separable data"),
        (ALMA(C=1.0), "separable", "ALMA's bound is for B = 1/α and C = √2"),
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
    with pytest.raises(PerceptronsError, match=message.replace("(", r"\(").replace(")", r"\)")) as exc:
        mistake_bound(model, X, y)
    assert "\n" not in str(exc.value)


def test_a_fitted_model_is_left_as_it_was():
    X, y = _points(2, 30, 2, separable=True)
    model = PassiveAggressive().fit(X, y)
    coef = model.coef_.copy()
    mistake_bound(model, X, y, passes=2)
    np.testing.assert_array_equal(model.coef_, coef)
