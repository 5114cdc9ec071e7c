"""numba's on-disk cache of the kernels (:mod:`perceptrons._jit`), valid only for the sources
that compiled them.

numba stamps a cached function with its own source file (its hash; in older numba its time
and size) and nothing else.  But a kernel compiles into its machine code the helpers it calls
from other files: the overloads of ``rows.py``, MurmurHash3 from ``murmur.py``, the flags of
``perceptrons._compile.flags``.  When only those files changed, numba loaded the old machine code.  Two ways get there: a ``git pull`` in
a checkout, and ``pip install --upgrade``, which removes the files it installed and leaves
numba's ``__pycache__/*.nbi`` and ``*.nbc`` behind.  The result was stale answers.  Had an
argument's layout changed, it would have been reads out of bounds.

So every locator numba tries (its own cache directory, ``__pycache__`` beside the source, the
user-wide directory, ...) gets a twin for the kernels' files.  The twin finds the same
place, but its stamp also carries :func:`sources_digest`, the hash of every source a kernel
can compile in.  When any of them changes, every cached kernel is stale at once, and
numba compiles again and overwrites it.  numba's index files keep the stamp, so the check
costs nothing at a call.  Functions of other packages fall through to numba's own locators.
"""

from pathlib import Path

from numba.core import caching

from perceptrons._compile.stamps import JIT as _JIT
from perceptrons._compile.stamps import sources_digest


def _twin(base):
    """A locator that finds what ``base`` finds for the kernels' files, stamped with the sources."""

    class Twin(base):
        @classmethod
        def from_function(cls, py_func, py_file):
            if Path(py_file).resolve().parent != _JIT:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return (super().get_source_stamp(), sources_digest())

    Twin.__name__ = Twin.__qualname__ = f"Sources{base.__name__}"
    return Twin


def install():
    """Put the twins before numba's locators, once a process."""
    locators = caching.CacheImpl._locator_classes  # numba 0.59 to 0.68 alike
    if not any(getattr(cls, "__module__", None) == __name__ for cls in locators):
        locators[:0] = [_twin(base) for base in list(locators)]
