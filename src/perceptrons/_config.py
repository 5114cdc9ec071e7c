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

# Flags for compiled loops whose floating-point order must match the pure-Python reference exactly.
NJIT_STRICT = {"cache": True, "nogil": True, "error_model": "numpy"}
