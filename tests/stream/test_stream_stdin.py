"""``-`` is standard input for the streaming commands too, in every streaming format.

Before, ``--stream`` took ``-`` for a file name: ``-: no such file``, or the file named ``-`` in
the working directory.  Standard input is copied once to an unlinked temporary file (no name
is left on disk, whatever ends the run), which the epoch cache is then built from.
"""

import glob
import gzip
import os
import subprocess
import sys
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

PERCEPTRONS = [sys.executable, "-m", "perceptrons"]


def run(args, stdin_path, cwd):
    with open(stdin_path, "rb") as feed:
        done = subprocess.run(
            [*PERCEPTRONS, *map(str, args)], stdin=feed, capture_output=True, text=True, timeout=300, cwd=cwd
        )
    return done.returncode, done.stdout, done.stderr


def write(path, fmt):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3)).round(3)
    y = (X[:, 0] > 0).astype(int)
    if fmt == "parquet":
        pq.write_table(pa.table({"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "label": y}), path)
    elif fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        path.write_text(
            sep.join("abc") + sep + "label\n" + "".join(sep.join(map(str, [*x, t])) + "\n" for x, t in zip(X, y))
        )
    elif fmt == "libsvm":
        path.write_text("".join(f"{2 * t - 1} 1:{x[0]} 2:{x[1]} 3:{x[2]}\n" for x, t in zip(X, y)))
    else:
        path.write_text("".join(f"{2 * t - 1} | a:{x[0]} b:{x[1]} c:{x[2]}\n" for x, t in zip(X, y)))
    return path


def spools():
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "perceptrons-input-*")))


@pytest.mark.parametrize("fmt", ["csv", "tsv", "libsvm", "vw", "parquet", "csv.gz"])
def test_train_evaluate_predict_stream_from_standard_input(tmp_path, fmt):
    base = fmt.removesuffix(".gz")
    data = write(tmp_path / f"d.{base}", base)
    if fmt.endswith(".gz"):
        packed = tmp_path / f"d.{fmt}"
        packed.write_bytes(gzip.compress(data.read_bytes()))
        data = packed
    (tmp_path / "-").write_text("not the data\n")  # a file named "-" must not be read
    before = spools()
    model = tmp_path / "m.npz"
    code, out, err = run(["train", "-", "--stream", "--format", base, "-o", model], data, tmp_path)
    assert code == 0, err
    assert "standard input" in out and "60" not in err
    code, out, err = run(["evaluate", model, "-", "--stream", "--format", base], data, tmp_path)
    assert code == 0 and "samples   60" in out, (out, err)
    code, out, err = run(["predict", model, "-", "--stream", "--format", base], data, tmp_path)
    assert code == 0 and len(out.split()) == 60, (out, err)
    assert spools() == before  # the copy of standard input left no file


def test_standard_input_needs_its_format(tmp_path):
    data = write(tmp_path / "d.csv", "csv")
    code, _, err = run(["train", "-", "--stream", "-o", tmp_path / "m.npz"], data, tmp_path)
    assert code == 2 and err.count("\n") == 1 and "--format" in err and "standard input" in err, err


def test_an_error_in_standard_input_names_it_and_its_line(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("a,b,label\n1,2,0\n3\n")
    code, _, err = run(["train", "-", "--stream", "--format", "csv", "-o", tmp_path / "m.npz"], data, tmp_path)
    assert code == 2 and err.startswith("error: -, line 3:") and err.count("\n") == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv"]


def test_the_cluster_refuses_standard_input(tmp_path):
    from perceptrons import Perceptron
    from perceptrons._core.errors import PerceptronsError
    from perceptrons.distributed import fit

    with pytest.raises(PerceptronsError, match="standard input cannot be shared out"):
        fit(Perceptron(), "-")


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_predict_from_standard_input_takes_rows_without_their_label(tmp_path, fmt):
    """Rows to predict come without the label column: from standard input, the reader found no
    label and read the input again as rows without one, from a copy already consumed ("-: not
    CSV with a header (the file is empty)")."""
    data = write(tmp_path / "d.csv", "csv")
    model = tmp_path / "m.npz"
    code, out, err = run(["train", str(data), "--stream", "-o", model], data, tmp_path)
    assert code == 0, err
    rows = tmp_path / f"rows.{fmt}"
    if fmt == "csv":
        rows.write_text("".join(",".join(line.split(",")[:3]) + "\n" for line in data.read_text().splitlines()))
    else:
        import pyarrow.csv as pc

        pq.write_table(pc.read_csv(data).drop_columns(["label"]), rows)
    for stream in ([], ["--stream"]):
        code, out, err = run(["predict", model, "-", "--format", fmt, *stream], rows, tmp_path)
        assert code == 0 and len(out.split()) == 60, (out, err)
