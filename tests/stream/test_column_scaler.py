"""ColumnStandardScaler: chosen columns standardised in the values rows store in them (the
columns of numbers among hashed text), checked against its definition, against the in-memory
column pipeline (mean imputation, then scikit-learn's StandardScaler), by scikit-learn's estimator
checks and in a model file."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler, StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptrons import AveragedPerceptron, load_model, save_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.column_scaler import ColumnStandardScaler
from perceptrons.io.model_file import read_model, write_model


@parametrize_with_checks([ColumnStandardScaler(columns=[0]), ColumnStandardScaler(columns=[0], with_std=False)])
def test_scikit_learn_checks(estimator, check):
    check(estimator)


def _sparse(seed=0, n=30, d=12):
    rng = np.random.default_rng(seed)
    dense = rng.normal(size=(n, d)) * 50 + 300
    dense[rng.random((n, d)) < 0.4] = 0
    X = sp.csr_matrix(dense)
    X.data[::7] = 0.0  # explicit zeros: stored values, which count
    return X


@pytest.mark.parametrize("with_std", [True, False])
def test_sparse_rows_standardise_the_stored_values_of_the_chosen_columns_only(with_std):
    X = _sparse()
    cols = [1, 4, 7, 11]
    c = ColumnStandardScaler(columns=[7, 1, 4, 11, 4], with_std=with_std).fit(X)  # distinct, increasing
    np.testing.assert_array_equal(c.columns_, cols)
    for k, j in enumerate(cols):
        col = X[:, [j]].tocsc()
        np.testing.assert_allclose(c.mean_[k], col.data.mean(), rtol=1e-12)
        # the variance over every row, each row without a value at the mean
        np.testing.assert_allclose(c.var_[k], ((col.data - col.data.mean()) ** 2).sum() / X.shape[0], rtol=1e-12)
        assert c.n_samples_seen_[k] == col.nnz
    assert c.n_rows_seen_ == X.shape[0]
    Z = c.transform(X)
    np.testing.assert_array_equal(Z.indptr, X.indptr)
    np.testing.assert_array_equal(Z.indices, X.indices)
    want = X.data.copy()
    for k, j in enumerate(cols):
        want[X.indices == j] -= c.mean_[k]
        want[X.indices == j] /= np.sqrt(c.var_[k]) if with_std else 1.0
    np.testing.assert_allclose(Z.data, want, rtol=1e-12)
    assert X.data[0] != Z.data[0] or X.indices[0] not in cols  # the input is not changed in place


def test_sparse_rows_are_standardised_as_memory_imputes_then_standardises():
    """A missing number of hashed rows is a value not stored; in memory it is NaN, imputed with
    the column's mean, then standardised by scikit-learn's StandardScaler: the same values."""
    X = _sparse(seed=4, n=50)
    cols = [0, 3, 8]
    c = ColumnStandardScaler(columns=cols).fit(X)
    dense = X.toarray()
    stored = np.zeros(X.shape, dtype=bool)
    stored[np.repeat(np.arange(X.shape[0]), np.diff(X.indptr)), X.indices] = True
    dense[~stored] = np.nan
    memory = make_pipeline(SimpleImputer(strategy="mean"), StandardScaler()).fit(dense[:, cols])
    want = memory.transform(dense[:, cols])
    got = c.transform(X).toarray()[:, cols]
    missing = ~stored[:, cols]
    np.testing.assert_allclose(got[~missing], want[~missing], rtol=1e-10)
    np.testing.assert_allclose(want[missing], 0, atol=1e-12)  # memory's missing: at the mean; here: not stored
    assert not got[missing].any()
    np.testing.assert_allclose(c.scale_, memory.steps[1][1].scale_, rtol=1e-12)


def test_a_column_of_equal_values_keeps_them_centred():
    X = sp.csr_matrix(np.array([[5.0, 1], [5.0, 2], [5.0, 0]]))
    c = ColumnStandardScaler(columns=[0]).fit(X)
    assert c.var_[0] == 0 and c.scale_[0] == 1
    np.testing.assert_array_equal(c.transform(X).toarray()[:, 0], 0)


def test_dense_rows_count_every_value():
    X = _sparse().toarray()
    c = ColumnStandardScaler(columns=[2, 5]).fit(X)
    want = StandardScaler().fit(X[:, [2, 5]])
    np.testing.assert_allclose(c.mean_, want.mean_, rtol=1e-12)
    np.testing.assert_allclose(c.var_, want.var_, rtol=1e-12)
    Z = c.transform(X)
    np.testing.assert_allclose(Z[:, [2, 5]], want.transform(X[:, [2, 5]]), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(np.delete(Z, [2, 5], axis=1), np.delete(X, [2, 5], axis=1))


def test_partial_fit_block_by_block_is_the_fit_on_all_rows():
    X = _sparse(n=60)
    whole = ColumnStandardScaler(columns=range(12)).fit(X)
    parts = ColumnStandardScaler(columns=range(12))
    for start in (0, 7, 8, 40):
        parts.partial_fit(X[start : {0: 7, 7: 8, 8: 40, 40: 60}[start]])
    np.testing.assert_allclose(parts.mean_, whole.mean_, rtol=1e-12)
    np.testing.assert_allclose(parts.var_, whole.var_, rtol=1e-12)
    np.testing.assert_array_equal(parts.n_samples_seen_, whole.n_samples_seen_)
    assert parts.n_rows_seen_ == whole.n_rows_seen_ == 60


def test_parts_fitted_apart_merge_into_the_fit_on_all_rows():
    """A cluster's workers fit one a shard; the client merges them (Chan et al.'s formula)."""
    X = _sparse(seed=6, n=70)
    whole = ColumnStandardScaler(columns=[0, 2, 9]).fit(X)
    parts = [ColumnStandardScaler(columns=[0, 2, 9]).fit(X[a:b]) for a, b in ((0, 1), (1, 33), (33, 70))]
    merged = parts[0].merge(parts[1]).merge(parts[2])
    np.testing.assert_allclose(merged.mean_, whole.mean_, rtol=1e-12)
    np.testing.assert_allclose(merged.var_, whole.var_, rtol=1e-12)
    np.testing.assert_array_equal(merged.n_samples_seen_, whole.n_samples_seen_)
    assert merged.n_rows_seen_ == 70
    with pytest.raises(PerceptronsError, match="other widths or columns"):
        merged.merge(ColumnStandardScaler(columns=[0, 2]).fit(X))


def test_dense_rows_leave_a_missing_number_out_as_memory_imputes_then_standardises():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 3)) * [1, 50, 3000] + 100
    X[rng.random(X.shape) < 0.2] = np.nan
    c = ColumnStandardScaler(columns=[0, 1, 2]).fit(X)
    memory = make_pipeline(SimpleImputer(strategy="mean"), StandardScaler()).fit(X)
    np.testing.assert_allclose(c.mean_, memory.steps[0][1].statistics_, rtol=1e-12)
    np.testing.assert_allclose(c.var_, memory.steps[1][1].var_, rtol=1e-10)
    got = c.transform(X)
    given = ~np.isnan(X)
    np.testing.assert_allclose(got[given], memory.transform(X)[given], rtol=1e-10, atol=1e-12)
    assert np.isnan(got[~given]).all()  # left for an imputer, as scikit-learn's StandardScaler leaves it


def test_columns_outside_the_rows_are_refused():
    with pytest.raises(PerceptronsError, match=r"columns must be in \[0, 12\); got 3 to 12"):
        ColumnStandardScaler(columns=[3, 12]).fit(_sparse())


def _saved(tmp_path):
    X = _sparse(n=80)
    y = (X[:, 1].toarray().ravel() > 300).astype(int)
    pipe = make_pipeline(ColumnStandardScaler(columns=[1, 3, 5]), MaxAbsScaler(), AveragedPerceptron(max_epochs=5))
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
    np.testing.assert_array_equal(got.scale_, pipe.steps[0][1].scale_)
    assert got.n_rows_seen_ == 80 and (got.with_mean, got.with_std) == (True, True)
    np.testing.assert_array_equal(back.decision_function(X), pipe.decision_function(X))


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("columns_", np.array([3, 1, 5]), "distinct columns in increasing order"),
        ("columns_", np.array([1, 3, 12]), r"values must lie in \[0, 12\)"),
        ("mean_", np.array([0.0, np.inf, 1.0]), "non-finite"),
        ("mean_", np.zeros(2), "expected shape"),
        ("var_", np.array([1.0, -1.0, 2.0]), "values must lie in"),
        ("var_", np.array([1.0, np.nan, 2.0]), "non-finite"),
        ("n_samples_seen_", np.array([1, 81, 2]), "values must lie in"),
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
