"""The tagging feature dictionary fitted in compiled passes: every template's values over a
corpus, counted, the values seen ``min_count`` times kept in sorted order, and each token's
column.

What :meth:`perceptrons.structured.features.FeatureMap.fit_transform` did with numpy, one
template at a time (a gather per part, ``bincount`` or ``unique``, then a scatter), without the
temporary arrays: on EWT train (204,577 tokens, 43 templates) that took 0.33–0.48 s, these
passes take ~0.1 s (in one warm process; a conjunction's values are sorted by two counting
sorts, not by a comparison sort or a hash table, which measured 2.5x slower).  The
incremental fit (:mod:`perceptrons.structured._feature_fit`) keeps the numpy path, and the
tests hold the two to the same dictionary and columns.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT


@njit(**NJIT_STRICT)
def _neighbours(tok, pos, slen, bos, lo, hi):
    """``rows[k - lo, i]``: the type row of the token ``k`` places from token ``i``, for every
    offset ``lo ≤ k ≤ hi`` (the BOS row ``bos`` before the sentence, EOS after).

    Computed once, so that a template's pass is a plain gather: a helper that takes the arrays
    and is called (even inlined) per token made that pass 10x slower, by reference counting.
    """
    N = tok.shape[0]
    rows = np.empty((hi - lo + 1, N), dtype=np.int64)
    for k in range(lo, hi + 1):
        for i in range(N):
            j = pos[i] + k
            rows[k - lo, i] = bos if j < 0 else (bos + 1 if j >= slen[i] else tok[i + k])
    return rows


@njit(**NJIT_STRICT)
def _one_part(rows1, a, bias, table, rare, withhold, min_count, base, counts, slots, colrow, kept):
    """A bias or one-part template: its kept values into ``kept`` (sorted, as the attribute ids
    are), each token's column (``base`` + the value's rank) into ``colrow``; returns how many."""
    for v in range(counts.shape[0]):  # not counts[:] = 0, whose slice machinery compiles for ~0.2 s
        counts[v] = 0
    for i in range(colrow.shape[0]):
        v = 0 if bias else table[rows1[i], a]
        if withhold and rare[i]:
            v = -1
        slots[i] = v
        if v >= 0:
            counts[v] += 1
    n = 0
    for v in range(counts.shape[0]):
        if counts[v] >= min_count:
            kept[n] = v
            counts[v] = base + n  # the count is read no more: it becomes the value's column
            n += 1
        else:
            counts[v] = -1
    for i in range(colrow.shape[0]):
        colrow[i] = counts[slots[i]] if slots[i] >= 0 else -1
    return n


@njit(**NJIT_STRICT)
def _counting_sort(src, m, by, counts, dst):
    """``dst[:m]`` = ``src[:m]`` stably sorted by ``by[src[q]]`` (values below len(counts) − 1)."""
    for v in range(counts.shape[0]):  # not counts[:] = 0, whose slice machinery compiles for ~0.2 s
        counts[v] = 0
    for q in range(m):
        counts[by[src[q]] + 1] += 1
    for v in range(counts.shape[0] - 1):
        counts[v + 1] += counts[v]
    for q in range(m):
        p = src[q]
        dst[counts[by[p]]] = p
        counts[by[p]] += 1


@njit(**NJIT_STRICT)
def _two_part(parts, table, rare, withhold, min_count, base, scratch, counts, colrow, kept):
    """A conjunction: values ``v₁·V + v₂``, sorted by two stable counting sorts (v₂, then v₁:
    O(n_tokens + V), no comparison sort and no hash table), then counted in runs of equal
    values.  Kept values into ``kept``, columns into ``colrow``; returns how many.

    ``parts = (rows1, a1, rows2, a2)``: each token's table row at the first part's offset and
    the first part's attribute, then the same for the second part."""
    rows1, a1, rows2, a2 = parts
    V = counts.shape[0] - 1
    v1, v2, order, present = scratch[0], scratch[1], scratch[2], scratch[3]
    m = np.int64(0)  # not a literal 0: numba would compile _counting_sort once more for it
    for i in range(colrow.shape[0]):
        v1[i] = table[rows1[i], a1]
        v2[i] = table[rows2[i], a2]
        colrow[i] = -1
        if v1[i] >= 0 and v2[i] >= 0 and not (withhold and rare[i]):
            present[m] = i
            m += 1
    _counting_sort(present, m, v2, counts, order)
    _counting_sort(order, m, v1, counts, present)
    n = 0
    q = 0
    while q < m:
        p = present[q]
        e = q + 1
        while e < m and v1[present[e]] == v1[p] and v2[present[e]] == v2[p]:
            e += 1
        if e - q >= min_count:
            kept[n] = v1[p] * V + v2[p]
            for r in range(q, e):
                colrow[present[r]] = base + n
            n += 1
        q = e
    return n


def fit_columns(tok, pos, slen, table, spec, rare, n_values, min_count, col):
    """The dictionary of every template, and each token's columns.

    The loop over templates is Python's, one compiled pass a template: compiled as one function
    with its callees, it took 5.3 s to compile on top of the 2.8 s of the passes themselves.

    Parameters
    ----------
    tok, pos, slen : ndarray of int64, shape (n_tokens,)
        Token type rows, positions in their sentence, and sentence lengths.
    table : ndarray of int64, shape (n_types + 2, n_attributes)
        Attribute ids of each type, −1 absent; BOS and EOS rows last.
    spec : ndarray of int64, shape (n_templates, 6)
        As :func:`perceptrons._jit.features.token_features` reads it.
    rare : ndarray of bool, shape (n_tokens,) or (0,)
        Tokens that get no feature from templates naming the current word (empty: none).
    n_values : int
        V, the number of attribute values.
    min_count : int
        A value is kept when seen at least this often.
    col : ndarray of int32, shape (n_templates, n_tokens)
        Out: each token's column under each template, −1 absent.

    Returns
    -------
    keys : ndarray of int64
        The kept values of each template, sorted, templates one after another.
    ptr : ndarray of int64, shape (n_templates + 1,)
        Where each template's keys start: its columns are ``ptr[t] …``.
    """
    N = tok.shape[0]
    counts = np.empty(n_values + 1, dtype=np.int64)
    scratch = np.empty((4, N), dtype=np.int64)
    kept = np.empty(max(N, n_values), dtype=np.int64)  # a template keeps at most this many values
    keys, ptr = [], [0]
    lo, hi = int(spec[:, [2, 4]].min()), int(spec[:, [2, 4]].max())
    rows = _neighbours(tok, pos, slen, table.shape[0] - 2, lo, hi)
    for t in range(spec.shape[0]):
        withhold = rare.shape[0] > 0 and spec[t, 5] == 1
        kind, a1, k1, a2, k2 = spec[t, :5]
        if kind < 2:
            n = _one_part(
                rows[k1 - lo],
                a1,
                kind == 0,
                table,
                rare,
                withhold,
                min_count,
                ptr[-1],
                counts[:-1],
                scratch[0],
                col[t],
                kept,
            )
        else:
            n = _two_part(
                (rows[k1 - lo], a1, rows[k2 - lo], a2),
                table,
                rare,
                withhold,
                min_count,
                ptr[-1],
                scratch,
                counts,
                col[t],
                kept,
            )
        keys.append(kept[:n].copy())
        ptr.append(ptr[-1] + n)
    return np.concatenate(keys), np.array(ptr, dtype=np.int64)
