"""The hash of every source a kernel of :mod:`perceptrons._jit` compiles in, without numba.

Two caches of machine code are valid only for the sources that made them: numba's on-disk cache
(:mod:`perceptrons._compile.numba_cache`) and the kernels compiled ahead of time at install
(:mod:`perceptrons._compile.aot`).  Both compare their stamp with :func:`sources_digest`; the second
does so in a process that never imports numba, hence this module of its own.
"""

import functools
import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
JIT = PACKAGE / "_jit"
#: the modules outside the compiled loops' directory that they import, relative to the package
IMPORTED = ("_compile/flags.py", "_core/readonly.py")


@functools.cache
def sources_digest():
    """SHA-256 of the sources the kernels are made of: the modules of :mod:`perceptrons._jit` and
    :data:`IMPORTED`, by name and content (read once a process, ~2 ms).  A source that cannot
    be read as a file (a package imported from a zip archive) counts by its name alone."""
    h = hashlib.sha256()
    for path in sorted(JIT.glob("*.py")) + [PACKAGE / name for name in IMPORTED]:
        try:
            data = path.read_bytes()
        except OSError:
            data = b""
        h.update(f"{path.relative_to(PACKAGE).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()
