"""An arithmetic fence for compiled loops: LLVM's ``llvm.arithmetic.fence`` on a float.

The loops are compiled with re-association and contraction (:mod:`perceptrons._compile.flags`) so that
LLVM vectorises their dense dot products.  A sparse row's dot product and update must instead
be the sums written, in the order written, with every product rounded before its add: that is
what ``tests/reference.py`` computes, and what makes a CSR fit the same on every machine.
``fenced(a + b)`` keeps both: no fast-math rewrite crosses the fence, so ``a + b`` is neither
reordered with the sums around it nor fused with a product into a multiply-add, while the rest
of the loop keeps its flags.  The fence emits no instruction.

Before, those helpers were functions of their own, compiled without fastmath and called once a
row, whose arrays were passed field by field on the stack; inlined and fenced, a CSR epoch of 1M
Zipf columns measured 1.1x faster (``benchmarks/HISTORY.md``, issue 15.1).  ``fenced`` is typed
and lowered directly, for the compile-time reason given in :mod:`perceptrons._jit.index`.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.extending import lower_builtin, type_callable


def fenced(x):
    """``x``, which no fast-math rewrite may combine with the operations around it (Python,
    without the JIT: ``x`` itself, whose arithmetic is always the order written)."""
    return x


@type_callable(fenced)
def _type_fenced(context):  # pragma: no cover - compile-time only; the JIT runs it
    def typer(x):
        if isinstance(x, types.Float) and x.bitwidth in (32, 64):
            return x
        return None

    return typer


@lower_builtin(fenced, types.Float)
def _lower_fenced(context, builder, sig, args):  # pragma: no cover - compile-time only
    ty = context.get_value_type(sig.return_type)
    name = f"llvm.arithmetic.fence.f{sig.return_type.bitwidth}"
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ty, [ty]), name)
    return builder.call(fn, args)
