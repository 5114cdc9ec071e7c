"""An in-memory read counts what it decodes and stops at its budget, whatever the file's size says.

The check before a read estimated from the file's size: a gzip of repetitive rows inflates far
past any assumed ratio, and short CSV rows take tens of times their text.  Every in-memory
reader now adds up what its arrays hold as it reads (:class:`~perceptrons._core.memory.LoadBudget`)
and refuses, naming the line it reached, before passing half the available memory, or
``PERCEPTRONS_MAX_READ_MEMORY``, which these tests lower to a few MiB.
"""

import gzip
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import LoadBudget
from perceptrons.io.readers import read_data
from tests.zipf_data import run_with_peak_rss

ROWS = 400_000


def write(path, fmt):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((ROWS, 3)).round(2)
    y = (X[:, 0] > 0).astype(int)
    if fmt == "parquet":
        pq.write_table(pa.table({"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "label": y}), path)
        return path
    with open(path, "w") as f:
        if fmt == "csv":
            f.write("a,b,c,label\n")
            np.savetxt(f, np.column_stack([X, y]), fmt=["%.2f"] * 3 + ["%d"], delimiter=",")
        elif fmt == "libsvm":
            np.savetxt(f, np.column_stack([2 * y - 1, X]), fmt="%d 1:%.2f 2:%.2f 3:%.2f")
        else:
            np.savetxt(f, np.column_stack([2 * y - 1, X]), fmt="%d | a:%.2f b:%.2f c:%.2f")
    return path


@pytest.mark.parametrize("fmt, name", [("csv", "d.csv"), ("libsvm", "d.svm"), ("vw", "d.vw"), ("parquet", "d.parquet")])
def test_every_in_memory_reader_stops_at_its_budget(tmp_path, monkeypatch, fmt, name):
    path = write(tmp_path / name, fmt)
    monkeypatch.setenv(LoadBudget.ENV, "2M")
    with pytest.raises(
        PerceptronsError, match=rf"{name}, line \d+: the rows read so far take .* more than the 2.0 MiB"
    ):
        read_data(path)
    monkeypatch.setenv(LoadBudget.ENV, "1G")
    assert read_data(path)[0].shape[0] == ROWS  # within the budget: read as before


def test_a_gzip_bomb_is_refused_at_the_line_it_reached_with_memory_to_match(tmp_path, monkeypatch):
    """3 M identical rows gzip to 0.3 MB: the size-based check saw 0.3 MB; the rows take 170 MB.
    The refusal comes within the 40 MiB budget of what the same command takes on two rows."""
    path = tmp_path / "bomb.svm.gz"
    with gzip.open(path, "wb", compresslevel=9) as f:
        f.write(b"1 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1\n" * 3_000_000)
    assert os.path.getsize(path) < 1_000_000
    small = tmp_path / "small.svm.gz"
    small.write_bytes(gzip.compress(b"1 1:1 2:1\n-1 1:-1\n"))
    monkeypatch.setenv(LoadBudget.ENV, "40M")  # the processes run below inherit it
    code, _, baseline, _, err = run_with_peak_rss("perceptrons", ["train", small, "-o", tmp_path / "s.npz"])
    assert code == 0, err
    code, _, peak, _, err = run_with_peak_rss("perceptrons", ["train", path, "-o", tmp_path / "m.npz"])
    assert code == 2 and "bomb.svm.gz, line" in err and "more than the 40.0 MiB" in err, err
    # the budget, a block being parsed and the arrays' slack: not the 170 MB of the whole
    assert peak - baseline < 100, (peak, baseline)


def test_the_budget_setting_is_checked(monkeypatch):
    for bad in ("abc", "0", "-5", "1.5G"):
        monkeypatch.setenv(LoadBudget.ENV, bad)
        with pytest.raises(PerceptronsError, match=LoadBudget.ENV):
            LoadBudget("x")
    monkeypatch.setenv(LoadBudget.ENV, "3K")
    assert LoadBudget("x").limit == 3 * 1024
