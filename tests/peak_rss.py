"""A real CLI process whose peak resident memory is measured: the memory tests' probe.

The process runs the CLI's entry point and, as it exits (normally, by an error, or after
``SystemExit``), writes its own peak RSS to a file, so stderr stays the CLI's own.  The peak is
``VmHWM`` of ``/proc/self/status``, which starts afresh with the program: ``ru_maxrss`` is kept
across ``exec``, so a child of a large test process would report its parent's peak.
"""

import os
import subprocess
import sys
import tempfile

_WRAPPER = """
import os, sys
from perceptrons.cli import main
try:
    main(sys.argv[1:])
finally:
    with open("/proc/self/status") as status:
        hwm = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["PERCEPTRONS_TEST_RSS"], "w") as f:
        f.write(hwm)
"""


def run_measured(args, *, stdin=None, cwd=None, timeout=600):
    """``(exit status, stdout, stderr, peak RSS in MiB)`` of ``perceptrons ARGS``.

    ``stdin``: a path whose bytes are fed to standard input, or None.
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rss")
        env = {**os.environ, "PERCEPTRONS_TEST_RSS": out}
        feed = open(stdin, "rb") if stdin is not None else subprocess.DEVNULL
        try:
            done = subprocess.run(
                [sys.executable, "-c", _WRAPPER, *map(str, args)],
                stdin=feed,
                capture_output=True,
                text=True,
                timeout=timeout,
                env=env,
                cwd=cwd,
            )
        finally:
            if stdin is not None:
                feed.close()
        with open(out) as f:
            peak = int(f.read()) / 1024
    return done.returncode, done.stdout, done.stderr, peak
