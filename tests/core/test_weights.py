"""sample_weight and class_weight, in fit and in partial_fit (where scikit-learn refuses class_weight)."""

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

FAMILY = [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron]


def data(seed=0, n=80, k=2):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, 4)).astype(float)
    y = np.argmax(X[:, :k] + rng.normal(0, 1.5, (n, k)), axis=1)
    return X, y


@pytest.mark.parametrize("cls", FAMILY)
def test_zero_weight_equals_removal(cls):
    X, y = data()
    w = np.ones(len(y))
    w[::3] = 0
    a = cls(max_epochs=7).fit(X, y, sample_weight=w)
    b = cls(max_epochs=7).fit(X[w > 0], y[w > 0])
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    assert a.mistakes_per_epoch_ == b.mistakes_per_epoch_


@pytest.mark.parametrize("cls", FAMILY)
def test_uniform_weight_scales_the_weights(cls):
    X, y = data(1)
    a = cls(max_epochs=5).fit(X, y)
    b = cls(max_epochs=5).fit(X, y, sample_weight=np.full(len(y), 2.5))
    # the PLA is scale-free: every update scaled by 2.5 scales w and b, the mistakes stay
    np.testing.assert_allclose(b.coef_, 2.5 * a.coef_)
    assert a.mistakes_per_epoch_ == b.mistakes_per_epoch_


def test_class_weight_dict_equals_sample_weight():
    X, y = data(2, k=3)
    cw = {0: 1.0, 1: 3.0, 2: 0.5}
    a = Perceptron(max_epochs=6, class_weight=cw).fit(X, y)
    b = Perceptron(max_epochs=6).fit(X, y, sample_weight=np.array([cw[c] for c in y]))
    np.testing.assert_array_equal(a.coef_, b.coef_)


def test_balanced_uses_n_over_k_counts():
    X, y = data(3)
    y[:60] = 0  # unbalanced
    counts = np.bincount(y)
    expected = len(y) / (2 * counts)
    a = Perceptron(max_epochs=6, class_weight="balanced").fit(X, y)
    b = Perceptron(max_epochs=6).fit(X, y, sample_weight=expected[y])
    np.testing.assert_allclose(a.coef_, b.coef_)


@pytest.mark.parametrize("cls", FAMILY)
def test_partial_fit_honours_class_weight(cls):
    X, y = data(4)
    cw = {0: 1.0, 1: 4.0}
    a = cls(class_weight=cw).partial_fit(X, y, classes=[0, 1])
    b = cls().partial_fit(X, y, classes=[0, 1], sample_weight=np.array([cw[c] for c in y]))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    balanced = cls(class_weight="balanced").partial_fit(X, y, classes=[0, 1])
    assert not np.array_equal(balanced.coef_, cls().partial_fit(X, y, classes=[0, 1]).coef_)


def test_class_weight_shifts_errors_towards_the_light_class():
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(-0.5, 1, (300, 2)), rng.normal(0.5, 1, (300, 2))])
    y = np.r_[np.zeros(300, int), np.ones(300, int)]
    heavy0 = AveragedPerceptron(max_epochs=20, class_weight={0: 10.0, 1: 1.0}).fit(X, y)
    recall0 = np.mean(heavy0.predict(X[y == 0]) == 0)
    plain = AveragedPerceptron(max_epochs=20).fit(X, y)
    assert recall0 > np.mean(plain.predict(X[y == 0]) == 0)


def test_sparse_and_dense_weights_agree():
    X, y = data(6)
    w = np.random.default_rng(0).integers(0, 3, len(y)).astype(float)
    a = Perceptron(max_epochs=5).fit(X, y, sample_weight=w)
    b = Perceptron(max_epochs=5).fit(sp.csr_matrix(X), y, sample_weight=w)
    np.testing.assert_array_equal(a.coef_, b.coef_)


@pytest.mark.parametrize("cls", FAMILY)
def test_weights_that_are_zero_for_every_example_are_refused(cls):
    """An all-zero sample_weight was refused, but a class_weight of 0 for every class learned
    nothing in silence (a constant model, 0.48 on its own training rows)."""
    from perceptrons._core.errors import PerceptronsError

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(PerceptronsError, match="sample_weight: all weights are zero"):
        cls().fit(X, y, sample_weight=np.zeros(40))
    with pytest.raises(PerceptronsError, match=r"class_weight \(times sample_weight\) is zero for every example"):
        cls(class_weight={0: 0.0, 1: 0.0}).fit(X, y)
    with pytest.raises(
        PerceptronsError, match="is zero for every example"
    ):  # each row's weight zeroed by one or the other
        cls(class_weight={0: 0.0, 1: 1.0}).fit(X, y, sample_weight=(y == 0).astype(float))
