"""No hidden copies: dense input is used in place, float32 stays float32, CSR is compacted at most once."""

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import AveragedPerceptron, Perceptron
from perceptrons._core.operands import to_operand

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def peak_during(fn):
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron])
def test_dense_fit_allocates_far_less_than_the_input(dtype, cls):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((100_000, 50)).astype(dtype)  # 20-40 MB
    y = (X[:, 0] > 0).astype(int)
    cls(max_epochs=1).fit(X[:10], y[:10])  # compile outside the measurement
    peak = peak_during(lambda: cls(max_epochs=3).fit(X, y))
    # labels, per-example scale factors and weights only: well under a tenth of X
    assert peak < 0.1 * X.nbytes, (peak, X.nbytes)


def test_float32_reaches_the_kernel_as_float32():
    X = np.random.default_rng(0).standard_normal((20, 3)).astype(np.float32)
    op = to_operand(X)
    assert op.dtype == np.float32 and np.shares_memory(op, X)  # no copy
    assert not op.flags.writeable and X.flags.writeable  # read-only to the loop, the caller's own unchanged


def test_csr_compaction():
    A = sp.random(200, 50, density=0.1, format="csr", random_state=0)
    A.indices = A.indices.astype(np.int64)
    A.indptr = A.indptr.astype(np.int64)
    data, indices, indptr = to_operand(A)
    assert (
        indices.dtype == np.int32 and indptr.dtype == np.int32 and np.shares_memory(data, A.data)
    )  # one specialisation
    assert not any(a.flags.writeable for a in (data, indices, indptr)) and A.data.flags.writeable
    np.testing.assert_array_equal(indptr, A.indptr)
    A.data[:] = 1.0
    op = to_operand(A)
    assert len(op) == 2 and op[0].dtype == np.int32  # no value array at all
    B = sp.csr_matrix(A, dtype=np.float32)
    B.data[:] = 0.5
    assert to_operand(B)[0].dtype == np.float32
    C = A.copy()
    C.indices = C.indices.astype(np.int32)
    C.indptr = C.indptr.astype(np.int32)
    indices, indptr = to_operand(C)
    assert np.shares_memory(indices, C.indices) and np.shares_memory(indptr, C.indptr)  # compact: no copy


def test_csr_int64_indices_accepted_and_equal_to_int32():
    A = sp.random(300, 40, density=0.2, format="csr", random_state=1)
    y = (A @ np.arange(40) > A.sum(axis=1).A1 * 20).astype(int)
    A64 = A.copy()
    A64.indices = A64.indices.astype(np.int64)
    A64.indptr = A64.indptr.astype(np.int64)
    a = Perceptron(max_epochs=5).fit(A, y)
    b = Perceptron(max_epochs=5).fit(A64, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)


def test_weight_dtype_follows_the_sparse_values():
    from perceptrons._core.operands import weight_dtype

    A = sp.random(100, 30, density=0.2, format="csr", random_state=2)
    y = np.arange(100) % 2
    assert weight_dtype(to_operand(A)) == np.float64
    assert weight_dtype(to_operand(A.astype(np.float32))) == np.float32
    B = A.copy()
    B.data[:] = 1.0
    assert weight_dtype(to_operand(B)) == np.float32  # binary features: integer updates
    assert weight_dtype(np.zeros((3, 2))) == np.float64
    assert Perceptron(max_epochs=3).fit(B, y).coef_.dtype == np.float32
