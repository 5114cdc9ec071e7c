"""Copying one array into another inside compiled loops, without numpy's broadcasting check.

``dst[:] = src`` in a numba function compiles numpy's broadcasting rules and, with them, the
error message naming both shapes: numba's whole string formatting, 2-4 s of compile time for
each function that holds such a line (measured per entry point by benchmarks/bench_compile.py).
The compiled loops copy arrays whose shapes they made equal themselves, so a plain loop does.
"""

from numba import njit

from perceptrons._compile.flags import NJIT


@njit(**dict(NJIT, inline="always"))
def copy_into(dst, src):
    """``dst[...] = src`` for two C-contiguous arrays of the same size (shapes not checked)."""
    flat_dst = dst.reshape(-1)
    flat_src = src.reshape(-1)
    for k in range(flat_dst.shape[0]):
        flat_dst[k] = flat_src[k]
