"""A LIBSVM file written 0-based (scikit-learn's ``dump_svmlight_file`` default) trains in memory,
and the model reads every later file 0-based too, whether it holds index 0 or not."""

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

from perceptrons import AveragedPerceptron, load_model


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(0)
    X = np.where(rng.random((300, 5)) < 0.6, rng.normal(size=(300, 5)), 0.0)
    y = (X[:, 0] > 0.2).astype(int)
    late = X[200:].copy()
    late[:, 0] = 0.0  # a file to predict with no index 0 in it: read 0-based all the same
    out = {}
    for name, rows, labels in (("train", X[:200], y[:200]), ("test", X[200:], y[200:]), ("late", late, y[200:])):
        out[name] = str(tmp_path / f"{name}.svm")
        dump_svmlight_file(rows, labels, out[name])
    return out


def test_a_zero_based_file_trains_and_its_model_reads_later_files_alike(run_cli, tmp_path, files):
    model = str(tmp_path / "m.npz")
    code, out, err = run_cli(["train", files["train"], "-o", model, "--test", files["test"], "--scale", "none"])
    assert code == 0, err
    assert "indices    from 0 (the file holds feature index 0)" in out
    est, info = load_model(model, with_info=True)
    assert info["libsvm_zero_based"] is True and est.n_features_in_ == 5
    # the same model as scikit-learn's reader gives, 0-based
    X, y = load_svmlight_file(files["train"], zero_based=True)
    ref = AveragedPerceptron(order="shuffle", random_state=0)  # the command line's defaults
    ref.fit(X.toarray().astype(np.float32), y.astype(int))
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-5)
    code, out, err = run_cli(["predict", model, files["late"]])
    assert code == 0, err
    Xl, _ = load_svmlight_file(files["late"], zero_based=True, n_features=5)
    assert [int(v) for v in out.split()] == ref.predict(Xl.toarray().astype(np.float32)).tolist()
    code, out, err = run_cli(["evaluate", model, files["test"]])
    assert code == 0 and "accuracy" in out, err


def test_a_malformed_stored_flag_is_named(run_cli, tmp_path, files):
    model = tmp_path / "m.npz"
    assert run_cli(["train", files["train"], "-o", str(model)])[0] == 0
    # rewrite the flag and the checksum, as whoever edits a file can
    from perceptrons.io.model_file import read_model, write_model

    meta, arrays = read_model(str(model))
    meta["info"]["libsvm_zero_based"] = "yes"
    for key in ("sha256", "format", "format_version"):
        meta.pop(key, None)
    write_model(str(model), meta, arrays)
    code, _, err = run_cli(["predict", str(model), files["late"]])
    assert code == 2 and "model field info.libsvm_zero_based: expected true or false" in err
