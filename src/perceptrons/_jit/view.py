"""A read-only view of an array inside compiled code: the compiled side of
:func:`perceptrons._readonly.read_only`.

numba compiles a function once for each type it is called with, and an array's writeable flag
is part of its type.  :func:`~perceptrons._jit.intern.intern` is called by the CoNLL-U pass on
the file's bytes (read-only) and by the word-attribute pass on its scratch buffer (writable):
two specialisations of the same lookup, 1.4 s of a first ``tag train``'s compilation on their
own.  The attribute pass hands its buffer over through ``read_only``, and both meet one.
``read_only`` is typed and lowered directly, for the compile-time reason given in
:mod:`perceptrons._jit.index`.
"""

from numba import types
from numba.core.extending import lower_builtin, type_callable
from numba.core.imputils import impl_ret_borrowed


def read_only(a):
    """``a`` typed as a read-only array (Python, without the JIT: ``a`` itself)."""
    return a


@type_callable(read_only)
def _type_read_only(context):  # pragma: no cover - compile-time only; the JIT runs it
    def typer(a):
        if isinstance(a, types.Array):
            return a.copy(readonly=True)
        return None

    return typer


@lower_builtin(read_only, types.Array)
def _lower_read_only(context, builder, sig, args):  # pragma: no cover - compile-time only
    # the same array structure: only the type, which numba checks writes against, differs
    return impl_ret_borrowed(context, builder, sig.return_type, args[0])
