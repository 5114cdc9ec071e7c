"""Two threads that each ask for a compiled loop first, at once: the tagger's word cache builds
its tables in two threads, and where the loops compiled ahead are stale or absent (an install
without a C compiler) both threads import numba through the JIT.  numba's modules import each
other, and two threads importing them at once failed half the time ("cannot import name
'NullCache' from partially initialized module 'numba.core.caching'")."""

import subprocess
import sys

CODE = """
import threading
from perceptrons._compile import aot
names = ["hash_build", "scan_conllu"]  # two modules of perceptrons._jit
errors = []
barrier = threading.Barrier(len(names))
def first_use(name):
    barrier.wait()
    try:
        aot.jit(name)
    except BaseException as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=first_use, args=(n,)) for n in names]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(errors)
"""


def test_two_threads_importing_the_jit_at_once_both_get_their_loop():
    # each process is a fresh draw of the race (without the import lock, 2 of 5 failed here)
    for _ in range(6):
        done = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-500:]
        assert done.stdout.strip() == "[]", done.stdout
