"""A software prefetch for compiled loops: LLVM's ``llvm.prefetch`` on ``W[j]`` or on the row ``W[j, :]``.

numba has no prefetch of its own; this intrinsic emits the one instruction (``prefetcht0`` on
x86-64) and nothing else.  It is a hint: it never faults, whatever the address, and changes no
value, so results do not depend on it.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

_I8P = ir.IntType(8).as_pointer()
_I32 = ir.IntType(32)
# llvm.prefetch(address, rw = 0 read, locality = 3 keep in all cache levels, cache type = 1 data)
_READ, _KEEP, _DATA = _I32(0), _I32(3), _I32(1)


def prefetch(W, j):
    """Start loading ``W[j]`` (a 1-D array) or the whole row ``W[j, :]`` (a C-ordered 2-D array:
    every cache line it spans, e.g. the three of a row of 17 float64 weights, one a tag).

    Without the JIT (``NUMBA_DISABLE_JIT=1``) this body runs, and does nothing: a prefetch
    changes no value.
    """


@overload(prefetch, inline="always")
def _prefetch(W, j):  # pragma: no cover - compile-time only; the JIT runs it
    if not isinstance(W, types.Array) or W.ndim not in (1, 2):
        return None
    if W.ndim == 1:

        def impl(W, j):
            _llvm_prefetch(W, j, 0)

        return impl
    step = max(1, 512 // W.dtype.bitwidth)  # elements to a 64-byte cache line

    def impl(W, j):
        # a line every `step` elements, and the last element: a row that does not start on a
        # line boundary reaches into one line more than its length alone would say
        n = W.shape[1]
        for k in range(0, n, step):
            _llvm_prefetch(W, j, k)
        if n > 0:
            _llvm_prefetch(W, j, n - 1)

    return impl


@intrinsic
def _llvm_prefetch(typingctx, W, j, k):  # pragma: no cover - compile-time only; the JIT runs it
    """``llvm.prefetch`` on the address of ``W[j]`` (1-D) or ``W[j, k]`` (2-D)."""
    if not isinstance(W, types.Array) or not isinstance(j, types.Integer) or not isinstance(k, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        where = [context.cast(builder, v, t, types.intp) for v, t in zip(args[1:], signature.args[1:])]
        address = cgutils.get_item_pointer(
            context, builder, array_type, array, where[: array_type.ndim], wraparound=False
        )
        fnty = ir.FunctionType(ir.VoidType(), [_I8P, _I32, _I32, _I32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(address, _I8P), _READ, _KEEP, _DATA])
        return context.get_dummy_value()

    return types.void(W, j, k), codegen
