"""A hashed model is as wide as its hash space, so a value never seen in training has a column.

Before, the width was the largest hash the training rows reached: a category first met at
prediction time hashed past it and was refused as "feature index … exceeds the model's …".
Each reader that hashes is covered: CSV with a text column of categories, Parquet with plain
and dictionary-encoded string columns, a raw ``text`` column, and Vowpal Wabbit text; in memory
and streamed.
"""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from perceptrons import AveragedPerceptron, stream
from perceptrons.io.readers import read_data
from perceptrons.io.sources import Source
from perceptrons.persistence import load_model

TRAIN = [("1", "red", "pos"), ("-1", "blue", "neg"), ("2", "red", "pos"), ("-2", "blue", "neg")]
NEW = [("1", "purple", "pos"), ("-1", "green", "neg")]


def write(path, fmt, rows, dictionary=False):
    if fmt == "parquet":
        color = pa.array([r[1] for r in rows])
        if dictionary:
            color = color.dictionary_encode()
        table = pa.table({"a": [float(r[0]) for r in rows], "color": color, "label": [r[2] for r in rows]})
        pq.write_table(table, path)
    elif fmt == "vw":
        path.write_text("".join(f"{1 if r[2] == 'pos' else -1} | a:{r[0]} color={r[1]}\n" for r in rows))
    else:
        path.write_text("a,color,label\n" + "".join(",".join(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize(
    "fmt, options, dictionary",
    [
        ("csv", {}, False),
        ("csv", {"hash_bits": 10}, False),
        ("csv", {"text": "color"}, False),
        ("parquet", {}, False),
        ("parquet", {}, True),
        ("parquet", {"hash_bits": 12}, True),
        ("vw", {}, False),
        ("vw", {"hash_bits": 8}, False),
    ],
)
def test_streamed_model_spans_the_hash_space(tmp_path, fmt, options, dictionary):
    train = write(tmp_path / f"train.{fmt}", fmt, TRAIN, dictionary)
    new = write(tmp_path / f"new.{fmt}", fmt, NEW, dictionary)
    src = Source(train, **options)
    width = 2 ** options.get("hash_bits", 18)
    assert src.hashed_width == width
    est = stream.fit(AveragedPerceptron(max_epochs=5), src)
    assert est.n_features_in_ == width
    labels = np.concatenate([p for _, p in stream.predict_blocks(est, Source(new, **options))])
    assert labels.shape == (2,)  # the unseen categories have columns: predicted, not refused


@pytest.mark.parametrize("dictionary", [False, True])
def test_in_memory_parquet_spans_the_hash_space(tmp_path, dictionary):
    X, _ = read_data(write(tmp_path / "t.parquet", "parquet", TRAIN, dictionary))
    assert X.shape == (4, 2**18)


def test_a_numeric_source_keeps_its_own_width(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text("a,b,label\n1,2,0\n2,1,1\n")
    assert Source(path).hashed_width is None
    assert stream.fit(AveragedPerceptron(max_epochs=2), Source(path)).n_features_in_ == 2


@pytest.mark.parametrize("fmt", ["csv", "parquet", "vw"])
def test_cli_predicts_an_unseen_category_without_options(tmp_path, run_cli, fmt):
    """The command of the issue, for every hashing format: train streamed, predict streamed."""
    train = write(tmp_path / f"tr.{fmt}", fmt, TRAIN)
    new = write(tmp_path / f"new.{fmt}", fmt, NEW)
    model = tmp_path / "w.npz"
    code, out, err = run_cli(["train", str(train), "--stream", "-o", str(model)])
    assert code == 0, err
    assert f"{2**18} features" in out
    assert load_model(model).n_features_in_ == 2**18
    code, out, err = run_cli(["predict", str(model), str(new), "--stream"])
    assert code == 0, err
    assert len(out.split()) == 2
