"""The online family's compiled loops against the readable oracles of tests/reference.py, over
every storage (dense float64 and float32, CSR with values, int64 indices, binary CSR), two
classes and three, with and without the bias.

The loops sum a row's products in another order than the oracles (four partial sums for CSR
rows) and ALMA and ROMMA keep their weights as a scalar times a vector, so the weights agree to
1e-12 relative (of the largest weight) rather than bit for bit; the counts of mistakes and
updates agree exactly.  Confidence-weighted learning with a full covariance agrees to 1e-8: on
noisy rows it fits every label, its Σ shrinks by orders of magnitude an epoch and grows
ill-conditioned, and the rounding of a reordered sum grows with the condition number (past a few
more epochs, any two orders of summation part ways).
"""

from statistics import NormalDist

import numpy as np
import pytest
import reference as ref
import scipy.sparse as sp

from perceptrons import (
    ALMA,
    AROW,
    ROMMA,
    SCW,
    ConfidenceWeighted,
    PassiveAggressive,
    SecondOrderPerceptron,
    Winnow,
)

STORAGES = {
    "dense": lambda X: X,
    "dense32": lambda X: X.astype(np.float32),
    "csr": lambda X: sp.csr_matrix(X),
    "csr-int64": lambda X: _int64(sp.csr_matrix(X)),
}


def _int64(A):
    A.indices = A.indices.astype(np.int64)
    A.indptr = A.indptr.astype(np.int64)
    return A


def data(seed, k, n=40, d=5, binary=False):
    """Small noisy data (so that every rule keeps updating), values exact in float32."""
    rng = np.random.default_rng(seed)
    if binary:
        X = (rng.random((n, d)) < 0.4).astype(np.float64)
    else:
        X = np.round(rng.normal(size=(n, d)) * 4) / 4
        X[rng.random((n, d)) < 0.3] = 0.0
    y = np.argmax(X @ rng.normal(size=(d, k)) + rng.normal(0, 1.0, (n, k)), axis=1)
    y[:k] = np.arange(k)
    return X, y


def oracle_weights(W, k, fit_intercept):
    """(coef_, intercept_) of an oracle's weight rows."""
    W = np.array(W)
    return (W[:, :-1], W[:, -1]) if fit_intercept else (W, np.zeros(W.shape[0]))


def check(est, X, y, k, W, history, fit_intercept, storage, sample_weight=None, rtol=1e-12):
    est.fit(STORAGES[storage](X), y, sample_weight=sample_weight)
    coef, intercept = oracle_weights(W, k, fit_intercept)
    assert [(m, u) for m, u in history] == list(
        zip(est.mistakes_per_epoch_, np.diff([0] + list(np.cumsum(history, axis=0)[:, 1])))
    ) or est.mistakes_per_epoch_ == [m for m, _ in history]
    assert est.mistakes_per_epoch_ == [m for m, _ in history]
    assert est.n_updates_ == sum(u for _, u in history)
    np.testing.assert_allclose(est.coef_, coef, rtol=rtol, atol=rtol * np.abs(coef).max())
    np.testing.assert_allclose(est.intercept_, intercept, rtol=rtol, atol=rtol * np.abs(coef).max())


#: the agreement of confidence-weighted learning with a full covariance (see the docstring)
CW_FULL = 1e-8

PARAMS = [("dense", True), ("csr", False), ("dense32", True), ("csr-int64", True)]


@pytest.mark.parametrize("storage, fit_intercept", PARAMS)
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("variant", ["pa", "pa1", "pa2"])
def test_passive_aggressive(storage, fit_intercept, k, variant):
    X, y = data(1, k)
    W, hist = ref.online_pa(X.tolist(), y.tolist(), k, variant=variant, C=0.3, fit_intercept=fit_intercept)
    est = PassiveAggressive(variant=variant, C=0.3, max_epochs=5, fit_intercept=fit_intercept)
    check(est, X, y, k, W, hist, fit_intercept, storage)


SECOND_ORDER = {
    "arow": (lambda cov: AROW(r=0.5, covariance=cov), {"p1": 0.5}),
    "cw": (
        lambda cov: ConfidenceWeighted(eta=0.8, a=0.7, covariance=cov),
        {"phi": NormalDist().inv_cdf(0.8), "sigma0": 0.7},
    ),
    "scw1": (lambda cov: SCW(C=0.2, eta=0.75, covariance=cov), {"p1": 0.2, "phi": NormalDist().inv_cdf(0.75)}),
    "scw2": (
        lambda cov: SCW(variant="II", C=0.2, eta=0.75, covariance=cov),
        {"p1": 0.2, "phi": NormalDist().inv_cdf(0.75)},
    ),
    "sop": (lambda cov: SecondOrderPerceptron(a=2.0, covariance=cov), {"sigma0": 0.5}),
}


@pytest.mark.parametrize("storage, fit_intercept", PARAMS)
@pytest.mark.parametrize("covariance, k", [("full", 2), ("diagonal", 2), ("diagonal", 3)])
@pytest.mark.parametrize("rule", list(SECOND_ORDER))
def test_second_order(storage, fit_intercept, covariance, k, rule):
    X, y = data(2, k)
    make, kw = SECOND_ORDER[rule]
    W, hist = ref.online_second_order(
        X.tolist(), y.tolist(), k, rule=rule, full=covariance == "full", fit_intercept=fit_intercept, **kw
    )
    est = make(covariance)
    est.set_params(max_epochs=5, fit_intercept=fit_intercept)
    check(
        est, X, y, k, W, hist, fit_intercept, storage, rtol=CW_FULL if (rule, covariance) == ("cw", "full") else 1e-12
    )
    assert est.covariance_ == covariance


def weights(n, seed=5):
    """Sample weights with zeros (rows not visited), halves and a few large ones."""
    return np.random.default_rng(seed).choice([0.0, 0.5, 1.0, 3.0], size=n, p=[0.2, 0.3, 0.3, 0.2])


@pytest.mark.parametrize("storage", ["dense", "csr"])
@pytest.mark.parametrize("k", [2, 3])
def test_passive_aggressive_averaged_and_weighted(storage, k):
    X, y = data(6, k)
    a = weights(len(y))
    W, hist = ref.online_pa(X.tolist(), y.tolist(), k, variant="pa1", C=0.3, weights=a.tolist(), average=True)
    est = PassiveAggressive(variant="pa1", C=0.3, max_epochs=5, average=True)
    check(est, X, y, k, W, hist, True, storage, sample_weight=a)


@pytest.mark.parametrize("storage", ["dense", "csr"])
@pytest.mark.parametrize("covariance, k", [("full", 2), ("diagonal", 2), ("diagonal", 3)])
@pytest.mark.parametrize("rule", list(SECOND_ORDER))
def test_second_order_averaged_and_weighted(storage, covariance, k, rule):
    X, y = data(7, k)
    a = weights(len(y))
    make, kw = SECOND_ORDER[rule]
    W, hist = ref.online_second_order(
        X.tolist(), y.tolist(), k, rule=rule, full=covariance == "full", weights=a.tolist(), average=True, **kw
    )
    est = make(covariance).set_params(max_epochs=5, average=True)
    rtol = CW_FULL if (rule, covariance) == ("cw", "full") else 1e-12
    check(est, X, y, k, W, hist, True, storage, sample_weight=a, rtol=rtol)


@pytest.mark.parametrize("storage, fit_intercept", PARAMS)
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("rule", ["alma", "romma", "romma-aggressive"])
def test_alma_and_romma(storage, fit_intercept, k, rule):
    X, y = data(3, k)
    W, hist = ref.online_scaled(X.tolist(), y.tolist(), k, rule=rule, alpha=0.7, fit_intercept=fit_intercept)
    est = ALMA(alpha=0.7) if rule == "alma" else ROMMA(aggressive=rule == "romma-aggressive")
    est.set_params(max_epochs=5, fit_intercept=fit_intercept)
    check(est, X, y, k, W, hist, fit_intercept, storage)


@pytest.mark.parametrize("storage", ["dense", "csr", "ones"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("balanced", [True, False])
def test_winnow(storage, fit_intercept, k, balanced):
    X, y = data(4, k, binary=True)
    theta = 0.0 if balanced else float(X.shape[1])
    P, N, hist = ref.online_winnow(
        X.tolist(), y.tolist(), k, alpha=1.5, theta=theta, balanced=balanced, fit_intercept=fit_intercept
    )
    est = Winnow(alpha=1.5, balanced=balanced, max_epochs=5, fit_intercept=fit_intercept)
    Xs = sp.csr_matrix(X) if storage != "dense" else X  # binary CSR: the loops read no values
    est.fit(Xs, y)
    W = np.array(P) - np.array(N)
    coef, intercept = oracle_weights(W, k, fit_intercept)
    assert est.mistakes_per_epoch_ == [m for m, _ in hist]
    np.testing.assert_allclose(est.coef_, coef, rtol=1e-12, atol=1e-12 * np.abs(coef).max())
    if k == 2:
        np.testing.assert_allclose(est.intercept_, intercept - theta, rtol=1e-12, atol=1e-12 * np.abs(coef).max())
