"""An array index that numba need not wrap around: a signed integer read as unsigned.

numba indexes an array as Python does, so ``w[j]`` with a signed ``j`` compiles to a test of its
sign and a select of ``j + len(w)``: three or four instructions, unless LLVM can prove that
``j`` is not negative.  It cannot for an index loaded from memory.  A sparse row's gather
``w[ind[p]]`` pays that twice for every stored value, once for ``p``, once for ``ind[p]``, and
the gather loops are bound by how many gathers the CPU holds in flight, which is a window of
instructions.  With the tests gone, a CSR epoch of 1M Zipf columns measured 1.25x faster
(``benchmarks/HISTORY.md``, issue 15.1).

The indices are known not to be negative: every CSR input is checked before a compiled loop
reads it (:mod:`perceptrons._core.data`), and ``indptr`` holds offsets from 0.  The cast is
the same bits, so a valid index is unchanged, and an unsigned index is never wrapped.

``unsigned`` is a cast of :mod:`perceptrons._jit.retype`.
"""

from numba import types

from perceptrons._jit.retype import retyping

unsigned = retyping(
    "unsigned",
    types.Integer,
    lambda j: types.Integer.from_bitwidth(j.bitwidth, signed=False),
    """``j`` as the unsigned integer of its width (Python, without the JIT: ``j`` itself).""",
)
