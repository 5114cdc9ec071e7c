"""Compiled helpers of the tagging feature map: an int64 → int64 hash table and its filter, a
token's feature columns, CSR compaction.  The word cache's loops are in
:mod:`perceptrons._jit.word_cache`.

Arrays in, arrays out; see :mod:`perceptrons.structured.features` for where they are used.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT


@njit(**NJIT_STRICT)
def _slot(key, mask):
    # Fibonacci hashing: multiplying by 2^64/φ mixes every key bit into the middle and high bits,
    # so nearby keys (consecutive attribute ids) land far apart; the slot takes bits from 20 up
    return (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15) >> np.uint64(20)) & np.uint64(mask)


@njit(**NJIT_STRICT)
def hash_build(keys, values, capacity):
    """Open-addressing table (capacity, 2): slot key and value side by side, so that a probe reads
    one cache line.  Capacity is a power of two ≥ 2·len(keys); keys are non-negative int64 and
    empty slots hold −1.
    """
    table = np.full((capacity, 2), -1, dtype=np.int64)
    mask = capacity - 1
    for i in range(keys.shape[0]):
        h = _slot(keys[i], mask)
        while table[h, 0] != -1:
            h = (h + np.uint64(1)) & np.uint64(mask)
        table[h, 0] = keys[i]
        table[h, 1] = values[i]
    return table


@njit(**NJIT_STRICT)
def _find(table, q):
    mask = table.shape[0] - 1
    h = _slot(q, mask)
    while table[h, 0] != -1:
        if table[h, 0] == q:
            return table[h, 1]
        h = (h + np.uint64(1)) & np.uint64(mask)
    return -1


@njit(**NJIT_STRICT)
def _filter_bit(key, shift):
    # the top bits of the same Fibonacci product: independent of the slot's bits (from 20 up)
    return (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift)


@njit(**NJIT_STRICT)
def key_filter(table, n_bits_log2):
    """A one-hash Bloom filter of the keys of ``hash_build``'s table: 2^n_bits_log2 bits as
    uint64 words, the bit of every key set.

    Most conjunction values met when tagging are not features (on EWT test 3.3 of the 11 a
    token reads are): with about 16 bits a key the filter stays in the second-level cache and
    answers "absent" for ~94 % of them, where a probe of the table is a miss to main memory.
    """
    out = np.zeros(1 << (n_bits_log2 - 6), dtype=np.uint64)
    shift = 64 - n_bits_log2
    for h in range(table.shape[0]):
        if table[h, 0] >= 0:
            b = _filter_bit(table[h, 0], shift)
            out[b >> np.uint64(6)] |= np.uint64(1) << (b & np.uint64(63))
    return out


@njit(**NJIT_STRICT)
def _may_hold(filt, shift, key):
    """False when ``key`` is surely not in the table ``filt`` was built from (``shift`` = 64 −
    log2 of its bits)."""
    b = _filter_bit(key, shift)
    return (filt[b >> np.uint64(6)] >> (b & np.uint64(63))) & np.uint64(1) != np.uint64(0)


@njit(**NJIT_STRICT)
def hash_lookup(table, queries, out):
    """``out[i]`` = value stored for ``queries[i]``, or −1 (also for negative queries)."""
    for i in range(queries.shape[0]):
        out[i] = _find(table, queries[i]) if queries[i] >= 0 else -1


@njit(**NJIT_STRICT)
def compact_rows(col, indptr, indices):
    """CSR of a (n_templates, n_tokens) column matrix, −1 meaning absent; returns the nnz.

    Template-major, so that the passes filling ``col`` write it in order; this pass reads a
    token's n_templates entries from as many lines, which the next tokens reuse.
    ``indptr`` (n_tokens + 1,) and ``indices`` (≥ nnz,) are filled in one pass.
    """
    k = 0
    indptr[0] = 0
    for i in range(col.shape[1]):
        for j in range(col.shape[0]):
            if col[j, i] >= 0:
                indices[k] = col[j, i]
                k += 1
        indptr[i + 1] = k
    return k


@njit(**NJIT_STRICT)
def token_features(tokens, table, type_cols, spec, rare, n_values, hashed, which, col, indptr, indices):
    """Feature columns of every token: neighbours, dictionary lookup, CSR.

    ``tokens = (tok, pos, slen)``: each token's type row, its position in its sentence and that
    sentence's length (n_tokens,) each.
    ``spec`` (n_templates, 6) rows: kind (0 bias, 1 one part, 2 two parts), attribute and offset
    of each part, whether the template names the current word (withheld for ``rare`` tokens;
    ``rare`` empty: none).  ``table`` (n_types + 2, n_attributes): attribute ids of each type,
    BOS and EOS rows last.  A one-part template's column depends on one type only, so it is
    looked up once per type beforehand: ``type_cols[t, row]`` (n_templates, n_types + 2), −1 for
    absent; a template's row of it is a few kilobytes and stays in the first-level cache.
    Two-part values ``v₁·V + v₂`` go through the hash table ``hashed``, keyed
    ``value · n_templates + t``.

    Only the templates listed in ``which`` are computed (the tagger scores one-part templates
    per type, :func:`perceptrons._jit.structured.type_emissions`, and asks here for the
    conjunctions only).  Templates are the outer loop so that one column of the small tables
    stays in cache while all tokens use it; ``col`` (len(which), n_tokens) holds the columns
    before they are packed into CSR ``indptr`` (n_tokens + 1,) and ``indices``.  Returns the
    number of entries.
    """
    tok, pos, slen = tokens
    N = tok.shape[0]
    nt = spec.shape[0]
    bos = table.shape[0] - 2
    for q in range(which.shape[0]):
        t = which[q]
        kind, a1, k1, a2, k2 = spec[t, 0], spec[t, 1], spec[t, 2], spec[t, 3], spec[t, 4]
        withhold = rare.shape[0] > 0 and spec[t, 5] == 1
        for i in range(N):
            c = -1
            if not (withhold and rare[i]):
                j = pos[i] + k1
                row = bos if j < 0 else (bos + 1 if j >= slen[i] else tok[i + k1])
                if kind < 2:
                    c = type_cols[t, row]
                else:
                    v = table[row, a1]
                    j = pos[i] + k2
                    v2 = table[bos if j < 0 else (bos + 1 if j >= slen[i] else tok[i + k2]), a2]
                    if v >= 0 and v2 >= 0:
                        c = _find(hashed, (v * n_values + v2) * nt + t)
            col[q, i] = c
    return compact_rows(col, indptr, indices)
