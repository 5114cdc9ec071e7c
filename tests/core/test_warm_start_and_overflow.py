"""Warm starts and overflow: warm_start with other classes or features, the voted
perceptron's warm start, AveragedPerceptron's coef_ dtype, overflow reports and parameters
that are not finite numbers."""

import warnings
from numbers import Integral, Real

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from perceptrons import AveragedPerceptron, KernelPerceptron, Perceptron, PocketPerceptron, VotedPerceptron
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import Interval

LINEAR = [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron]
X5 = np.array([[-1.0, 1], [1, 1], [-1, -1], [1, -1], [0, 2]])


def int_data(seed, n=40, d=4, k=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)  # every class present
    return X, y


def quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fn(*args, **kw)


def snapshot(est):
    return est.coef_.copy(), est.intercept_.copy(), est.classes_.copy(), est.n_features_in_


def assert_unchanged(est, before):
    coef, intercept, classes, d = before
    np.testing.assert_array_equal(est.coef_, coef)
    np.testing.assert_array_equal(est.intercept_, intercept)
    np.testing.assert_array_equal(est.classes_, classes)
    assert est.n_features_in_ == d
    assert est.predict(X5).shape == (5,)


# ----------------------------------------------------------------------------- 1. warm_start
@pytest.mark.parametrize("Est", LINEAR)
@pytest.mark.parametrize(
    "y1, y2",
    [
        ([0, 1, 2, 0, 1], [0, 1, 2, 3, 3]),  # K -> K+1: used to write past the weights (double free)
        ([0, 1, 1, 0, 1], [0, 1, 2, 0, 1]),  # 2 -> 3: used to keep a binary model silently
        ([0, 1, 2, 0, 1], [0, 1, 1, 0, 1]),  # 3 -> 2
        (["a", "b", "a", "b", "a"], ["a", "c", "a", "c", "a"]),  # same count, other labels
    ],
)
def test_warm_start_with_other_classes_is_refused(Est, y1, y2):
    est = quiet(Est(warm_start=True).fit, X5, y1)
    before = snapshot(est)
    with pytest.raises(
        PerceptronsError,
        match=r"^warm_start can only be used where `y` has the same classes "
        r"as in the previous call to fit\. Previous classes: \[.*\], current: \[.*\]",
    ):
        est.fit(X5, y2)
    assert_unchanged(est, before)


@pytest.mark.parametrize("Est", LINEAR)
@pytest.mark.parametrize("convert", [np.asarray, sp.csr_matrix, lambda A: A.tolist()], ids=["dense", "csr", "list"])
def test_warm_start_with_other_features_is_refused(Est, convert):
    est = quiet(Est(warm_start=True).fit, X5, [0, 1, 2, 0, 1])
    before = snapshot(est)
    wider = np.hstack([X5, X5])
    with pytest.raises(PerceptronsError, match=r"X has 4 features, but .* was fitted with n_features_in_=2"):
        est.fit(convert(wider), [0, 1, 2, 0, 1])
    assert_unchanged(est, before)


@pytest.mark.parametrize("Est", LINEAR)
def test_without_warm_start_other_classes_and_features_refit(Est):
    est = quiet(Est().fit, X5, [0, 1, 1, 0, 1])
    quiet(est.fit, np.hstack([X5, X5]), [0, 1, 2, 3, 3])
    assert est.classes_.tolist() == [0, 1, 2, 3] and est.n_features_in_ == 4


@pytest.mark.parametrize("Est", LINEAR)
def test_warm_start_with_same_classes_continues(Est):
    X, y = int_data(0, k=2)
    y = np.where(X @ np.array([1.0, -2.0, 0.5, 1.0]) + 0.25 > 0, 1, 0)  # separable
    est = Est(warm_start=True).fit(X, y)
    assert est.converged_
    est.fit(X, y)
    assert est.mistakes_per_epoch_ == [0] and est.n_updates_ == 0


# ----------------------------------------------------------------------------- 2. voted warm start
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_voted_warm_start_keeps_the_first_fits_votes(k, fit_intercept):
    X1, y1 = int_data(1, k=k)
    X2, y2 = int_data(2, n=30, k=k)
    kw = dict(warm_start=True, max_epochs=3, fit_intercept=fit_intercept)
    avg = quiet(AveragedPerceptron(**kw).fit, X1, y1)
    quiet(avg.fit, X2, y2)
    voted = quiet(VotedPerceptron(**kw).fit, X1, y1)
    n_first = voted.n_vectors_
    quiet(voted.fit, X2, y2)
    assert voted.n_vectors_ > n_first
    c = voted.vector_counts_.astype(np.float64)
    visits = 3 * len(y1) + 3 * len(y2)  # noisy labels: every epoch runs
    assert c.sum() == visits
    mean = np.tensordot(c, voted.vectors_, axes=1) / c.sum()
    mean_b = c @ voted.vector_intercepts_ / c.sum()
    np.testing.assert_allclose(mean.reshape(avg.coef_.shape), avg.coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.ravel(mean_b), avg.intercept_, rtol=1e-12, atol=1e-12)
    # the last vector is the last iterate, as for the averaged perceptron
    np.testing.assert_array_equal(voted.vectors_[-1].reshape(avg.last_coef_.shape), avg.last_coef_)


def test_voted_warm_start_equals_partial_fit_epochs():
    X1, y1 = int_data(3, k=2)
    warm = VotedPerceptron(warm_start=True, max_epochs=1)
    quiet(warm.fit, X1, y1)
    quiet(warm.fit, X1, y1)
    online = VotedPerceptron().partial_fit(X1, y1, classes=[0, 1]).partial_fit(X1, y1)
    np.testing.assert_array_equal(warm.vectors_, online.vectors_)
    np.testing.assert_array_equal(warm.vector_counts_, online.vector_counts_)


# ----------------------------------------------------------------------------- 4. coef_ dtype
@pytest.mark.parametrize("Est", LINEAR)
@pytest.mark.parametrize("k", [2, 3])
def test_coef_dtype_follows_the_weights_on_float32_csr(Est, k):
    X, y = int_data(4, k=k)
    X32 = sp.csr_matrix(X.astype(np.float32))
    X32.data[X32.data == 1] = 2  # not all ones: the value array is kept, in float32
    est = quiet(Est(max_epochs=5).fit, X32, y)
    assert est.coef_.dtype == np.float32
    assert est.coef_.dtype == quiet(Perceptron(max_epochs=5).fit, X32, y).coef_.dtype


def test_averaged_float32_coef_is_the_exact_mean_rounded_once():
    X, y = int_data(5, k=3)
    X[X == 1] = 2
    a32 = quiet(AveragedPerceptron(max_epochs=6).fit, sp.csr_matrix(X.astype(np.float32)), y)
    a64 = quiet(AveragedPerceptron(max_epochs=6).fit, sp.csr_matrix(X), y)
    # integer updates are exact in float32, and the mean is taken in float64 before rounding
    np.testing.assert_array_equal(a32.coef_, a64.coef_.astype(np.float32))
    np.testing.assert_array_equal(a32.intercept_, a64.intercept_)


# ----------------------------------------------------------------------------- 5. overflow
@pytest.mark.parametrize("Est", LINEAR)
@pytest.mark.parametrize("convert", [np.asarray, sp.csr_matrix], ids=["dense", "csr"])
def test_linear_overflow_is_not_reported_as_nan(Est, convert):
    X = convert(X5 * 1e200)
    with pytest.raises(
        PerceptronsError,
        match=r"^score of row \d+ overflowed to infinity or NaN \(features up to "
        r"2e\+200\); scale the features, e\.g\. with sklearn\.preprocessing\.StandardScaler$",
    ):
        Est().fit(X, [0, 1, 0, 1, 1])


@pytest.mark.parametrize("Est", LINEAR)
def test_linear_nan_is_still_reported_as_nan(Est):
    X = X5.copy()
    X[3, 1] = np.nan
    with pytest.raises(PerceptronsError, match=r"NaN or infinity \(row 3\)"):
        Est().fit(X, [0, 1, 0, 1, 1])


def test_weights_that_overflow_on_the_last_update_are_refused():
    # the last update makes w and b infinite, and no later score would notice (the weights'
    # sum, 1.1e308, is finite: a sum that overflows is refused before training)
    est = Perceptron()
    match = r"the weights \(coef_\) overflowed to infinity or NaN \(features up to 1e\+300\)"
    with pytest.raises(PerceptronsError, match=match):
        est.partial_fit(np.array([[1e-300], [-1e300]]), [1, 1], classes=[0, 1], sample_weight=[1e308, 1e307])
    assert est.converged_ is False


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid"])
def test_kernel_overflow_is_refused(kernel):
    # squared row norms of 1e400: refused before any kernel value is computed
    est = KernelPerceptron(kernel=kernel, max_epochs=5)
    with pytest.raises(
        PerceptronsError,
        match=r"features up to 2e\+200 have squared row norms up to inf, beyond the float64 range "
        r".*StandardScaler",
    ):
        est.fit(X5 * 1e200, [0, 1, 0, 1, 1])
    assert not getattr(est, "converged_", False)


def test_kernel_values_beyond_the_range_are_refused_naming_the_kernel():
    # kernel values of (1e200)^3 from rows whose inner products fit: refused where they are
    # computed, with the parameters and the features (the sum of fitting values overflowing
    # in a score is test_kernel_precomputed_overflow_names_the_kernel_matrix)
    est = KernelPerceptron(kernel="poly", gamma=1.0, degree=3, max_epochs=5)
    with pytest.raises(
        PerceptronsError,
        match=r"kernel 'poly': .* overflows float64 with gamma=1, coef0=0, degree=3 on features up to 2e\+100.*StandardScaler",
    ):
        with np.errstate(all="ignore"):
            est.fit(X5 * 1e100, [0, 1, 0, 1, 1])
    assert not getattr(est, "converged_", False)


def test_kernel_overflow_in_partial_fit_leaves_the_model():
    est = KernelPerceptron(kernel="poly", gamma=1.0, degree=3).partial_fit(X5, [0, 1, 0, 1, 1], classes=[0, 1])
    before = est.decision_function(X5)
    for scale, match in ((1e200, "squared row norms"), (1e100, "degree overflows")):
        with pytest.raises(PerceptronsError, match=match):
            with np.errstate(all="ignore"):
                est.partial_fit(X5 * scale, [0, 1, 0, 1, 1])
        assert est.converged_ is False
        np.testing.assert_array_equal(est.decision_function(X5), before)


def test_kernel_precomputed_overflow_names_the_kernel_matrix():
    G = np.full((4, 4), -1e308)
    np.fill_diagonal(G, 1e308)  # the second update adds -1e308 to scores already at -1e308
    with pytest.raises(PerceptronsError, match=r"kernel values up to 1e\+308\); scale the kernel matrix"):
        with np.errstate(all="ignore"):
            KernelPerceptron(kernel="precomputed").fit(G, [1, 1, 0, 0])


@pytest.mark.parametrize(
    "name, value",
    [
        ("gamma", np.inf),
        ("gamma", np.nan),
        ("coef0", np.nan),
        ("coef0", np.inf),
        ("coef0", -np.inf),
        ("margin", np.inf),
        ("margin", np.nan),
        ("degree", 10**20),
        ("degree", 101),
        ("cache_size", np.inf),
    ],
)
def test_kernel_parameters_must_be_finite(name, value):
    match = rf"^The '{name}' parameter of KernelPerceptron must be .*Got {value!r} instead\.$"
    with pytest.raises(PerceptronsError, match=match):
        KernelPerceptron(**{name: value}).fit(X5, [0, 1, 0, 1, 1])


def test_kernel_degree_bounds_are_accepted():
    for degree in (0, 100):
        est = quiet(KernelPerceptron(kernel="poly", degree=degree, gamma=0.1, max_epochs=2).fit, X5, [0, 1, 0, 1, 1])
        assert est.degree == degree and est.n_epochs_ >= 1
        assert set(est.predict(X5).tolist()) <= {0, 1}


@pytest.mark.parametrize("Est", LINEAR)
@pytest.mark.parametrize("margin", [np.inf, np.nan])
def test_linear_margin_must_be_finite(Est, margin):
    with pytest.raises(PerceptronsError, match="'margin' parameter"):
        Est(margin=margin).fit(X5, [0, 1, 0, 1, 1])


def test_interval_refuses_nan_and_inf_unless_allowed():
    open_ended = Interval(Real, 0.0, None)
    assert open_ended.accepts(1e300) and open_ended.accepts(np.float32(2.0))
    for bad in (np.inf, np.nan, np.float32("inf"), float("nan")):
        assert not open_ended.accepts(bad)
    assert not Interval(Real, None, None).accepts(-np.inf)
    allowed = Interval(Real, 0.0, None, allow_inf=True)
    assert allowed.accepts(np.inf) and not allowed.accepts(np.nan) and not allowed.accepts(-np.inf)
    assert Interval(Integral, 0, None).accepts(10**30)


@pytest.mark.parametrize(
    "param,value", [("budget", 2**64), ("budget", 10**7 + 1), ("cache_size", 1e308), ("cache_size", 2.0**20 + 1)]
)
def test_kernel_sizes_are_bounded(param, value):
    # Found by the model fuzzer: these reached numpy as a huge allocation or a NaN capacity.
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    with pytest.raises(PerceptronsError, match=param):
        KernelPerceptron(**{param: value}).fit(X, [0, 1, 1, 0])


# --------------------------------------------------------------------- inputs users really pass
@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, PocketPerceptron])
def test_binary_csr_with_weights_that_are_not_whole_fits_as_dense(cls):
    """0/1 CSR trains float32 weights, exact while every update is a whole number; near-unit
    sample weights made them round (coef_ ~1e-5 off the dense fit, and predictions apart)."""
    rng = np.random.default_rng(0)
    X = (rng.random((400, 50)) < 0.2).astype(np.float64)
    y = rng.integers(0, 2, 400)
    sw = 1.0 + rng.random(400) * 1e-3
    dense = quiet(cls(max_epochs=30, random_state=0).fit, X, y, sample_weight=sw)
    csr = quiet(cls(max_epochs=30, random_state=0).fit, sp.csr_matrix(X), y, sample_weight=sw)
    np.testing.assert_array_equal(dense.coef_, csr.coef_)
    assert quiet(cls(max_epochs=3).fit, sp.csr_matrix(X), y).coef_.dtype == np.float32  # whole updates: float32
    online = cls(random_state=0).partial_fit(sp.csr_matrix(X), y, classes=[0, 1])  # float32 so far
    online.partial_fit(sp.csr_matrix(X), y, sample_weight=sw)  # then widened, the weights so far exact
    assert online.coef_.dtype == np.float64


@pytest.mark.parametrize(
    "kwargs,fit_kwargs,match",
    [
        ({"class_weight": {0: "a"}}, {}, r"class_weight\[0\] must be a finite number >= 0; got 'a'"),
        ({"class_weight": {0: None}}, {}, r"class_weight\[0\] must be a finite number >= 0; got None"),
        ({}, {"sample_weight": ["a"] * 5}, "sample_weight must be real numbers; got text"),
        ({}, {"sample_weight": np.ones(5) + 3j}, "sample_weight must be real numbers; got an array of complex128"),
    ],
)
@pytest.mark.parametrize("cls", [Perceptron, KernelPerceptron])
def test_weights_of_the_wrong_kind_are_named(cls, kwargs, fit_kwargs, match):
    """numpy's own errors ("ufunc 'isfinite' not supported", "could not convert string to
    float") named neither argument, and complex sample weights lost their imaginary part."""
    with pytest.raises(PerceptronsError, match=match):
        quiet(cls(**kwargs).fit, X5, [0, 1, 0, 1, 0], **fit_kwargs)


def test_theory_refuses_complex_and_too_wide_input_and_scales_radii():
    from perceptrons.theory import is_separable, novikoff_bound, radius

    X, y = X5[:4], [0, 1, 0, 1]
    for fn in (radius, lambda Z: novikoff_bound(Z, y), lambda Z: is_separable(Z, y)):
        with pytest.raises(PerceptronsError, match="complex values"):
            fn(X + 5j)  # the imaginary parts were dropped with a warning
    wide = sp.csr_matrix((np.ones(3), ([0, 1, 2], [0, 1, 2**31 + 4])), shape=(3, 2**31 + 5))
    with pytest.raises(
        PerceptronsError,
        match=r"the 3 × 2,147,483,653 dense values of X \(the theory's solvers are dense\), 3 copies, need 144.0 GiB",
    ):
        radius(wide)  # a bare MemoryError before
    assert radius(np.array([[3.0, 4.0], [0.0, 1.0]]) * 1e160, fit_intercept=False) == pytest.approx(5e160)  # was inf


def test_rbf_with_a_huge_gamma_is_a_kernel_not_nan():
    """2·gamma overflowed for gamma ~1e308 (inf − inf: NaN kernel values, blamed on the
    features); exp(−gamma·d²) is 0 between distinct points, as scikit-learn computes it."""
    from perceptrons.kernel.kernels import rbf

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 5))
    K = rbf(X, X, 1e308, None, None)
    assert np.isfinite(K).all() and (K[~np.eye(20, dtype=bool)] == 0).all()
    quiet(KernelPerceptron(gamma=1e308, max_epochs=3).fit, X, (X[:, 0] > 0).astype(int))


def test_weights_that_diverge_on_features_in_unit_range_are_not_told_to_scale_them():
    """Features of 0 and 1 need no scaling: an overflow there is the learner's weights growing
    (Winnow's huge multiplier here), and the advice says so rather than "scale the features"."""
    from perceptrons import Winnow

    rng = np.random.default_rng(0)
    X, y = (rng.random((2000, 20)) < 0.5).astype(float), rng.integers(0, 2, 2000)
    with pytest.raises(PerceptronsError, match=r"features up to 1\); the learner's weights grew") as exc:
        Winnow(alpha=1e100, max_epochs=50).fit(X, y)
    assert "scale the features" not in str(exc.value)


def test_weights_that_diverge_on_standardised_features_name_the_learner_first():
    """ROMMA on standardised, inseparable rows grows its weights to overflow: the advice leads
    with the learner's divergence, not with scaling columns that are already scaled."""
    from sklearn.preprocessing import StandardScaler

    from perceptrons import ROMMA

    rng = np.random.default_rng(0)
    X, y = StandardScaler().fit_transform(rng.normal(size=(40, 3))), rng.integers(0, 2, 40)
    with pytest.raises(PerceptronsError, match=r"features up to 2\.4\d\); the learner's weights grew without bound"):
        ROMMA(max_epochs=10000).fit(X, y)
