"""A read-only view of an array inside compiled code: the compiled side of
:func:`perceptrons._core.readonly.read_only`.

numba compiles a function once for each type it is called with, and an array's writeable flag
is part of its type.  :func:`~perceptrons._jit.intern.intern` is called by the CoNLL-U pass on
the file's bytes (read-only) and by the word-attribute pass on its scratch buffer (writable):
two specialisations of the same lookup, 1.4 s of a first ``tag train``'s compilation on their
own.  The attribute pass hands its buffer over through ``read_only``, and both meet one.
``read_only`` is a cast of :mod:`perceptrons._jit.retype`.
"""

from numba import types

from perceptrons._jit.retype import retyping

read_only = retyping(
    "read_only",
    types.Array,
    lambda a: a.copy(readonly=True),
    """``a`` typed as a read-only array (Python, without the JIT: ``a`` itself).""",
)
