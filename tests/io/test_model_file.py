"""Model files: round trips for every linear estimator, and refusal of anything not ours."""

import io
import json
import zipfile

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, load_model, save_model
from perceptrons._core.errors import PerceptronsError

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

ESTIMATORS = [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron]


def data(k=2, labels=None):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((120, 4))
    y = np.argmax(X[:, :k] + 0.3 * rng.standard_normal((120, k)), axis=1)
    if labels is not None:
        y = np.asarray(labels)[y]
    return X, y


@pytest.mark.parametrize("cls", ESTIMATORS)
@pytest.mark.parametrize("k,labels", [(2, ["spam", "ham"]), (3, [10, 20, 30]), (2, [False, True])])
def test_round_trip_predicts_the_same(cls, k, labels, tmp_path):
    X, y = data(k, labels)
    est = cls(max_epochs=5, class_weight="balanced").fit(X, y)
    path = tmp_path / "m.npz"
    save_model(est, path)
    back = load_model(path)
    assert type(back) is cls
    assert back.get_params() == est.get_params()
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))
    assert back.classes_.tolist() == est.classes_.tolist()
    assert (back.n_updates_, back.n_epochs_, back.mistakes_per_epoch_) == (
        est.n_updates_,
        est.n_epochs_,
        est.mistakes_per_epoch_,
    )


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_partial_fit_resumes_after_load(cls, tmp_path):
    X, y = data()
    a = cls().partial_fit(X[:60], y[:60], classes=[0, 1])
    save_model(a, tmp_path / "m.npz")
    b = load_model(tmp_path / "m.npz")
    a.partial_fit(X[60:], y[60:])
    b.partial_fit(X[60:], y[60:])
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_model_file_holds_no_pickle(tmp_path):
    X, y = data()
    save_model(Perceptron().fit(X, y), tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz", allow_pickle=False) as z:  # would raise on an object array
        meta = json.loads(bytes(z["__meta__"]).decode())
        assert all(z[k].dtype != object for k in z.files)
    assert meta["estimator"] == "Perceptron" and meta["format"] == "perceptrons-model"
    assert meta["library_version"]


def _saved(tmp_path):
    X, y = data()
    path = tmp_path / "m.npz"
    save_model(Perceptron().fit(X, y), path)
    return path


def test_parameters_that_are_numpy_numbers_are_stored_as_python_numbers(tmp_path):
    """A grid over ``np.arange`` sets np.int64 parameters, which ``fit`` takes: the model saves,
    and loads with the same numbers (it was refused, "cannot be stored in a model file")."""
    X, y = np.array([[1.0, 2.0], [-1.0, -2.0], [2.0, 1.0], [-2.0, -1.0]]), np.array([1, 0, 1, 0])
    clf = AveragedPerceptron(max_epochs=np.int64(3), n_jobs=np.int64(2), mix_every=np.int64(30)).fit(X, y)
    save_model(clf, tmp_path / "m.npz")
    params = load_model(tmp_path / "m.npz").get_params()
    assert (params["max_epochs"], params["n_jobs"], params["mix_every"]) == (3, 2, 30)
    assert type(params["mix_every"]) is int


def test_truncated_file_is_refused(tmp_path):
    path = _saved(tmp_path)
    blob = path.read_bytes()
    path.write_bytes(blob[: len(blob) // 2])
    with pytest.raises(PerceptronsError, match="truncated or corrupted"):
        load_model(path)


def test_tampered_weights_are_refused(tmp_path):
    path = _saved(tmp_path)
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    coef = np.load(io.BytesIO(members["coef.npy"]))
    buf = io.BytesIO()
    np.save(buf, coef + 1.0)
    members["coef.npy"] = buf.getvalue()
    with zipfile.ZipFile(path, "w") as z:
        for n, b in members.items():
            z.writestr(n, b)
    with pytest.raises(PerceptronsError, match="checksum"):
        load_model(path)


def test_not_a_model_is_refused(tmp_path):
    other = tmp_path / "data.npz"
    np.savez(other, X=np.zeros((2, 2)), y=np.zeros(2))
    with pytest.raises(PerceptronsError, match="not a perceptrons model"):
        load_model(other)
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(PerceptronsError, match="not a readable"):
        load_model(text)


def test_newer_format_is_refused(tmp_path):
    from perceptrons.io import model_file

    path = tmp_path / "future.npz"
    model_file.FORMAT_VERSION += 1
    try:
        model_file.write_model(path, {"estimator": "Perceptron"}, {"coef": np.zeros(2)})
    finally:
        model_file.FORMAT_VERSION -= 1
    with pytest.raises(PerceptronsError, match="newer than this library reads"):
        load_model(path)


def test_unknown_estimator_name_is_refused(tmp_path):
    from perceptrons.io.model_file import write_model

    write_model(tmp_path / "x.npz", {"estimator": "os.system"}, {"coef": np.zeros(2)})
    with pytest.raises(PerceptronsError, match="unknown estimator"):
        load_model(tmp_path / "x.npz")


def test_failed_save_keeps_the_existing_file(tmp_path):
    path = _saved(tmp_path)
    before = path.read_bytes()
    est = Perceptron(class_weight={0: 1.0, 1: 2.0}).fit(*data())
    est.classes_ = np.array([object(), object()], dtype=object)  # cannot be stored
    with pytest.raises(PerceptronsError):
        save_model(est, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["m.npz"]  # no temporary file left behind


def test_sparse_fit_round_trip(tmp_path):
    X, y = data()
    est = AveragedPerceptron(max_epochs=3).fit(sp.csr_matrix(X), y)
    save_model(est, tmp_path / "m.npz")
    np.testing.assert_array_equal(load_model(tmp_path / "m.npz").predict(X), est.predict(X))


def _nested(depth):
    out = 1
    for _ in range(depth):
        out = {"a": out}
    return out


@pytest.mark.parametrize(
    "info, match",
    [
        ({"label_column": 3}, "'info' parameter of save_model must be an object whose label_column is a string"),
        ({"tag_column": "bogus"}, "tag_column one of"),
        ({"a": float("nan")}, "its record is not JSON"),
        ({"a": object()}, "its record is not JSON"),
        ({1: "x"}, "would not read back the same"),
        ({"a": (1, 2)}, "would not read back the same"),
        ({"a": "x" * (17 << 20)}, "bytes \\(at most"),
        ({"a": _nested(20)}, "nested deeper than 16 levels"),
    ],
    ids=["label column", "tag column", "nan", "object", "int key", "tuple", "too long", "too deep"],
)
def test_info_that_load_model_would_refuse_is_refused_by_save_model(tmp_path, info, match):
    """Each was written, and the file then refused when loaded (or read back changed)."""
    model = Perceptron().fit(np.eye(4), [0, 1, 0, 1])
    path = tmp_path / "m.npz"
    path.write_bytes(b"kept")
    with pytest.raises(PerceptronsError, match=match):
        save_model(model, path, info)
    assert path.read_bytes() == b"kept"
    save_model(model, path, {"label_column": "y", "note": [1, 2]})
    assert load_model(path, with_info=True)[1] == {"label_column": "y", "note": [1, 2]}


def test_a_table_of_many_text_columns_saves_a_model_that_loads(tmp_path):
    """Each text column's imputer and one-hot encoder are five arrays: a table of 10 text
    columns passed the reader's 64 members, so the model file written could not be read."""
    from sklearn.pipeline import make_pipeline

    from perceptrons.io.model_file import MAX_MEMBERS, write_model
    from perceptrons.io.readers import read_table
    from perceptrons.preprocessing import table_transformer

    rng = np.random.default_rng(0)
    rows = rng.choice(["a", "b", "c", ""], size=(60, 40))
    path = tmp_path / "t.csv"
    path.write_text(
        ",".join(f"t{j}" for j in range(40))
        + ",y\n"
        + "".join(",".join(r) + f",{'pq'[i % 2]}\n" for i, r in enumerate(rows))
    )
    table = read_table(path)
    transformer, _ = table_transformer(table, "standard")
    model = make_pipeline(transformer, AveragedPerceptron(max_epochs=2)).fit(table.X, table.y)
    save_model(model, tmp_path / "m.npz")
    np.testing.assert_array_equal(load_model(tmp_path / "m.npz").predict(table.X), model.predict(table.X))
    too_many = {f"a{i}": np.zeros(1) for i in range(MAX_MEMBERS)}
    with pytest.raises(PerceptronsError, match=r"4,097 arrays \(at most 4,096\)"):
        write_model(tmp_path / "n.npz", {}, too_many)
    assert not (tmp_path / "n.npz").exists()
