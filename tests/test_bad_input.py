"""Bad input: a one-line error naming the file/line/parameter, exit status 2, no traceback,
and nothing already on disk lost."""

import subprocess
import sys

import numpy as np
import pytest

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, save_model
from perceptrons._validation import PerceptronsError


@pytest.fixture
def model(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 3))
    y = (X[:, 0] > 0).astype(int)
    path = tmp_path / "model.npz"
    save_model(Perceptron().fit(X, y), path)
    return path


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def assert_refused(result, *fragments):
    code, out, err = result
    assert code == 2, (code, out, err)
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for f in fragments:
        assert f in lines[0], lines[0]


GOOD = "a,b,label\n1,2,0\n2,1,1\n"


def test_nan_in_csv(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", "a,b,label\n1,2,0\nnan,1,1\n")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "d.csv, line 3", "not finite")


def test_inf_in_csv(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", "a,b,label\n1,inf,0\n2,1,1\n")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "line 2", "not finite")


def test_empty_file(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", "")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "d.csv", "empty")
    p = write(tmp_path, "h.csv", "a,b,label\n")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "h.csv", "no data rows")
    p = write(tmp_path, "e.svm", "")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "e.svm", "empty")


def test_single_class(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", "a,b,label\n1,2,0\n2,1,0\n")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "1 class", "two classes")


def test_ragged_csv_row(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", "a,b,label\n1,2,0\n2,1\n3,3,1\n")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "d.csv, line 3", "2 fields, expected 3")


def test_non_numeric_csv_value(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", "a,b,label\n1,2,0\n2,abc,1\n")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "line 3", "'abc' is not a number")


def test_bad_libsvm_line(run_cli, tmp_path):
    p = write(tmp_path, "d.svm", "1 1:0.5 2:1\n-1 3:zz\n")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "d.svm, line 2", "'3:zz'")
    p = write(tmp_path, "e.svm", "1 1:0.5\nabc 2:1\n")
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "m.npz")]), "e.svm, line 2", "label 'abc'")


def test_missing_label_column(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", GOOD)
    assert_refused(run_cli(["train", str(p), "--label", "target", "-o", str(tmp_path / "m.npz")]),
                   "no label column 'target'", "['a', 'b', 'label']")


@pytest.mark.parametrize("damage", ["truncate", "garbage", "other-npz"])
def test_broken_model_file(run_cli, tmp_path, model, damage):
    data = write(tmp_path, "d.csv", "a,b,c,label\n1,2,3,0\n")
    if damage == "truncate":
        model.write_bytes(model.read_bytes()[:200])
    elif damage == "garbage":
        model.write_bytes(b"PK\x03\x04 this is not a model")
    else:
        np.savez(model, X=np.zeros(3))
    assert_refused(run_cli(["predict", str(model), str(data)]), "model.npz")


def test_tampered_model_file(run_cli, tmp_path, model):
    import io
    import zipfile

    with zipfile.ZipFile(model) as z:
        members = {n: z.read(n) for n in z.namelist()}
    buf = io.BytesIO()
    np.save(buf, np.load(io.BytesIO(members["intercept.npy"])) + 5)
    members["intercept.npy"] = buf.getvalue()
    with zipfile.ZipFile(model, "w") as z:
        for n, b in members.items():
            z.writestr(n, b)
    data = write(tmp_path, "d.csv", "a,b,c,label\n1,2,3,0\n")
    assert_refused(run_cli(["evaluate", str(model), str(data)]), "checksum")


def test_feature_count_differs(run_cli, tmp_path, model):
    wide = write(tmp_path, "w.csv", "a,b,c,d,label\n1,2,3,4,0\n")
    assert_refused(run_cli(["predict", str(model), str(wide)]), "w.csv", "4 features", "trained on 3")
    # a model trained by the CLI knows its label column, so a,b,label is 2 features, not 3
    train = write(tmp_path, "t.csv", "a,b,c,label\n1,2,3,0\n3,2,1,1\n")
    cli_model = tmp_path / "cli.npz"
    assert run_cli(["train", str(train), "-o", str(cli_model)])[0] == 0
    narrow = write(tmp_path, "n.csv", "a,b,label\n1,2,0\n")
    assert_refused(run_cli(["predict", str(cli_model), str(narrow)]), "n.csv", "2 features", "trained on 3")


def test_epochs_zero(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", GOOD)
    assert_refused(run_cli(["train", str(p), "--epochs", "0", "-o", str(tmp_path / "m.npz")]), "--epochs", "0")


def test_output_in_missing_directory(run_cli, tmp_path):
    p = write(tmp_path, "d.csv", GOOD)
    assert_refused(run_cli(["train", str(p), "-o", str(tmp_path / "nope" / "m.npz")]), "does not exist")


def test_missing_data_file(run_cli, tmp_path):
    assert_refused(run_cli(["train", str(tmp_path / "absent.csv"), "-o", str(tmp_path / "m.npz")]), "absent.csv", "no such file")


def test_existing_output_survives_a_failed_train(run_cli, tmp_path, model):
    before = model.read_bytes()
    bad = write(tmp_path, "d.csv", "a,b,label\n1,2,0\n2,nan,1\n")
    assert_refused(run_cli(["train", str(bad), "-o", str(model)]), "not finite")
    assert model.read_bytes() == before
    single = write(tmp_path, "s.csv", "a,b,label\n1,2,0\n2,2,0\n")
    assert_refused(run_cli(["train", str(single), "-o", str(model)]), "two classes")
    assert model.read_bytes() == before


def test_no_traceback_in_a_real_process(tmp_path):
    p = write(tmp_path, "d.csv", "a,b,label\n1,2,0\n2,1\n")
    done = subprocess.run([sys.executable, "-m", "perceptrons", "train", str(p), "-o", str(tmp_path / "m.npz")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "line 3" in done.stderr


# ------------------------------------------------------------------ library-level bad input
@pytest.mark.parametrize("params,fragment", [
    ({"max_epochs": 0}, "'max_epochs' parameter of Perceptron must be an int in the range [1, inf). Got 0 instead."),
    ({"order": "random"}, "'order' parameter"),
    ({"init": "ones"}, "'init' parameter"),
    ({"margin": -1.0}, "'margin' parameter"),
    ({"class_weight": "heavy"}, "'class_weight' parameter"),
])
def test_bad_parameters(params, fragment):
    with pytest.raises(PerceptronsError) as info:
        Perceptron(**params).fit([[0.0], [1.0]], [0, 1])
    assert fragment in str(info.value)


def test_nan_in_array_input():
    with pytest.raises(ValueError, match="NaN"):
        Perceptron().fit([[np.nan], [1.0]], [0, 1])


@pytest.mark.parametrize("cls", [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron])
def test_bad_weights(cls):
    X, y = np.array([[0.0], [1.0], [2.0]]), np.array([0, 1, 1])
    with pytest.raises(PerceptronsError, match=r"expected shape \(3,\), got \(2,\)"):
        cls().fit(X, y, sample_weight=[1, 2])
    with pytest.raises(PerceptronsError, match="non-negative; got -1.0"):
        cls().fit(X, y, sample_weight=[1, -1, 1])
    with pytest.raises(PerceptronsError, match="names the class 7, which is not in the data"):
        cls(class_weight={7: 2.0}).fit(X, y)


def test_max_vectors_below_one():
    with pytest.raises(PerceptronsError, match="'max_vectors' parameter of VotedPerceptron must be None or an int"):
        VotedPerceptron(max_vectors=0).fit([[0.0], [1.0]], [0, 1])


def test_partial_fit_needs_classes():
    with pytest.raises(PerceptronsError, match="classes must be passed on the first call"):
        Perceptron().partial_fit([[0.0], [1.0]], [0, 1])
    clf = Perceptron().partial_fit([[0.0], [1.0]], [0, 1], classes=[0, 1])
    with pytest.raises(PerceptronsError, match=r"labels \[5\] that are not in classes"):
        clf.partial_fit([[0.0]], [5])


@pytest.mark.parametrize("cls", [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron])
@pytest.mark.parametrize("order", ["cyclic", "shuffle", "random-mistake"])
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("sparse", [False, True])
def test_non_finite_found_by_the_first_epoch(cls, order, k, sparse):
    import scipy.sparse as sps

    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    y = np.arange(30) % k
    X[17, 1] = np.inf if k == 2 else np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        cls(order=order, random_state=0).fit(sps.csr_matrix(X) if sparse else X, y)


def test_non_finite_in_a_zero_weight_row_is_still_refused():
    X = np.array([[0.0], [1.0], [np.nan]])
    with pytest.raises(ValueError, match="NaN or infinity"):
        Perceptron().fit(X, [0, 1, 1], sample_weight=[1, 1, 0])
