"""The attribute strings of a vocabulary's words, made and interned in one compiled pass.

:func:`perceptrons.structured.words.word_attributes` makes ~16 strings a word in Python and a
dictionary numbers them: 0.21–0.59 s for EWT train's 19,674 words, against 0.05–0.08 s here.  Here an
ASCII word's strings (the same bytes: lower case, prefixes, suffixes, shape, short shape,
flags) are written straight into one buffer and interned (:func:`~perceptrons._jit.intern.intern`);
a word with other characters brings its strings made by Python, as UTF-8, so that every
string is numbered in the same order as the Python loop numbers them.
"""

import numpy as np
from numba import njit

from perceptrons._config import NJIT_STRICT
from perceptrons._jit.intern import find, intern

_A, _Z, _LA, _LZ, _D0, _D9 = 65, 90, 97, 122, 48, 57
#: the attributes made here: w, l, p1–p4, s1–s4, sh, ss, d, h, c, u (not the cluster ones)
_N_ASCII = 16


@njit(**NJIT_STRICT)
def _ascii_strings(words, a, b, out, p, ends, low, shape):
    """Write the attribute strings of the ASCII word ``words[a:b]`` one after another from
    ``out[p]``: string j ends at ``ends[j]`` and starts where string j − 1 ends (at ``p`` for the
    first); an absent attribute is an empty span.  ``low`` and ``shape`` are scratch of the
    word's length or more.  Written without helper functions: each one a compiled pass calls
    adds to the first call's compilation."""
    n = b - a
    # w=word, l=lower; shape: X x d for upper, lower, digit, the rest as it is
    for i in range(a, b):
        c = words[i]
        low[i - a] = c + 32 if _A <= c <= _Z else c
        shape[i - a] = 88 if _A <= c <= _Z else (120 if _LA <= c <= _LZ else (100 if _D0 <= c <= _D9 else c))
    out[p] = 119
    out[p + 1] = 61
    q = p + 2
    for i in range(a, b):
        out[q] = words[i]
        q += 1
    ends[0] = q
    out[q] = 108
    out[q + 1] = 61
    q += 2
    for i in range(n):
        out[q] = low[i]
        q += 1
    ends[1] = q
    # p1..p4 and s1..s4 (three-byte prefixes "pK=", "sK=")
    for side in range(2):
        for k in range(1, 5):
            j = 2 + 4 * side + k - 1
            if n < k:
                ends[j] = q  # absent: an empty span
                continue
            out[q] = 112 if side == 0 else 115
            out[q + 1] = 48 + k
            out[q + 2] = 61
            q += 3
            lo = 0 if side == 0 else n - k
            for i in range(lo, lo + k):
                out[q] = low[i]
                q += 1
            ends[j] = q
    # sh= the shape, six and six around "~" past 12 characters
    out[q] = 115
    out[q + 1] = 104
    out[q + 2] = 61
    q += 3
    for i in range(n):
        if n <= 12 or i < 6 or i >= n - 6:
            out[q] = shape[i]
            q += 1
        elif i == 6:
            out[q] = 126
            q += 1
    ends[10] = q
    # ss= the shape with runs collapsed; a regex "(.)\1+" leaves runs of newlines alone
    out[q] = 115
    out[q + 1] = 115
    out[q + 2] = 61
    q += 3
    prev = -1
    for i in range(n):
        s = shape[i]
        if s != prev or s == 10:
            out[q] = s
            q += 1
        prev = s
    ends[11] = q
    digit = hyphen = lower = upper = False
    for i in range(a, b):
        c = words[i]
        digit |= _D0 <= c <= _D9
        hyphen |= c == 45
        lower |= _LA <= c <= _LZ
        upper |= _A <= c <= _Z
    flags = (digit, hyphen, n > 0 and _A <= words[a] <= _Z, upper and not lower)
    for f in range(4):
        if flags[f]:
            out[q] = (100, 104, 99, 117)[f]
            out[q + 1] = 61
            out[q + 2] = 49
            q += 3
        ends[12 + f] = q


@njit(**NJIT_STRICT)
def attribute_ids(words, word_bounds, given, given_bounds, first_id, ids, out, table, starts, ends):
    """Number the attribute strings of the words, in order of first appearance.

    Parameters
    ----------
    words : ndarray of uint8
        The words, UTF-8, one after another; ``word_bounds`` (n_words + 1,) cuts them.
    given : ndarray of uint8
        The attribute strings of the words that are not ASCII, made by Python, as UTF-8.
    given_bounds : ndarray of int64, shape (n_words, n_attributes + 1)
        For such a word, where each of its strings starts in ``given`` (an empty span: absent);
        −1 in column 0 for an ASCII word, whose strings are made here.
    first_id : int
        The id of the first new string (ids below it are taken).
    ids : ndarray of int64, shape (n_words, n_attributes)
        Out: each word's attribute ids, −1 absent (the columns past what is made stay −1).
    out : ndarray of uint8
        Out: the distinct strings, each where ``starts``/``ends`` say; room for every string made.
    table : ndarray of int64
        Empty slots (−1), a power of two; kept at most half full.
    starts, ends : ndarray of int64
        Out: where each distinct string lies in ``out``.

    Returns
    -------
    int
        How many distinct strings; −1 when ``starts`` or ``table`` is too small for them (the
        caller gives more room and calls again).
    """
    # int64 from the start: a literal 0 would have numba compile the callees once more for it
    n = np.int64(0)
    p = np.int64(0)  # the first free byte of ``out``
    span = np.empty(given_bounds.shape[1], dtype=np.int64)
    longest = 0
    for r in range(ids.shape[0]):
        longest = max(longest, word_bounds[r + 1] - word_bounds[r])
    low = np.empty(longest, dtype=np.uint8)
    shape = np.empty(longest, dtype=np.uint8)
    limit = min(starts.shape[0], table.shape[0] // 2) - (given_bounds.shape[1] - 1)
    for r in range(ids.shape[0]):
        if n > limit:  # this word's strings might not fit
            return -1
        g = given_bounds[r, 0]
        if g < 0:
            _ascii_strings(words, word_bounds[r], word_bounds[r + 1], out, p, span[1:], low, shape)
            span[0] = p
            span[_N_ASCII + 1 :] = span[_N_ASCII]  # the attributes made elsewhere are absent
        else:
            # copy the given strings to the end of the buffer, as if made here
            span[0] = p
            q = p
            for j in range(given_bounds.shape[1] - 1):
                for i in range(given_bounds[r, j], given_bounds[r, j + 1]):
                    out[q] = given[i]
                    q += 1
                span[j + 1] = q
        # intern each string in place: a new one stays where it was written, a known one is
        # overwritten by the next string moved down over it
        q = p
        for j in range(span.shape[0] - 1):
            a, b = span[j], span[j + 1]
            if a == b:
                continue
            if q != a:
                for i in range(b - a):
                    out[q + i] = out[a + i]
            k, n2 = intern(out, q, q + b - a, table, starts, ends, n)
            if n2 > n:
                q += b - a
                n = n2
            ids[r, j] = first_id + k
        p = q
    return n


@njit(**NJIT_STRICT)
def lookup_words(words, word_bounds, row_of, table, vocab, starts, ends, rows, ids):
    """Words against a fitted vocabulary: each word's row of the type table, and the attribute
    ids of the words never seen.

    Parameters
    ----------
    words, word_bounds : ndarray
        The words, UTF-8, and where each starts (n_words + 1,).
    row_of : ndarray of int64
        The type-table row of each vocabulary id (−1: not a word's ``w=`` string).
    table, vocab, starts, ends : ndarray
        The vocabulary's strings (``vocab[starts[k]:ends[k]]`` has id k) hashed by
        :func:`~perceptrons._jit.intern.hash_strings`.
    rows : ndarray of int64, shape (n_words,)
        Out: the row of each word seen in training, −1 for the others.
    ids : ndarray of int64, shape (≥ n_unseen, n_attributes)
        Out: the attribute ids of the unseen words, in order (−1: absent or not in the
        vocabulary); a word that is not ASCII gets −2 in column 0, and Python makes its strings.

    Returns
    -------
    n_unseen, n_foreign : int
        The number of unseen words, and of those that are not ASCII.
    """
    longest = 0
    for r in range(rows.shape[0]):
        longest = max(longest, word_bounds[r + 1] - word_bounds[r])
    buf = np.empty(4 * longest + 91, dtype=np.uint8)
    low = np.empty(longest, dtype=np.uint8)
    shape = np.empty(longest, dtype=np.uint8)
    span = np.empty(_N_ASCII + 1, dtype=np.int64)
    u = np.int64(0)
    foreign = np.int64(0)
    for r in range(rows.shape[0]):
        a, b = word_bounds[r], word_bounds[r + 1]
        buf[0] = 119  # "w=" + the word: its id names its row
        buf[1] = 61
        ascii = True
        for i in range(a, b):
            buf[2 + i - a] = words[i]
            ascii &= words[i] < 128
        k = find(buf, 0, 2 + b - a, table, vocab, starts, ends)
        rows[r] = row_of[k] if k >= 0 else -1
        if rows[r] >= 0:
            continue
        for j in range(ids.shape[1]):
            ids[u, j] = -1
        if not ascii:
            ids[u, 0] = -2
            foreign += 1
        else:
            span[0] = 0
            _ascii_strings(words, a, b, buf, 0, span[1:], low, shape)
            for j in range(_N_ASCII):
                if span[j] < span[j + 1]:
                    ids[u, j] = find(buf, span[j], span[j + 1], table, vocab, starts, ends)
        u += 1
    return u, foreign
