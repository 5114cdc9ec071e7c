"""ColumnCentring: the mean of chosen columns subtracted from the values rows store in them
(the columns of numbers among hashed text), checked against its definition, by scikit-learn's
estimator checks, in a model file, and through the streamed command line on rows sorted by class,
where the averaged perceptron scored 0.50 uncentred."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptrons import AveragedPerceptron, load_model, save_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.column_centring import ColumnCentring
from perceptrons.io.model_file import read_model, write_model


@parametrize_with_checks([ColumnCentring(columns=[0])])
def test_scikit_learn_checks(estimator, check):
    check(estimator)


def _sparse(seed=0, n=30, d=12):
    rng = np.random.default_rng(seed)
    dense = rng.normal(size=(n, d)) * 50 + 300
    dense[rng.random((n, d)) < 0.4] = 0
    X = sp.csr_matrix(dense)
    X.data[::7] = 0.0  # explicit zeros: stored values, which count
    return X


def test_sparse_rows_centre_the_stored_values_of_the_chosen_columns_only():
    X = _sparse()
    cols = [1, 4, 7, 11]
    c = ColumnCentring(columns=[7, 1, 4, 11, 4]).fit(X)  # repeated and unordered: distinct, increasing
    np.testing.assert_array_equal(c.columns_, cols)
    for k, j in enumerate(cols):
        col = X[:, [j]].tocsc()
        np.testing.assert_allclose(c.mean_[k], col.data.mean(), rtol=1e-12)
        assert c.n_samples_seen_[k] == col.nnz
    Z = c.transform(X)
    np.testing.assert_array_equal(Z.indptr, X.indptr)
    np.testing.assert_array_equal(Z.indices, X.indices)
    want = X.data.copy()
    for k, j in enumerate(cols):
        want[X.indices == j] -= c.mean_[k]
    np.testing.assert_allclose(Z.data, want, rtol=1e-12)
    assert X.data[0] != Z.data[0] or X.indices[0] not in cols  # the input is not changed in place


def test_dense_rows_count_every_value():
    X = _sparse().toarray()
    c = ColumnCentring(columns=[2, 5]).fit(X)
    np.testing.assert_allclose(c.mean_, X[:, [2, 5]].mean(axis=0), rtol=1e-12)
    Z = c.transform(X)
    np.testing.assert_allclose(Z[:, [2, 5]].mean(axis=0), 0, atol=1e-9)
    np.testing.assert_array_equal(np.delete(Z, [2, 5], axis=1), np.delete(X, [2, 5], axis=1))


def test_partial_fit_block_by_block_is_the_fit_on_all_rows():
    X = _sparse(n=60)
    whole = ColumnCentring(columns=range(12)).fit(X)
    parts = ColumnCentring(columns=range(12))
    for start in (0, 7, 8, 40):
        parts.partial_fit(X[start : {0: 7, 7: 8, 8: 40, 40: 60}[start]])
    np.testing.assert_allclose(parts.mean_, whole.mean_, rtol=1e-12)
    np.testing.assert_array_equal(parts.n_samples_seen_, whole.n_samples_seen_)


def test_columns_outside_the_rows_are_refused():
    with pytest.raises(PerceptronsError, match=r"columns must be in \[0, 12\); got 3 to 12"):
        ColumnCentring(columns=[3, 12]).fit(_sparse())


def _saved(tmp_path):
    X = _sparse(n=80)
    y = (X[:, 1].toarray().ravel() > 300).astype(int)
    pipe = make_pipeline(ColumnCentring(columns=[1, 3, 5]), MaxAbsScaler(), AveragedPerceptron(max_epochs=5))
    pipe.fit(X, y)
    path = tmp_path / "m.npz"
    save_model(pipe, path)
    return pipe, path, X


def test_a_model_file_restores_it_exactly(tmp_path):
    pipe, path, X = _saved(tmp_path)
    back = load_model(path)
    got = back.steps[0][1]
    np.testing.assert_array_equal(got.columns_, pipe.steps[0][1].columns_)
    np.testing.assert_array_equal(got.mean_, pipe.steps[0][1].mean_)
    np.testing.assert_array_equal(back.decision_function(X), pipe.decision_function(X))


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("columns_", np.array([3, 1, 5]), "distinct columns in increasing order"),
        ("columns_", np.array([1, 3, 12]), r"values must lie in \[0, 12\)"),
        ("mean_", np.array([0.0, np.inf, 1.0]), "non-finite"),
        ("mean_", np.zeros(2), "expected shape"),
        ("n_samples_seen_", np.array([1, -1, 2]), "values must lie in"),
    ],
)
def test_every_field_in_the_file_is_checked(tmp_path, field, value, match):
    _, path, _ = _saved(tmp_path)
    meta, arrays = read_model(path)
    arrays = dict(arrays)
    for k in ("sha256", "format", "format_version"):  # written again by write_model
        meta.pop(k, None)
    assert f"0.{field}" in arrays
    arrays[f"0.{field}"] = value
    write_model(path, meta, arrays)
    with pytest.raises(PerceptronsError, match=match) as exc:
        load_model(path)
    assert str(path) in str(exc.value) and "\n" not in str(exc.value)
