"""View 7's numbers: each update's step is the paper's rule (PA's τ, AROW's α and β), the run is
the learner's own, and the bound curve is mistake_bound's, above the count at every trial."""

import numpy as np
import pytest

from perceptrons import AROW, PassiveAggressive
from perceptrons.datasets import gormley_example, noisy_blobs
from perceptrons.report import report_data
from perceptrons.report._online import MAX_AROW_FEATURES, MAX_TRIALS, PASSES, online_section
from perceptrons.theory import mistake_bound

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def _section(fit_intercept, n=80):
    X, y = noisy_blobs(n, random_state=4)
    return X, y, online_section(X, y, fit_intercept)


def _z(X, fit_intercept):
    return np.hstack([X, np.ones((X.shape[0], 1))]) if fit_intercept else X


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_each_pa_step_is_the_papers_tau(fit_intercept):
    """Crammer et al. (2006), Fig. 1: τ = ℓ/‖z‖² (PA), min(C, ℓ/‖z‖²) (PA-I), ℓ/(‖z‖² + 1/2C) (PA-II)."""
    X, y, sec = _section(fit_intercept)
    Z, s = _z(X, fit_intercept), np.where(y > 0, 1.0, -1.0)
    for L in sec["learners"][:3]:
        u, C = L["updates"], L["params"].get("C")
        w = np.zeros(Z.shape[1])
        for j, (i, tau) in enumerate(zip(u["index"], u["step"])):
            z = Z[i]
            m = s[i] * w @ z
            assert u["margin"][j] == pytest.approx(m, abs=1e-12) and u["loss"][j] == pytest.approx(
                max(0.0, 1 - m), abs=1e-12
            )
            n2, loss = z @ z, max(0.0, 1 - m)
            if L["key"] == "pa":
                expected = loss / n2
            else:
                expected = min(C, loss / n2) if L["key"] == "pa1" else loss / (n2 + 1 / (2 * C))
            assert tau == pytest.approx(expected, rel=1e-9), (L["key"], j)
            w = w + tau * s[i] * z
            np.testing.assert_allclose(u["w"][j], w, rtol=1e-9, atol=1e-12)


def test_each_arow_step_is_the_papers_alpha_and_beta():
    """Crammer, Kulesza & Dredze (2009), Fig. 1: β = 1/(v + r), α = (1 − m)·β, μ += α·y·Σz."""
    X, y, sec = _section(True)
    Z, s = _z(X, True), np.where(y > 0, 1.0, -1.0)
    L = sec["learners"][3]
    assert L["key"] == "arow"
    u, r = L["updates"], L["params"]["r"]
    mu, S = np.zeros(3), np.eye(3)
    for j, i in enumerate(u["index"]):
        z = Z[i]
        m, g = s[i] * mu @ z, S @ z
        v = z @ g
        assert u["variance"][j] == pytest.approx(v, rel=1e-9)
        assert u["beta"][j] == pytest.approx(1 / (v + r), rel=1e-9)
        assert u["step"][j] == pytest.approx((1 - m) / (v + r), rel=1e-7)
        mu = mu + u["step"][j] * s[i] * g
        S = S - u["beta"][j] * np.outer(g, g)
        np.testing.assert_allclose(u["w"][j], mu, rtol=1e-7, atol=1e-10)
        # the identity the page draws AROW's unsure band from: Σ⁻¹ = I + Σ z zᵀ / r so far
        Zk = Z[u["index"][: j + 1]]
        np.testing.assert_allclose(np.linalg.inv(np.eye(3) + Zk.T @ Zk / r), S, rtol=1e-7, atol=1e-12)


def test_runs_are_the_learners_fits_and_bounds_are_mistake_bounds():
    X, y, sec = _section(True)
    assert sec["rows"] == 80 and sec["passes"] == PASSES and sec["trials"] == 80 * PASSES
    models = [PassiveAggressive(variant="pa"), PassiveAggressive(variant="pa1", C=1.0)]
    models += [PassiveAggressive(variant="pa2", C=1.0), AROW(r=1.0, covariance="full")]
    for L, model in zip(sec["learners"], models):
        fitted = model.set_params(max_epochs=PASSES).fit(X, y)
        if fitted.n_epochs_ == PASSES:  # the last update's weights are the fit's
            np.testing.assert_allclose(
                L["updates"]["w"][-1], np.r_[fitted.coef_.ravel(), fitted.intercept_], rtol=1e-12
            )
        assert len(L["updates"]["t"]) == fitted.n_updates_
        assert len(L["mistake_trials"]) == sum(fitted.mistakes_per_epoch_)
        if L["key"] == "pa":  # these noisy rows are not of norm 1: Theorem 3 does not apply
            assert L["bound"] is None and "Theorem 3 needs ‖x‖ = 1" in L["refused"]
            continue
        mb = mistake_bound(model, X, y, passes=PASSES)
        B = L["bound"]
        assert B["theorem"] == mb.theorem and B["value"] == mb.bound and B["observed"] == len(L["mistake_trials"])
        np.testing.assert_array_equal(B["curve"], mb.curve)
        counts = np.searchsorted(L["mistake_trials"], np.arange(sec["trials"]), side="right")
        assert np.all(counts <= np.asarray(B["curve"]) * (1 + 1e-12))


def test_gormley_points_pa_moves_each_example_to_margin_one():
    """PA's update puts the example exactly at margin 1 (Crammer et al. 2006, §3): after each
    update y·(w·z) = 1 on the example it came from."""
    X, y = gormley_example()
    sec = report_data(X, y, fit_intercept=False)["online"]
    L = sec["learners"][0]
    s = np.where(y > 0, 1.0, -1.0)
    for i, w in zip(L["updates"]["index"], L["updates"]["w"]):
        assert s[i] * np.dot(w, X[i]) == pytest.approx(1.0, abs=1e-12)
    # separable: Theorem 2 is (R/γ*)², Gormley's 5
    assert L["bound"]["theorem"].endswith("Theorem 2") and L["bound"]["value"] == pytest.approx(5.0)


def test_long_wide_and_one_class_sequences():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(MAX_TRIALS + 500, 2))
    y = (X[:, 0] > 0).astype(int)
    sec = online_section(X, y, True)
    assert sec["rows"] == MAX_TRIALS and sec["passes"] == 1 and sec["trials"] == MAX_TRIALS
    wide = rng.normal(size=(30, MAX_AROW_FEATURES + 1))
    sec = online_section(wide, np.arange(30) % 2, True)
    assert "not run here" in sec["learners"][3]["skipped"] and "updates" in sec["learners"][0]
    y = np.r_[np.zeros(MAX_TRIALS), np.ones(10)]
    sec = online_section(rng.normal(size=(MAX_TRIALS + 10, 2)), y, True)
    assert all("all of one class" in L["skipped"] for L in sec["learners"])
