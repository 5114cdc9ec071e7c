"""What a pass over the rows leaves out, decided when it compiles: ``None`` for the visit order,
the averaging sums, the update log or the prefetch of dense rows.

An epoch loop is written once.  Given ``perm=None`` it visits the rows in order, given
``sums=None`` it keeps no averaging sums, given ``log=None`` it logs nothing, and numba compiles
that case without the code it does not need.  With the three carried as empty arrays and
tested on every row, a dense float32 epoch streamed at ~0.70 of the read bandwidth; without
them, ~0.78 (interleaved A/B, ``benchmarks/HISTORY.md``, issue 15.2).  The unused paths cost
registers, spilled to the stack in the hot loop, and the order test kept the compiler from
knowing that a row index is not negative.

The ``@overload`` versions are what compiled loops inline; the plain-Python bodies are the same
rules, run under ``NUMBA_DISABLE_JIT=1``.
"""

from numba import types
from numba.extending import overload

from perceptrons._jit.rows import prefetch_values


def visit_count(perm, n):
    """How many visits a pass makes: ``n`` in order (``perm`` None), else ``len(perm)``."""
    return n if perm is None else perm.shape[0]


def visit_row(perm, t):
    """The row of visit ``t``: ``t`` in order, else ``perm[t]``."""
    return t if perm is None else perm[t]


def averaging(sums):
    """Whether a loop keeps averaging sums: ``sums`` is an array with rows, not None or empty."""
    return sums is not None and sums.shape[0] > 0


def log_update(log, n_log, i, c, r):
    """Record an update (example ``i``, visit counter ``c``, runner-up ``r``) in row ``n_log`` of
    ``log`` while it has room; returns the rows used.  ``log`` None: nothing is recorded."""
    if log is None or n_log >= log.shape[0]:
        return n_log
    log[n_log, 0] = i
    log[n_log, 1] = c
    log[n_log, 2] = r
    return n_log + 1


def prefetch_visit(X, perm, t, n_visit, k):
    """Ask for the dense row of visit ``t + k`` (:func:`~perceptrons._jit.rows.prefetch_values`);
    ``k`` None: nothing (:func:`~perceptrons._jit.rows.dense_ahead`)."""
    if k is not None and t + k < n_visit:
        prefetch_values(X, visit_row(perm, t + k))


def _none(t):  # pragma: no cover - compile-time only (numba types)
    return isinstance(t, types.NoneType)


@overload(visit_count, inline="always")
def _visit_count(perm, n):  # pragma: no cover - compile-time only; the JIT runs it
    if _none(perm):
        return lambda perm, n: n
    return lambda perm, n: perm.shape[0]


@overload(visit_row, inline="always")
def _visit_row(perm, t):  # pragma: no cover - compile-time only; the JIT runs it
    if _none(perm):
        return lambda perm, t: t
    return lambda perm, t: perm[t]


@overload(averaging, inline="always")
def _averaging(sums):  # pragma: no cover - compile-time only; the JIT runs it
    if _none(sums):
        return lambda sums: False
    return lambda sums: sums.shape[0] > 0


@overload(log_update, inline="always")
def _log_update(log, n_log, i, c, r):  # pragma: no cover - compile-time only; the JIT runs it
    if _none(log):
        return lambda log, n_log, i, c, r: n_log

    def impl(log, n_log, i, c, r):
        if n_log >= log.shape[0]:
            return n_log
        log[n_log, 0] = i
        log[n_log, 1] = c
        log[n_log, 2] = r
        return n_log + 1

    return impl


@overload(prefetch_visit, inline="always")
def _prefetch_visit(X, perm, t, n_visit, k):  # pragma: no cover - compile-time only; the JIT runs it
    if _none(k):
        return lambda X, perm, t, n_visit, k: None

    def impl(X, perm, t, n_visit, k):
        if t + k < n_visit:
            prefetch_values(X, visit_row(perm, t + k))

    return impl
