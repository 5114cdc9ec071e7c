"""Numba compilation flags, kept in one place so every compiled loop is built the same way.

``cache=True`` writes compiled machine code next to the sources, so the compile cost is paid
once per machine rather than once per process.  ``fastmath`` is limited to re-association and
contraction: that lets LLVM vectorise dot-product reductions, while NaN/inf semantics stay intact
(inputs are validated before any compiled loop runs, so none relies on finite-math assumptions).
"""

NJIT = {
    "cache": True,
    "nogil": True,
    "fastmath": {"reassoc", "contract", "nsz", "arcp"},
    "error_model": "numpy",
}

# Flags for compiled loops whose floating-point order must be exactly the order written.
# ``fastmath=False`` must be spelled out: numba compiles a function that leaves an option unset
# with its caller's value (flag inheritance), so a "strict" helper called from a fastmath loop
# would silently be compiled with fastmath too.
NJIT_STRICT = {"cache": True, "nogil": True, "error_model": "numpy", "fastmath": False}
