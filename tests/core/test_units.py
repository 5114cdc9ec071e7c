"""Fits in other units: on rows scaled by a power of two, every estimator makes the same run
(the same mistakes, weights scaled exactly), or refuses where the float type cannot hold the
products of its scores; never, as before, a constant model fitted on scores that had lost
their features to underflow or kernel values that had all become 1 or 0."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from perceptrons import AveragedPerceptron, KernelPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, stream
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.sources import Source

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

#: each float type with every power of two that keeps rows of normal draws (below 8) finite and not all subnormal
_UNITS = st.one_of(
    st.tuples(st.just(np.float64), st.integers(-1048, 1020)),
    st.tuples(st.just(np.float32), st.integers(-137, 124)),
)

#: the linear family without an intercept: its constant feature 1 does not scale with the rows
LINEAR = {
    "Perceptron": lambda: Perceptron(fit_intercept=False, max_epochs=5),
    "AveragedPerceptron": lambda: AveragedPerceptron(fit_intercept=False, max_epochs=5),
    "PocketPerceptron": lambda: PocketPerceptron(fit_intercept=False, max_epochs=5),
    "VotedPerceptron": lambda: VotedPerceptron(fit_intercept=False, max_epochs=5),
}


def _rows(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X @ rng.normal(size=d) + 0.5 * rng.normal(size=n) > 0).astype(int)
    return X, y


def _exact(X, moved, exponent):
    """Whether ``moved`` is ``X`` times 2**exponent exactly (no value became subnormal)."""
    if sp.issparse(X):
        X, moved = X.toarray(), moved.toarray()
    return np.array_equal(np.ldexp(moved, -exponent, dtype=moved.dtype), X)


def _must_answer(exponent, dtype, margin):
    """Whether rows scaled by 2**exponent keep their products within ``dtype``'s normal range
    (rows of ~1-3, weights of a few hundred of them: ``margin`` powers of two to spare)."""
    info = np.finfo(dtype)
    return info.minexp // 2 + 3 <= exponent <= info.maxexp // 2 - margin


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), units=_UNITS, name=st.sampled_from(sorted(LINEAR)), sparse=st.booleans())
@example(seed=0, units=(np.float64, -600), name="Perceptron", sparse=False)  # a constant model, silently
@example(seed=0, units=(np.float64, -1070), name="PocketPerceptron", sparse=False)  # the pocket kept w = 0
@example(seed=0, units=(np.float32, -70), name="AveragedPerceptron", sparse=True)  # float32 products
def test_linear_fit_does_not_depend_on_the_units_or_refuses(seed, units, name, sparse):
    dtype, exponent = units
    X, y = _rows(120, 6, seed)
    X = X.astype(dtype)
    moved = np.ldexp(X, exponent, dtype=dtype)
    if sparse:
        X, moved = sp.csr_matrix(X), sp.csr_matrix(moved)
    # the products' type: CSR float32 rows keep float32 weights, everything else float64 ones
    product = np.float32 if sparse and dtype == np.float32 else np.float64
    try:
        fit = LINEAR[name]().fit(moved, y)
    except PerceptronsError as e:
        assert "scale the features" in str(e) or "scale the features down" in str(e)
        assert not _must_answer(exponent, product, 12)
        return
    assume(_exact(X, moved, exponent))
    base = LINEAR[name]().fit(X, y)
    assert fit.mistakes_per_epoch_ == base.mistakes_per_epoch_
    assert fit.coef_.tolist() == np.ldexp(base.coef_, exponent).tolist()
    assert fit.predict(moved).tolist() == base.predict(X).tolist()


def _write_csv(path, X, y):
    lines = ["a,b,c,d,label"] + [",".join(repr(float(v)) for v in x) + f",{t}" for x, t in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")


def test_a_streamed_fit_on_tiny_features_is_refused(tmp_path):
    """The streamed fit checks its model as the in-memory one does, with the largest feature
    taken over every block of the epoch cache (found in a pass made only for tiny weights)."""
    X, y = _rows(200, 4, 0)
    path = tmp_path / "rows.csv"
    _write_csv(path, np.ldexp(X, -600), y)
    with pytest.raises(PerceptronsError, match="every score lost its features; scale the features"):
        stream.fit(Perceptron(fit_intercept=False, max_epochs=5), Source(path, block_bytes=1 << 10))
    _write_csv(path, X, y)  # the same rows in units of ~1 train
    assert stream.fit(Perceptron(fit_intercept=False, max_epochs=5), Source(path, block_bytes=1 << 10)).coef_.any()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), units=_UNITS, kernel=st.sampled_from(["rbf", "poly", "sigmoid", "linear"]))
@example(seed=0, units=(np.float64, 506), kernel="rbf")  # X.var() overflowed: gamma 0, every kernel value 1
@example(seed=0, units=(np.float64, -540), kernel="linear")  # every product 0: a constant model
@example(seed=0, units=(np.float64, -520), kernel="rbf")  # tiny features refused as an "overflow"
def test_kernel_fit_does_not_depend_on_the_units_or_refuses(seed, units, kernel):
    """With gamma="scale" (and, for the linear kernel, margin 0), a kernel perceptron makes the
    same mistakes on rows scaled by a power of two: the fit is the same run, bit for bit.
    Where the float type cannot hold the kernel's products, the fit is refused with the remedy;
    never, as before, a model fitted on kernel values that had all become 1 or 0."""
    dtype, exponent = units
    info = np.finfo(dtype)
    X, y = _rows(300, 30, seed)
    X = X.astype(dtype)
    moved = np.ldexp(X, exponent, dtype=dtype)
    kw = {"kernel": kernel, "max_epochs": 3, "margin": 0.0 if kernel == "linear" else 1.0}
    try:
        fit = KernelPerceptron(**kw).fit(moved, y)
    except PerceptronsError as e:
        assert "scale the features" in str(e)
        # only where the products truly leave the range (rows of 30 features of size ~1-3)
        assert not info.minexp // 2 + 3 <= exponent <= info.maxexp // 2 - 6
        return
    assume(_exact(X, moved, exponent))
    base = KernelPerceptron(**kw).fit(X, y)
    if kernel != "linear":
        assert fit.gamma_ == np.ldexp(base.gamma_, -2 * exponent)
    assert fit.dual_coef_.tolist() == base.dual_coef_.tolist()
    assert fit.predict(moved).tolist() == base.predict(X).tolist()


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize(
    ("params", "scale", "named"),
    [
        ({"gamma": 1e300}, 1.0, "gamma=1e+300"),
        ({"coef0": 1e300}, 1.0, "coef0=1e+300"),
        ({"coef0": -1e103}, 1.0, "coef0=-1e+103"),
        ({"degree": 10}, 1e40, "features up to"),  # fitted on rows of size ~1, then asked about rows of 1e40
    ],
)
def test_a_polynomial_kernel_beyond_the_float_range_names_its_parameters(params, scale, named):
    """(gamma·x·y + coef0) ** degree beyond the float range is refused with the parameters that
    put it there, and no RuntimeWarning; before, numpy warned "overflow encountered in power"
    and the refusal said only that the features (of size 1) should be scaled."""
    X, y = _rows(100, 5, 0)
    X /= np.abs(X).max()
    est = KernelPerceptron(kernel="poly", max_epochs=2, **params)
    with pytest.raises(
        PerceptronsError, match=r"kernel 'poly': \(gamma·x·y \+ coef0\) \*\* degree overflows float64"
    ) as e:
        est.fit(X, y).decision_function(X * scale)
    assert named in str(e.value)
