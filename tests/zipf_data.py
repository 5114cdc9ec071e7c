"""Text-like LIBSVM files for the streaming tests and benchmarks, written at hundreds of MB/s.

Rows have ~``nnz`` distinct columns drawn from a Zipf law over ``n_cols`` columns (a fixed
random permutation spreads the hot columns over the index range, as hashing does), half of
the values ``1`` and half three-decimal floats, and a label ``sign(w*·x + noise)`` of a hidden
linear model with a few percent of flipped labels, so that accuracy on a held-out file means
something.  The text is formatted by a compiled loop: Python would take minutes per GB.
"""

# ruff: noqa: NPY002 -- numba compiles the legacy np.random functions (seeded per chunk), not Generators
import os

import numpy as np
from numba import njit


@njit(cache=True)
def _put_int(buf, p, v):
    """Write the decimal digits of v ≥ 0 at buf[p:]; return the new end."""
    if v == 0:
        buf[p] = 48
        return p + 1
    n = 0
    t = v
    while t > 0:
        n += 1
        t //= 10
    for k in range(n - 1, -1, -1):
        buf[p + k] = 48 + v % 10
        v //= 10
    return p + n


@njit(cache=True)
def _rows(cdf, perm, w_star, n_rows, nnz, flip, seed, buf):
    """Format ``n_rows`` rows into ``buf``; returns the bytes written."""
    np.random.seed(seed)
    cols = np.empty(nnz * 2, dtype=np.int64)
    vals = np.empty(nnz * 2, dtype=np.int64)
    p = 0
    for _ in range(n_rows):
        m = max(1, nnz + np.random.randint(-nnz // 2, nnz // 2 + 1))
        for j in range(m):
            cols[j] = perm[np.searchsorted(cdf, np.random.random())]
        cols[:m].sort()
        k = 0
        for j in range(m):  # distinct, increasing: LIBSVM's rule
            if k == 0 or cols[j] != cols[k - 1]:
                cols[k] = cols[j]
                k += 1
        score = 0.0
        for j in range(k):
            vals[j] = 1000 if np.random.random() < 0.5 else np.random.randint(1, 1000)
            score += w_star[cols[j]] * vals[j] / 1000.0
        label = 1 if score + 0.3 * np.random.standard_normal() > 0 else -1
        if np.random.random() < flip:
            label = -label
        if label < 0:
            buf[p] = 45
            p += 1
        buf[p] = 49
        p += 1
        for j in range(k):
            buf[p] = 32
            p = _put_int(buf, p + 1, cols[j] + 1)
            buf[p] = 58
            p += 1
            if vals[j] == 1000:
                buf[p] = 49
                p += 1
            else:
                buf[p] = 48
                buf[p + 1] = 46
                v = vals[j]
                buf[p + 2] = 48 + v // 100
                buf[p + 3] = 48 + (v // 10) % 10
                buf[p + 4] = 48 + v % 10
                p += 5
        buf[p] = 10
        p += 1
    return p


def write_zipf_libsvm(path, target_bytes, *, n_cols=1_000_000, nnz=48, exponent=1.1, flip=0.03, seed=0, part=0):
    """Write about ``target_bytes`` of rows to ``path`` (atomically: temp file, then rename).

    Files written with the same ``seed`` share the hidden model; ``part`` picks another stream
    of rows from it (a held-out file).
    """
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, n_cols + 1) ** exponent
    cdf = np.cumsum(weights / weights.sum())
    cdf[-1] = 1.0
    perm = rng.permutation(n_cols).astype(np.int64)
    w_star = rng.standard_normal(n_cols)
    rows_per_chunk = 50_000
    buf = np.empty(rows_per_chunk * (nnz * 2) * 16 + 1024, dtype=np.uint8)
    tmp = f"{path}.part"
    done, chunk = 0, 0
    with open(tmp, "wb") as f:
        while done < target_bytes:
            n = _rows(cdf, perm, w_star, rows_per_chunk, nnz, flip, 1_000_003 * part + chunk, buf)
            f.write(memoryview(buf[:n]))
            done += n
            chunk += 1
    os.replace(tmp, path)
    return path


def head_slice(src, dst, n_bytes):
    """The first whole lines of ``src`` up to ``n_bytes``, copied to ``dst``."""
    with open(src, "rb") as f:
        data = f.read(n_bytes)
    end = data.rfind(b"\n") + 1
    with open(f"{dst}.part", "wb") as f:
        f.write(data[:end])
    os.replace(f"{dst}.part", dst)
    return dst


# Run a module as ``python -m MODULE ARGS`` and report the kernel's peak RSS of that process
# (VmHWM of /proc/self/status, read at exit).  getrusage's ru_maxrss of a child would not do:
# Linux carries the parent's high-water mark into the child at exec, so a big parent (a test
# worker, a benchmark holding data) inflates it.
_REPORT = """
import atexit, os, runpy, sys
def report():
    with open('/proc/self/status') as f:
        hwm = next(int(l.split()[1]) for l in f if l.startswith('VmHWM:'))
    with open(os.environ['PEAK_RSS_FILE'], 'w') as f:
        f.write(str(hwm))
atexit.register(report)
module = sys.argv[1]
sys.argv = sys.argv[1:]
runpy.run_module(module, run_name='__main__', alter_sys=True)
"""


def run_with_peak_rss(module, args, **popen):
    """(exit status, wall seconds, peak RSS in MiB, stdout, stderr) of ``python -m module args``."""
    import subprocess
    import sys
    import tempfile
    import time

    with tempfile.NamedTemporaryFile(prefix="peak-rss-", delete=False) as f:
        report = f.name
    try:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _REPORT, module, *map(str, args)],
            capture_output=True,
            text=True,
            env=dict(os.environ, PEAK_RSS_FILE=report),
            **popen,
        )
        wall = time.perf_counter() - start
        with open(report) as f:
            text = f.read().strip()
        peak = int(text) / 1024 if text else float("nan")
    finally:
        os.unlink(report)
    return done.returncode, wall, peak, done.stdout, done.stderr
