"""The kernels' plain-Python bodies (NUMBA_DISABLE_JIT=1) pass the same oracle tests.

This keeps the fallbacks in ``_jit/storage.py`` honest and lets coverage see inside the kernels.
"""

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_linear_oracles_without_jit():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            str(TESTS / "test_oracle_linear.py"),
            str(TESTS / "test_gormley.py"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
