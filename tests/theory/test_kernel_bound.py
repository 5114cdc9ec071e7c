"""The kernel perceptron's mistake bound: the perceptron's, on rows whose dot products are the
kernel's values, beside the dual algorithm's own count."""

import warnings

import numpy as np
import pytest
from sklearn.base import clone

from perceptrons import KernelPerceptron, Perceptron
from perceptrons._core.errors import PerceptronsError
from perceptrons.datasets import noisy_blobs
from perceptrons.theory import NoBound, mistake_bound
from perceptrons.theory.kernel_bound import dual_mistakes, feature_rows


def test_feature_rows_reproduce_the_gram_matrix_and_refuse_a_negative_eigenvalue():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    K = (X @ X.T + 1.0) ** 2
    L = feature_rows(K)
    np.testing.assert_allclose(L @ L.T, K, rtol=0, atol=1e-9 * np.abs(K).max())
    assert L.shape[1] == 15  # the quadratic features of 4 inputs and a constant: (4 + 2 choose 2)
    with pytest.raises(NoBound, match=r"eigenvalue -1 < 0: it is not a dot product"):
        feature_rows(np.array([[0.0, 1.0], [1.0, 0.0]]))


def test_the_dual_run_stops_after_a_pass_without_an_error():
    K = np.array([[1.0, 0.0], [0.0, 1.0]])
    s = np.array([1.0, -1.0])
    assert dual_mistakes(K, s, False, passes=10**6).tolist() == [0, 1]  # then a clean pass ends it


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_the_kernel_perceptrons_count_is_its_fits_and_a_linear_kernel_gives_the_perceptrons_bound(fit_intercept):
    """The bound on rows L with L Lᵀ = K: its count is the kernel perceptron's own (its fit's
    mistakes, epoch by epoch), and with the linear kernel it is the primal perceptron's bound."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = (np.hypot(X[:, 0], X[:, 1]) > 1.1).astype(int)  # a circle: separable by the RBF kernel only
    for kernel in ("rbf", "poly"):
        model = KernelPerceptron(kernel=kernel, degree=2, margin=0, fit_intercept=fit_intercept)
        mb = mistake_bound(model, X, y, passes=3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # not separable in three epochs: a ConvergenceWarning
            fit = clone(model).set_params(max_epochs=3, averaged=False).fit(X, y)
        assert mb.observed == sum(fit.mistakes_per_epoch_) and mb.holds
        assert mb.algorithm == f"KernelPerceptron ({kernel!r} kernel)"
    assert mistake_bound(KernelPerceptron(gamma=1.0, margin=0), X, y).theorem == "Novikoff 1962"
    # separable by the RBF kernel by a margin too thin for the max-margin QP to certify (it
    # raised): Freund and Schapire's bound, which any direction gives, holds
    Xb, yb = noisy_blobs(150, random_state=0)
    mb = mistake_bound(KernelPerceptron(margin=0), Xb, yb)
    fit = KernelPerceptron(margin=0, max_epochs=1, averaged=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert mb.holds and mb.observed == fit.fit(Xb, yb).mistakes_per_epoch_[0]
    X = X @ [[1.0, 0.5], [0.0, 1.0]] + [0.3, -0.2]
    y = (X[:, 0] - 2 * X[:, 1] > 0.1).astype(int)
    linear = mistake_bound(KernelPerceptron(kernel="linear", margin=0, fit_intercept=fit_intercept), X, y, passes=2)
    primal = mistake_bound(Perceptron(fit_intercept=fit_intercept), X, y, passes=2)
    assert (linear.theorem, linear.observed) == (primal.theorem, primal.observed)
    assert linear.bound == pytest.approx(primal.bound, rel=1e-9)


def test_a_kernel_matrix_that_is_not_symmetric_is_refused():
    """Its symmetric part gave a bound of 2 where the run over K made 7 mistakes."""
    K = np.array([[1.0, 5.0], [-5.0, 1.0]])
    with pytest.raises(NoBound, match=r"not symmetric, K\(x, z\) ≠ K\(z, x\)"):
        mistake_bound(KernelPerceptron(kernel="precomputed", margin=0), K, [0, 1], passes=50)


def test_rows_of_zeros_are_bounded_by_the_trials():
    """A Gram matrix of zeros kept no direction (an IndexError); every trial is a mistake and
    Freund–Schapire's bound is the number of trials."""
    mb = mistake_bound(KernelPerceptron(kernel="linear", margin=0), np.zeros((4, 2)), [0, 1, 0, 1], passes=3)
    assert mb.observed == 12 and mb.holds and mb.bound == pytest.approx(12)


def test_no_warning_of_the_inner_fit_and_a_clear_line_above_the_row_limit():
    """The one-epoch fit that resolves gamma warned "stopped at max_epochs=1: the data may not be
    separable" on separable data; 3,000 rows ran over 5 minutes in the max-margin QP."""
    from perceptrons.theory.kernel_bound import MAX_ROWS

    X = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, -1.0], [0.5, 2.5], [-1.5, 0.2]])
    y = [1, 1, 0, 0, 1, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mistake_bound(KernelPerceptron(kernel="linear", margin=0), X, y).holds
    big = np.random.default_rng(0).normal(size=(MAX_ROWS + 1, 2))
    with pytest.raises(PerceptronsError, match=rf"at most {MAX_ROWS:,} rows .*not {MAX_ROWS + 1:,}; give a sample"):
        mistake_bound(KernelPerceptron(margin=0), big, (big[:, 0] > 0).astype(int))
