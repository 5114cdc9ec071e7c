"""Labels read from a file, typed and spelt as a model's classes."""

import numpy as np
import pytest

from perceptrons.io.labels import as_classes


def test_a_truth_value_spelt_otherwise_is_the_class_of_the_same_truth():
    classes = np.array(["False", "True"])
    y = as_classes(np.array(["true", "false", "TRUE", "True"]), classes)
    assert y.tolist() == ["True", "False", "True", "True"]
    # other labels stay as read, and so does a truth value the classes do not spell
    assert as_classes(np.array(["maybe", "true"]), np.array(["True", "no"])).tolist() == ["maybe", "True"]
    assert as_classes(np.array(["true"]), np.array(["no", "yes"])).tolist() == ["true"]
    # two classes of one truth (a model trained on both spellings): no guess
    assert as_classes(np.array(["true"]), np.array(["TRUE", "True"])).tolist() == ["true"]
    # whole numbers meet text classes as text; numeric classes leave the labels alone
    assert as_classes(np.array([0, 1]), np.array(["0", "1"])).tolist() == ["0", "1"]
    assert as_classes(np.array([True, False]), np.array(["FALSE", "TRUE"])).tolist() == ["TRUE", "FALSE"]
    assert as_classes(np.array(["true"]), np.array([0, 1])).tolist() == ["true"]
    assert as_classes(None, classes) is None


@pytest.mark.parametrize("stream", [False, True])
def test_a_tables_csv_and_parquet_copies_score_each_others_models(tmp_path, run_cli, stream):
    """pandas writes a boolean label ``True`` in a CSV, and a Parquet boolean reads ``true``: each
    copy's model scored 0.0000 on the other, every row a label not seen in training."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    frame["label"] = X[:, 0] + 0.3 * X[:, 1] > 0
    frame.to_csv(tmp_path / "t.csv", index=False)
    frame.to_parquet(tmp_path / "t.parquet", index=False)
    extra = ["--stream"] if stream else []
    for train, test in (("t.csv", "t.parquet"), ("t.parquet", "t.csv")):
        model = str(tmp_path / f"{train}.npz")
        assert run_cli(["train", str(tmp_path / train), "-o", model, *extra])[0] == 0
        code, out, err = run_cli(["evaluate", model, str(tmp_path / test), *extra])
        assert code == 0, err
        accuracy = float(out.split("accuracy")[1].split()[0])
        assert accuracy > 0.9, out
        assert "not seen in training" not in out


def test_a_later_files_labels_are_the_classes_of_the_same_meaning():
    """A file is typed on its own: a test file of ``01`` and ``02`` read as the numbers 1 and 2
    met the classes ``01``, ``02``, ``other`` of a training file that held a word, and every
    row counted as an error (accuracy 0.0000 of right predictions); a cluster refused such
    shards.  NFC and NFD spellings of one word were two classes."""
    classes = np.array(["01", "02", "other"])
    assert as_classes(np.array([1, 2, 2]), classes).tolist() == ["01", "02", "02"]
    assert as_classes(np.array(["1.0", "other", "3"]), classes).tolist() == ["01", "other", "3"]
    assert as_classes(np.array(["cafe\u0301"]), np.array(["caf\u00e9", "tea"])).tolist() == ["caf\u00e9"]
    # numeric classes take a text file's numbers when every label is one of them
    assert as_classes(np.array(["01", "2"]), np.array([1, 2])).tolist() == [1, 2]
    assert as_classes(np.array(["1", "3x"]), np.array([1, 2])).tolist() == ["1", "3x"]
    # beside a word, as text: a class's labels spelt as the class is, to meet its predictions as text
    assert as_classes(np.array(["01", "3x", "2"]), np.array([1, 2])).tolist() == ["1", "3x", "2"]
    assert as_classes(np.array(["1", "2.50", "x"]), np.array([1.0, 2.5])).tolist() == ["1.0", "2.5", "x"]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("train_labels", "spelt"), [((1, 2), ("01", "2")), ((1.0, 2.5), ("1", "2.50"))])
def test_numeric_classes_score_a_file_whose_labels_hold_a_word(tmp_path, run_cli, stream, train_labels, spelt):
    """A model of numeric classes on a file whose labels also hold a word (read as text): the
    rows of its classes were all counted as errors (0.0000), and named "not seen in training"."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 3))

    def rows(X, labels):
        return "a,b,c,label\n" + "".join(f"{r[0]:.4f},{r[1]:.4f},{r[2]:.4f},{v}\n" for r, v in zip(X, labels))

    (tmp_path / "train.csv").write_text(rows(X, [train_labels[0] if v > 0 else train_labels[1] for v in X[:, 0]]))
    T = rng.normal(size=(60, 3))
    labels = [spelt[0] if v > 0 else spelt[1] for v in T[:, 0]]
    labels[:5] = ["3x"] * 5
    (tmp_path / "test.csv").write_text(rows(T, labels))
    extra = ["--stream"] if stream else []
    model = str(tmp_path / "m.npz")
    code, out, err = run_cli(
        ["train", str(tmp_path / "train.csv"), "-o", model, "--test", str(tmp_path / "test.csv"), *extra]
    )
    assert code == 0, err
    assert float(out.split("test acc")[1].split()[0]) > 0.85, out
    code, out, err = run_cli(["evaluate", model, str(tmp_path / "test.csv"), *extra])
    assert code == 0, err
    assert float(out.split("accuracy")[1].split()[0]) > 0.85, out
    assert "labels not seen in training ('3x'): their 5 rows count as errors" in out


def test_shards_typed_apart_train_on_a_cluster_as_streamed(tmp_path, run_cli):
    pytest.importorskip("distributed")
    rng = np.random.default_rng(0)
    (tmp_path / "s").mkdir()
    for name, labels in (("a", ["01", "02", "other"]), ("b", ["01", "02"])):
        rows = []
        for i in range(60):
            c = i % len(labels)
            x = rng.normal(size=2) + 3 * np.array([c == 0, c == 1], dtype=float)
            rows.append(f"{x[0]!r},{x[1]!r},{labels[c]}")
        (tmp_path / "s" / f"{name}.csv").write_text("f1,f2,label\n" + "\n".join(rows) + "\n")
    model = str(tmp_path / "m.npz")
    code, out, err = run_cli(["train", str(tmp_path / "s" / "*.csv"), "--workers", "2", "-o", model])
    assert code == 0, err
    code, out, err = run_cli(["evaluate", model, str(tmp_path / "s" / "b.csv")])
    assert code == 0 and "not seen in training" not in out and float(out.split("accuracy")[1].split()[0]) > 0.9, out
