"""Property tests of the theorems (hypothesis): Novikoff's bound, scale invariance, determinism."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron
from perceptrons.datasets import separable

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def separable_sets(draw):
    n = draw(st.integers(5, 120))
    d = draw(st.integers(1, 8))
    gamma = draw(st.floats(0.02, 0.4))
    bias = draw(st.booleans())
    seed = draw(st.integers(0, 2**31 - 1))
    X, y, u, c = separable(n, d, margin=gamma, bias=bias, random_state=seed)
    assume(len(np.unique(y)) == 2)
    return X, y, u, c, gamma, bias


@SETTINGS
@given(separable_sets(), st.sampled_from(["cyclic", "shuffle"]))
def test_novikoff_bound_holds(data, order):
    X, y, u, c, gamma, bias = data
    clf = Perceptron(fit_intercept=bias, order=order, random_state=0, max_epochs=100_000).fit(X, y)
    assert clf.converged_
    assert np.all(clf.predict(X) == y)
    # Augmented vectors (x, 1) and the augmented unit separator (u, c)/‖(u, c)‖: its margin is
    # ≥ γ/‖(u, c)‖, so k ≤ (R/γ')² with R over the augmented points (DESIGN §2).
    Xa = np.hstack([X, np.ones((len(X), 1))]) if bias else X
    ua = np.r_[u, c] if bias else u
    R = np.max(np.linalg.norm(Xa, axis=1))
    gamma_aug = np.min(y * (Xa @ ua)) / np.linalg.norm(ua)
    assert gamma_aug >= gamma / np.linalg.norm(ua) - 1e-12
    assert clf.n_updates_ <= (R / gamma_aug) ** 2


@SETTINGS
@given(separable_sets(), st.floats(1e-3, 1e3))
def test_scaling_leaves_the_mistakes_unchanged(data, factor):
    X, y, *_ = data
    a = Perceptron(fit_intercept=False, max_epochs=200).fit(X, y)
    b = Perceptron(fit_intercept=False, max_epochs=200).fit(X * factor, y)
    assert a.mistakes_per_epoch_ == b.mistakes_per_epoch_
    assert a.n_updates_ == b.n_updates_
    np.testing.assert_allclose(b.coef_, a.coef_ * factor, rtol=1e-9, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**31 - 1),
    st.sampled_from(["shuffle", "random-mistake"]),
    st.sampled_from([Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron]),
)
def test_same_seed_same_weights(seed, order, cls):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((40, 3))
    y = (X[:, 0] + 0.5 * rng.standard_normal(40) > 0).astype(int)
    one = cls(order=order, init="random", random_state=seed, max_epochs=20).fit(X, y)
    two = cls(order=order, init="random", random_state=seed, max_epochs=20).fit(X, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    np.testing.assert_array_equal(one.intercept_, two.intercept_)
    assert one.mistakes_per_epoch_ == two.mistakes_per_epoch_


def test_different_seeds_differ():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    y = (X[:, 0] > 0).astype(int)
    a = Perceptron(order="shuffle", random_state=1).fit(X, y)
    b = Perceptron(order="shuffle", random_state=2).fit(X, y)
    assert not np.array_equal(a.coef_, b.coef_)
