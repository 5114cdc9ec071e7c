"""The attribute strings of a vocabulary's words, made and interned in one compiled pass.

:func:`perceptrons.structured.words.word_attributes` makes ~16 strings a word in Python and a
dictionary numbers them: 0.21–0.59 s for EWT train's 19,674 words, against 0.05–0.08 s here.  Here a
word's strings (the same bytes: lower case, prefixes, suffixes, shape, short shape, flags)
are written straight into one buffer and interned (:func:`~perceptrons._jit.intern.intern`),
in the order the Python loop numbers them.  Of a word that is not ASCII, Python gives only
what needs Unicode's tables: its lower case, its shape and three flags.  When Python made all its
strings, EWT train's words mapped onto Cyrillic letters took 323–391 ms; they now take
106–120 ms, the same words in Latin letters 43–75 ms.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit.intern import find, intern
from perceptrons._jit.view import read_only

_A, _Z, _LA, _LZ, _D0, _D9 = 65, 90, 97, 122, 48, 57
#: the attributes made here: w, l, p1–p4, s1–s4, sh, ss, d, h, c, u (not the cluster ones)
_N_MADE = 16


@njit(**NJIT_STRICT)
def _word_strings(words, a, b, lower, parts, out, p, ends, low, shape):
    """Write the attribute strings of the word ``words[a:b]`` (UTF-8) one after another from
    ``out[p]``: string j ends at ``ends[j]`` and starts where string j − 1 ends (at ``p`` for the
    first); an absent attribute is an empty span.

    An ASCII word (``parts[0] < 0``) is made entirely here.  For another, Python gives what
    takes Unicode's tables: its lower case ``lower[parts[0]:parts[1]]`` (``str.lower``, which may
    change the length), its shape ``lower[parts[1]:parts[3]]`` (``word_shape``, by Unicode
    category; never longer than the word) and the flags ``parts[2]`` (1: a digit, 2: the first
    character upper case, 4: ``str.isupper``).  Prefixes, suffixes, the shape's six and six, and the runs of the short
    shape count characters: UTF-8 lead bytes.  ``low`` and ``shape`` are scratch of the word's
    and its lower case's length in bytes or more.  Written without helper functions: each one a
    compiled pass calls adds to the first call's compilation.
    """
    nw = b - a
    ascii = parts[0] < 0  # then a byte is a character
    if ascii:
        # shape: X x d for upper, lower, digit, every other byte as it is (str.translate
        # leaves the other characters alone)
        ns = nl = nw
        for i in range(a, b):
            c = words[i]
            shape[i - a] = 88 if _A <= c <= _Z else (120 if _LA <= c <= _LZ else (100 if _D0 <= c <= _D9 else c))
            low[i - a] = c + 32 if _A <= c <= _Z else c
    else:
        # Python's Unicode tables made both: the shape (word_shape) right after the lower case
        nl = parts[1] - parts[0]
        for i in range(nl):
            low[i] = lower[parts[0] + i]
        ns = parts[3] - parts[1]
        for i in range(ns):
            shape[i] = lower[parts[1] + i]
    n, m = nl, ns  # characters of the lower case, of the shape
    if not ascii:
        n = m = 0
        for i in range(nl):
            n += (low[i] & 0xC0) != 0x80
        for i in range(ns):
            m += (shape[i] & 0xC0) != 0x80
    # w=word, l=lower
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
    for i in range(nl):
        out[q] = low[i]
        q += 1
    ends[1] = q
    # p1..p4 and s1..s4 (three-byte prefixes "pK=", "sK="): the bytes of the first or last k
    # characters of the lower case
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
            # the prefix ends where character k starts; the suffix starts where character n − k does
            stop = k if side == 0 else n - k
            cut, seen = stop, 0
            if not ascii:
                cut = nl
                for i in range(nl):
                    if (low[i] & 0xC0) != 0x80:
                        if seen == stop:
                            cut = i
                            break
                        seen += 1
            lo, hi = (0, cut) if side == 0 else (cut, nl)
            for i in range(lo, hi):
                out[q] = low[i]
                q += 1
            ends[j] = q
    # sh= the shape, six and six characters around "~" past 12 characters
    out[q] = 115
    out[q + 1] = 104
    out[q + 2] = 61
    q += 3
    ci = -1  # the character of byte i
    for i in range(ns):
        lead = (shape[i] & 0xC0) != 0x80
        ci += lead
        if m <= 12 or ci < 6 or ci >= m - 6:
            out[q] = shape[i]
            q += 1
        elif ci == 6 and lead:
            out[q] = 126
            q += 1
    ends[10] = q
    # ss= the shape with runs of a character collapsed; a regex "(.)\1+" leaves runs of
    # newlines alone
    out[q] = 115
    out[q + 1] = 115
    out[q + 2] = 61
    q += 3
    ps, pe = 0, 0  # the previous character's bytes in ``shape``
    i = 0
    while i < ns:
        e = i + 1
        while e < ns and (shape[e] & 0xC0) == 0x80:
            e += 1
        same = e - i == pe - ps and shape[i] != 10
        if same:
            for t in range(e - i):
                if shape[i + t] != shape[ps + t]:
                    same = False
                    break
        if not same:
            for t in range(i, e):
                out[q] = shape[t]
                q += 1
        ps, pe = i, e
        i = e
    ends[11] = q
    hyphen = False
    for i in range(a, b):
        hyphen |= words[i] == 45
    if ascii:
        digit = lower_seen = upper_seen = False
        for i in range(a, b):
            c = words[i]
            digit |= _D0 <= c <= _D9
            lower_seen |= _LA <= c <= _LZ
            upper_seen |= _A <= c <= _Z
        flags = (digit, hyphen, nw > 0 and _A <= words[a] <= _Z, upper_seen and not lower_seen)
    else:
        f = parts[2]
        flags = (f & 1 != 0, hyphen, f & 2 != 0, f & 4 != 0)
    for f in range(4):
        if flags[f]:
            out[q] = (100, 104, 99, 117)[f]
            out[q + 1] = 61
            out[q + 2] = 49
            q += 3
        ends[12 + f] = q


@njit(**NJIT_STRICT)
def _scratch(word_bounds, parts):
    """Buffers for :func:`_word_strings`: the longest word, or lower case, in bytes."""
    longest = 0
    for r in range(parts.shape[0]):
        longest = max(longest, word_bounds[r + 1] - word_bounds[r], parts[r, 1] - parts[r, 0])
    return np.empty(longest, dtype=np.uint8), np.empty(longest, dtype=np.uint8)


@njit(**NJIT_STRICT)
def attribute_ids(words, word_bounds, lower, parts, first_id, ids, out, table, starts, ends, at):
    """Number the attribute strings of the words, in order of first appearance.

    Parameters
    ----------
    words : ndarray of uint8
        The words, UTF-8, one after another; ``word_bounds`` (n_words + 1,) cuts them.
    lower, parts : ndarray
        What Python makes of the words that are not ASCII
        (:func:`perceptrons.structured.words.unicode_parts`): their lower case, UTF-8, and per
        word (n_words, 3) where it lies and the flags of :func:`_word_strings`.
    first_id : int
        The id of the first new string (ids below it are taken).
    ids : ndarray of int64, shape (n_words, n_attributes)
        Out: each word's attribute ids, −1 absent (the columns past what is made stay −1).
    out : ndarray of uint8
        Out: the distinct strings, each where ``starts``/``ends`` say; room for every string
        made (:func:`string_room`).
    table : ndarray of int64
        The distinct strings so far hashed (empty slots −1), a power of two; kept at most half full.
    starts, ends : ndarray of int64
        Out: where each distinct string lies in ``out``.
    at : ndarray of int64, shape (3,)
        In and out: the next word, the number of distinct strings so far and the first free
        byte of ``out`` (zeros to start).

    Returns
    -------
    bool
        Whether every word is done.  False when ``starts`` or ``table`` has no room for the
        next word's strings: the caller gives more (the strings so far hashed again into a
        larger table) and calls again, which goes on from ``at``.
    """
    n, p = at[1], at[2]
    span = np.empty(ids.shape[1] + 1, dtype=np.int64)
    low, shape = _scratch(word_bounds, parts)
    limit = min(starts.shape[0], table.shape[0] // 2) - ids.shape[1]
    for r in range(at[0], ids.shape[0]):
        if n > limit:  # this word's strings might not fit
            at[0], at[1], at[2] = r, n, p
            return False
        _word_strings(words, word_bounds[r], word_bounds[r + 1], lower, parts[r], out, p, span[1:], low, shape)
        span[0] = p
        for j in range(_N_MADE + 1, span.shape[0]):  # the attributes made elsewhere are absent
            span[j] = span[_N_MADE]  # (a loop: a slice assignment compiles numpy's machinery)
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
            k, n2 = intern(read_only(out), q, q + b - a, table, starts, ends, n)
            if n2 > n:
                q += b - a
                n = n2
            ids[r, j] = first_id + k
        p = q
    at[0], at[1], at[2] = ids.shape[0], n, p
    return True


def string_room(n_word_bytes, n_lower_bytes, n_words):
    """Bytes that :func:`_word_strings` may write for words of these many bytes, their lower
    cases given by Python of these many, one word after another: a word of k bytes whose
    lower case has l (l = k for ASCII, made here) writes at most 3k + l + 150 bytes (w=, l=,
    eight affixes of at most 4 characters of 4 bytes, sh= with its "~", ss=, four flags)."""
    return 4 * n_word_bytes + n_lower_bytes + 150 * n_words + 1


@njit(**NJIT_STRICT)
def lookup_words(words, word_bounds, lower, parts, row_of, table, vocab, starts, ends, rows, ids):
    """Words against a fitted vocabulary: each word's row of the type table, and the attribute
    ids of the words never seen.

    Parameters
    ----------
    words, word_bounds : ndarray
        The words, UTF-8, and where each starts (n_words + 1,).
    lower, parts : ndarray
        What Python makes of the words that are not ASCII, as :func:`attribute_ids` reads it.
    row_of : ndarray of int64
        The type-table row of each vocabulary id (−1: not a word's ``w=`` string).
    table, vocab, starts, ends : ndarray
        The vocabulary's strings (``vocab[starts[k]:ends[k]]`` has id k) hashed by
        :func:`~perceptrons._jit.intern.hash_strings`.
    rows : ndarray of int64, shape (n_words,)
        Out: the row of each word seen in training, −1 for the others.
    ids : ndarray of int64, shape (≥ n_unseen, n_attributes)
        Out: the attribute ids of the unseen words, in order (−1: absent or not in the
        vocabulary; the columns past the attributes made here stay −1).

    Returns
    -------
    int
        The number of unseen words.
    """
    longest = 0
    for r in range(rows.shape[0]):
        longest = max(longest, word_bounds[r + 1] - word_bounds[r], parts[r, 1] - parts[r, 0])
    buf = np.empty(5 * longest + 151, dtype=np.uint8)  # string_room of one word
    low, shape = _scratch(word_bounds, parts)
    span = np.empty(_N_MADE + 1, dtype=np.int64)
    u = np.int64(0)
    for r in range(rows.shape[0]):
        a, b = word_bounds[r], word_bounds[r + 1]
        buf[0] = 119  # "w=" + the word: its id names its row
        buf[1] = 61
        for i in range(a, b):
            buf[2 + i - a] = words[i]
        k = find(buf, np.int64(0), 2 + b - a, table, vocab, starts, ends)  # not a literal 0: one specialisation
        rows[r] = row_of[k] if k >= 0 else -1
        if rows[r] >= 0:
            continue
        for j in range(ids.shape[1]):
            ids[u, j] = -1
        span[0] = 0
        _word_strings(words, a, b, lower, parts[r], buf, np.int64(0), span[1:], low, shape)
        for j in range(_N_MADE):
            if span[j] < span[j + 1]:
                ids[u, j] = find(buf, span[j], span[j + 1], table, vocab, starts, ends)
        u += 1
    return u
