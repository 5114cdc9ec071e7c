"""A streamed fit's memory does not grow with its file: peak RSS at 2 M rows is that at 100 k.

Every streaming format is measured, plain, gzip and from standard input, in a real process
(:func:`tests.zipf_data.run_with_peak_rss`).  The readers hold one block of a few MB: pyarrow's own CSV reader
read ahead of the fit (+120 MB at 2 M rows) and Parquet's pre-buffering kept every row group
(+90 MB), which is what this test would catch again.
"""

import gzip
import os
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.zipf_data import run_with_peak_rss

pytestmark = pytest.mark.slow

SMALL, LARGE = 100_000, 2_000_000
#: the growth allowed from 100 k to 2 M rows: the 2 M-row CSV is 64 MB, its labels 16 MB as float64
GROWTH_MIB = 40


def rows(n):
    rng = np.random.default_rng(n)
    X = rng.standard_normal((n, 4)).round(3)
    return X, (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int)


def write(path, fmt, n):
    X, y = rows(n)
    if fmt == "parquet":
        cols = {f"f{j}": X[:, j] for j in range(4)}
        pq.write_table(pa.table({**cols, "label": y}), path, row_group_size=65_536)
        return
    if fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        with open(path, "w") as f:
            f.write(sep.join(["f0", "f1", "f2", "f3", "label"]) + "\n")
            np.savetxt(f, np.column_stack([X, y]), fmt=["%.3f"] * 4 + ["%d"], delimiter=sep)
        return
    cells = [f"{j + 1}:%.3f" for j in range(4)] if fmt == "libsvm" else [f"f{j}:%.3f" for j in range(4)]
    head = "%d " if fmt == "libsvm" else "%d | "
    with open(path, "w") as f:
        np.savetxt(f, np.column_stack([2 * y - 1, X]), fmt=head + " ".join(cells), delimiter="")


CASES = [
    ("csv", "d.csv", False),
    ("csv", "d.csv.gz", False),
    ("csv", "-", True),
    ("tsv", "d.tsv", False),
    ("parquet", "d.parquet", False),
    ("parquet", "-", True),
    ("libsvm", "d.svm", False),
    ("libsvm", "d.svm.gz", False),
    ("libsvm", "-", True),
    ("vw", "d.vw", False),
]


@pytest.mark.parametrize("fmt, name, stdin", CASES, ids=[f"{f}:{n}" for f, n, _ in CASES])
def test_streamed_memory_does_not_grow_with_the_file(tmp_path, fmt, name, stdin):
    peaks = {}
    for n in (SMALL, LARGE):
        d = tmp_path / str(n)
        d.mkdir()
        plain = d / ("d." + {"libsvm": "svm"}.get(fmt, fmt))
        write(plain, fmt, n)
        path = plain
        if name.endswith(".gz"):
            path = d / name
            with open(plain, "rb") as src, gzip.open(path, "wb", compresslevel=1) as dst:
                shutil.copyfileobj(src, dst)
        data = "-" if stdin else path
        # the file's order: the readers' memory (a shuffle holds runs of rows besides, bounded in
        # bytes: test_stream.py's test_the_default_shuffle_holds_runs_of_a_bounded_size)
        args = ["train", data, "--stream", "--format", fmt, "--model", "averaged", "--epochs", "2", "--order", "cyclic"]
        with open(path if stdin else os.devnull, "rb") as feed:
            code, _, peak, out, err = run_with_peak_rss("perceptrons", [*args, "-o", d / "m.npz"], stdin=feed)
        assert code == 0, err
        assert f"{n} rows" in out or "features" in out, out
        peaks[n] = peak
    grown = peaks[LARGE] - peaks[SMALL]
    assert grown < GROWTH_MIB, f"{fmt} {name}: peak RSS {peaks[SMALL]:.0f} → {peaks[LARGE]:.0f} MiB (+{grown:.0f})"
