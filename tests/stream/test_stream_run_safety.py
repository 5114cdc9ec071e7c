"""A streamed run that fails or is interrupted says what it leaves, and leaves only that.

* Ctrl-C once the epoch cache is whole keeps the cache for the restart and says so; before,
  the message said "nothing was written" beside the new cache.
* A run that fails after its first pass (a test file with labels the model never saw, a model
  that cannot be written) removes the cache it made, as a failure on the data does.
"""

import subprocess
import sys
import time

import numpy as np

from tests.processes import interrupt


def noisy_csv(path, n=20_000):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, 3)).round(3)
    y = (X[:, 0] + rng.standard_normal(n) > 0).astype(int)  # noisy: never converges
    with open(path, "w") as f:
        f.write("a,b,c,label\n")
        np.savetxt(f, np.column_stack([X, y]), fmt=["%.3f"] * 3 + ["%d"], delimiter=",")
    return path


def test_ctrl_c_after_the_first_pass_names_the_cache_it_keeps(tmp_path):
    data = noisy_csv(tmp_path / "d.csv")
    out, cache = tmp_path / "m.npz", tmp_path / "m.npz.cache"
    proc = subprocess.Popen(
        [sys.executable, "-m", "perceptrons", "train", str(data), "--stream", "--epochs", "100000000", "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not cache.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    time.sleep(1)  # into the epochs
    stdout, stderr = interrupt(proc)
    assert proc.returncode == 130, (stdout, stderr)
    assert stderr.strip() == f"interrupted; no model was written; the epoch cache {cache} is kept, to start again from"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "m.npz.cache"]


def test_a_failure_after_the_first_pass_removes_the_cache_it_made(tmp_path, run_cli):
    data = tmp_path / "d.csv"
    data.write_text("a,label\n1,x\n-1,y\n2,x\n-2,y\n")
    test = tmp_path / "t.csv"
    test.write_text("a,label\n1,x\n1e999,y\n")  # read after the fit: a number beyond float64
    code, _, err = run_cli(["train", str(data), "--stream", "--test", str(test), "-o", str(tmp_path / "m.npz")])
    assert code == 2 and "t.csv, line 3: value inf of column 'a' is not finite" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "t.csv"]


def test_a_model_that_cannot_be_written_removes_the_cache_it_made(tmp_path, run_cli):
    data = tmp_path / "d.csv"
    data.write_text("a,label\n1,x\n-1,y\n2,x\n-2,y\n")
    cache = tmp_path / "c.cache"
    # /dev/full takes the model's bytes and fails with ENOSPC: a disk that fills after the checks
    code, _, err = run_cli(["train", str(data), "--stream", "--cache", str(cache), "-o", "/dev/full"])
    assert code == 2 and err.startswith("error: /dev/full") and err.count("\n") == 1, err
    assert not cache.exists()
