"""A scikit-learn Pipeline of known transformers in a model file: round trips that give the same
predictions, refusals of what a file cannot restore, and every stored field checked."""

import json
import zipfile

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.compose import ColumnTransformer
from sklearn.decomposition import PCA
from sklearn.feature_extraction import FeatureHasher
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MaxAbsScaler, OneHotEncoder, StandardScaler

from perceptrons import AveragedPerceptron, KernelPerceptron, PocketPerceptron, load_model, save_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.model_file import read_model, write_model


def _table(n=240, seed=0):
    rng = np.random.default_rng(seed)
    T = np.empty((n, 4), dtype=object)
    T[:, 0] = rng.normal(size=n) * 1000
    T[:, 1] = rng.choice(["a", "b", "c"], n)
    T[:, 2] = [f"id{i}" for i in rng.integers(0, 150, n)]
    T[:, 3] = rng.normal(size=n)
    T[::7, 0] = np.nan
    T[::5, 1] = np.nan
    y = (T[:, 3].astype(float) + (T[:, 1] == "a") > 0.3).astype(int)
    return T, y


def _columns(remainder="drop"):
    fill = {"strategy": "constant", "fill_value": "<missing>"}
    return ColumnTransformer(
        [
            ("num", make_pipeline(SimpleImputer(add_indicator=True), StandardScaler()), [0]),
            ("cat", make_pipeline(SimpleImputer(**fill), OneHotEncoder(handle_unknown="ignore")), [1]),
            ("hash", make_pipeline(SimpleImputer(**fill), FeatureHasher(n_features=32, input_type="string")), [2]),
        ],
        remainder=remainder,
    )


def _same(a, b, X):
    assert np.array_equal(a.predict(X), b.predict(X))
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def _dense_cases():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 5)) * [1, 10, 100, 1000, 5000]
    X[::9, 2] = np.nan
    X[:, 4] = np.nan  # a column with no value at all
    y = (X[:, 0] > 0).astype(int)
    return X, y


@pytest.mark.parametrize(
    "steps",
    [
        lambda: [SimpleImputer(), StandardScaler()],
        lambda: [SimpleImputer(add_indicator=True, keep_empty_features=True), StandardScaler(with_mean=False)],
        lambda: [SimpleImputer(strategy="median"), MaxAbsScaler()],
        lambda: [SimpleImputer(strategy="constant", fill_value=-1.0), StandardScaler(with_std=False)],
        lambda: [SimpleImputer(strategy="most_frequent"), make_pipeline(StandardScaler())],
    ],
    ids=["mean-standard", "indicator-no-mean", "median-maxabs", "constant-no-std", "nested"],
)
def test_dense_pipelines_round_trip_exactly(tmp_path, steps):
    X, y = _dense_cases()
    p = make_pipeline(*steps(), AveragedPerceptron()).fit(X, y)
    save_model(p, tmp_path / "m.npz")
    q = load_model(tmp_path / "m.npz")
    assert type(q) is Pipeline and [n for n, _ in q.steps] == [n for n, _ in p.steps]
    _same(p, q, X)


def test_sparse_input_scaled_by_max_abs_round_trips(tmp_path):
    rng = np.random.default_rng(2)
    X = sp.random(300, 50, density=0.1, random_state=3, format="csr") * 40
    y = rng.integers(0, 3, 300)
    p = make_pipeline(MaxAbsScaler(), PocketPerceptron(random_state=0)).fit(X, y)
    save_model(p, tmp_path / "m.npz")
    _same(p, load_model(tmp_path / "m.npz"), X)


@pytest.mark.parametrize("remainder", ["drop", "passthrough"])
def test_column_transformer_of_numbers_text_and_hashed_text_round_trips(tmp_path, remainder):
    T, y = _table()
    if remainder == "passthrough":
        T[:, 3] = T[:, 3].astype(float)
    p = make_pipeline(_columns(remainder), AveragedPerceptron()).fit(T, y)
    save_model(p, tmp_path / "m.npz", info={"label_column": "y"})
    q, info = load_model(tmp_path / "m.npz", with_info=True)
    assert info == {"label_column": "y"}
    _same(p, q, T)
    unseen = T.copy()
    unseen[:5, 1] = "never seen"  # one-hot: no level, as in the original
    unseen[:5, 2] = "new id"
    _same(p, q, unseen)
    assert q[0].output_indices_ == p[0].output_indices_


def test_kernel_model_in_a_pipeline_round_trips(tmp_path):
    X, y = _dense_cases()
    p = make_pipeline(SimpleImputer(), StandardScaler(), KernelPerceptron(max_epochs=3)).fit(X, y)
    save_model(p, tmp_path / "m.npz")
    _same(p, load_model(tmp_path / "m.npz"), X)


def test_a_pipeline_can_be_expected_by_its_estimator(tmp_path):
    X, y = _dense_cases()
    save_model(make_pipeline(SimpleImputer(), AveragedPerceptron()).fit(X, y), tmp_path / "m.npz")
    assert type(load_model(tmp_path / "m.npz", expect="AveragedPerceptron")) is Pipeline
    with pytest.raises(PerceptronsError, match="holds a AveragedPerceptron, but a Tagger is needed"):
        load_model(tmp_path / "m.npz", expect="Tagger")


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: make_pipeline(PCA(2), AveragedPerceptron()), "PCA cannot be saved"),
        (lambda: make_pipeline(StandardScaler(), LogisticRegression()), "LogisticRegression cannot be saved"),
        (
            lambda: make_pipeline(OneHotEncoder(max_categories=2), AveragedPerceptron()),
            "groups infrequent categories",
        ),
        (lambda: make_pipeline(SimpleImputer(strategy=np.nanmean), AveragedPerceptron()), "callable"),
    ],
    ids=["pca", "not-ours", "infrequent", "callable-strategy"],
)
def test_what_a_file_cannot_restore_is_refused_before_writing(tmp_path, make, match):
    X, y = _dense_cases()
    X = np.nan_to_num(X)
    p = make()
    p.fit(np.abs(X).round() if "OneHot" in str(p) else X, y)
    path = tmp_path / "m.npz"
    path.write_bytes(b"kept")
    with pytest.raises(PerceptronsError, match=match):
        save_model(p, path)
    assert path.read_bytes() == b"kept"


def _edit(path, meta_edit=None, arrays_edit=None):
    meta, arrays = read_model(path)
    arrays = dict(arrays)
    for k in ("sha256", "format", "format_version"):
        meta.pop(k, None)
    if meta_edit:
        meta_edit(meta)
    if arrays_edit:
        arrays_edit(arrays)
    write_model(path, meta, arrays)


def _saved(tmp_path):
    T, y = _table()
    path = tmp_path / "m.npz"
    save_model(make_pipeline(_columns(), AveragedPerceptron()).fit(T, y), path)
    return path


def _scaler_meta(meta):
    return meta["state"]["steps"][0]["step"]["parts"][0]["step"]["steps"][1]["step"]


@pytest.mark.parametrize(
    "meta_edit,arrays_edit,match",
    [
        (None, lambda a: a.__setitem__("0.0.step.1.scale_", -a["0.0.step.1.scale_"]), r"scale_: expected positive"),
        (None, lambda a: a.__setitem__("0.0.step.1.mean_", np.array([np.inf, 0.0])), r"mean_: holds a non-finite"),
        (None, lambda a: a.__setitem__("0.0.step.1.mean_", np.zeros(3)), r"mean_: expected shape \(2,\)"),
        (None, lambda a: a.__setitem__("0.1.step.1.categories_0", np.array(["a", "a", "b", "c"])), "distinct levels"),
        (None, lambda a: a.__setitem__("0.0.step.0.indicator_features_", np.array([5])), r"values must lie in"),
        (None, lambda a: a.__setitem__("0.extra", np.zeros(2)), "unexpected array"),
        (lambda m: m["state"]["steps"][0]["step"].__setitem__("class", "PCA"), None, "expected one of"),
        (lambda m: m["state"].__setitem__("steps", []), None, "expected a list of 1 to 64 steps"),
        (lambda m: _scaler_meta(m).__setitem__("n_features", 2**40), None, "n_features: expected an int"),
        (
            lambda m: m["state"]["steps"][0]["step"]["parts"][2]["step"]["steps"][1]["step"]["params"].__setitem__(
                "n_features", 0
            ),
            None,
            "n_features: expected an int",
        ),
        (lambda m: m["state"]["steps"].reverse(), None, "only the last step may be an estimator"),
        (lambda m: m["params"].__setitem__("x", 1), None, "params: expected an empty object"),
        # found by the model fuzzer: a part selecting one more column than its step takes, and
        # an integer fill value beyond what numpy can test
        (None, lambda a: a.__setitem__("0.0.columns", np.array([0, 3])), "selects 2 columns, but its step takes 1"),
        (
            lambda m: m["state"]["steps"][0]["step"]["parts"][1]["step"]["steps"][0]["step"]["params"].__setitem__(
                "fill_value", 2**64
            ),
            None,
            "fill_value: expected a finite number",
        ),
    ],
    ids=[
        "negative-scale",
        "inf-mean",
        "wrong-width",
        "repeated-level",
        "indicator-out-of-range",
        "extra-array",
        "unknown-class",
        "no-steps",
        "huge-width",
        "hasher-width",
        "estimator-first",
        "pipeline-params",
        "part-columns",
        "huge-fill",
    ],
)
def test_every_pipeline_field_is_checked(tmp_path, meta_edit, arrays_edit, match):
    path = _saved(tmp_path)
    _edit(path, meta_edit, arrays_edit)
    with pytest.raises(PerceptronsError, match=match) as exc:
        load_model(path)
    assert str(path) in str(exc.value) and "\n" not in str(exc.value)


def test_no_pickle_in_the_file(tmp_path):
    path = _saved(tmp_path)
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        meta = json.loads(np.load(path)["__meta__"].tobytes())
    assert meta["estimator"] == "Pipeline" and all(n.endswith(".npy") for n in names)
    for name in names:
        with zipfile.ZipFile(path) as z:
            head = z.read(name)[:128]
        assert b"'descr': '|O'" not in head


def test_steps_whose_widths_do_not_chain_are_refused(tmp_path):
    # an imputer told that its only column is empty gives no column to the encoder after it
    path = _saved(tmp_path)
    _edit(path, arrays_edit=lambda a: a.__setitem__("0.1.step.0.statistics_.missing", np.array([True])))
    with pytest.raises(PerceptronsError, match="every column is empty"):
        load_model(path)
    path = _saved(tmp_path)
    _edit(path, arrays_edit=lambda a: a.__setitem__("0.0.step.0.indicator_features_", np.array([], dtype=np.int64)))
    with pytest.raises(PerceptronsError, match=r"steps\[1\]: takes 2 columns, but the step before gives 1"):
        load_model(path)


def _wide_sparse(seed=6, width=100_000):
    """Rows of a hashed space: 30 scattered columns of ``width`` hold values, the rest none."""
    rng = np.random.default_rng(seed)
    used = np.sort(rng.choice(width, 30, replace=False))
    m = sp.csr_matrix(rng.normal(size=(200, 30)) * 50 * (rng.random((200, 30)) < 0.3))
    X = sp.csr_matrix((m.data, used[m.indices], m.indptr), shape=(200, width))
    return X, (np.asarray(X.sum(axis=1)).ravel() > 0).astype(int)


@pytest.mark.parametrize("make", [MaxAbsScaler, lambda: StandardScaler(with_mean=False)], ids=["maxabs", "standard"])
def test_a_scaler_of_a_wide_sparse_space_stores_only_the_columns_it_saw(tmp_path, make):
    X, y = _wide_sparse()
    p = make_pipeline(make(), AveragedPerceptron(max_epochs=3)).fit(X, y)
    path = tmp_path / "m.npz"
    save_model(p, path)
    with np.load(path) as z:
        assert z["0.columns"].shape[0] <= 30 and z["0.scale_"].shape == z["0.columns"].shape
    q = load_model(path)
    for field in ("max_abs_", "mean_", "var_", "scale_", "n_samples_seen_", "n_features_in_"):
        a, b = getattr(p[0], field, None), getattr(q[0], field, None)
        assert (a is None) == (b is None), field
        if a is not None:  # a count is stored as an integer, whatever type scikit-learn counted in
            assert field == "n_samples_seen_" or np.asarray(a).dtype == np.asarray(b).dtype, field
            np.testing.assert_array_equal(a, b, err_msg=field)
    _same(p, q, X)


@pytest.mark.parametrize(
    "arrays_edit, meta_edit, match",
    [
        (lambda a: a.__setitem__("0.columns", a["0.columns"][::-1].copy()), None, "distinct columns in increasing"),
        (lambda a: a.__setitem__("0.columns", a["0.columns"] + 100_000), None, r"columns: values must lie in"),
        (lambda a: a.__setitem__("0.scale_", a["0.scale_"][:-1]), None, r"scale_: expected shape"),
        (None, lambda m: m["state"]["steps"][0]["step"].__setitem__("n_samples_rest", -1), "n_samples_rest"),
    ],
    ids=["unordered", "out-of-range", "short", "negative-count"],
)
def test_the_listed_columns_of_a_scaler_are_checked(tmp_path, arrays_edit, meta_edit, match):
    X, y = _wide_sparse()
    path = tmp_path / "m.npz"
    save_model(make_pipeline(MaxAbsScaler(), AveragedPerceptron(max_epochs=3)).fit(X, y), path)
    _edit(path, meta_edit, arrays_edit)
    with pytest.raises(PerceptronsError, match=match) as exc:
        load_model(path)
    assert str(path) in str(exc.value) and "\n" not in str(exc.value)
