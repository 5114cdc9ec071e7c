"""One compiled pass over a CoNLL-U file's bytes: its sentences, and each word and tag as the id
of a distinct string.

The pass accepts only what the line-by-line reader of :mod:`perceptrons.io.conllu` accepts
without comment, and gives the same sentences; on anything else (a bad line, but also a rare
form it does not follow, such as a non-ASCII tag or a line of Unicode spaces) it stops and
returns −1, and that reader reads the file again and says what is wrong.  So the messages stay
in one place, and this pass only has to be right about what it accepts.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit.intern import intern

#: returned as the token count (the only negative one) when the file needs the line-by-line reader
FALLBACK = -1


@njit(**NJIT_STRICT)
def _is_space(data, p, end):
    """Whether the UTF-8 character at ``data[p]`` is whitespace as ``str.isspace`` has it:
    U+0009–000D, U+001C–0020, U+0085, U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F,
    U+205F and U+3000 (``str.strip`` removes exactly these)."""
    c = data[p]
    if c < 0x80:
        return 9 <= c <= 13 or 28 <= c <= 32
    if c == 0xC2 and p + 1 < end:
        return data[p + 1] == 0x85 or data[p + 1] == 0xA0
    if p + 2 >= end:
        return False
    d, e = data[p + 1], data[p + 2]
    if c == 0xE1:
        return d == 0x9A and e == 0x80
    if c == 0xE2:
        return (d == 0x80 and (e <= 0x8A or e == 0xA8 or e == 0xA9 or e == 0xAF)) or (d == 0x81 and e == 0x9F)
    if c == 0xE3:
        return d == 0x80 and e == 0x80
    return False


@njit(**dict(NJIT_STRICT, inline="always"))  # one line: not worth a compilation of its own
def _line_separator(data, p):
    """Whether U+2028 or U+2029 starts at ``data[p]`` (0xE2, valid UTF-8: two bytes follow)."""
    return data[p + 1] == 0x80 and (data[p + 2] == 0xA8 or data[p + 2] == 0xA9)


@njit(**NJIT_STRICT)
def _space_around(data, a, b):
    """Whether the non-empty field ``data[a:b]`` starts or ends with whitespace."""
    if _is_space(data, a, b):
        return True
    p = b - 1
    while p > a and (data[p] & 0xC0) == 0x80:  # back to the first byte of the last character
        p -= 1
    return _is_space(data, p, b)


@njit(**NJIT_STRICT)
def _parse_id(data, a, b):
    """(kind, value) of an ID field: (0, n) a word ID n written without a leading zero; (1, 0) a
    well-formed multi-word range ``m-n`` (m < n) or empty node ``n.k``; (−1, 0) anything else."""
    p, v1 = a, 0
    while p < b and 48 <= data[p] <= 57:
        v1 = v1 * 10 + (data[p] - 48)
        p += 1
    n1 = p - a
    if n1 == 0 or n1 > 18:
        return -1, 0
    if p == b:
        return (-1, 0) if data[a] == 48 else (0, v1)
    sep = data[p]
    p += 1
    q, v2 = p, 0
    while p < b and 48 <= data[p] <= 57:
        v2 = v2 * 10 + (data[p] - 48)
        p += 1
    n2 = p - q
    if p != b or n2 == 0 or n2 > 18 or data[q] == 48:
        return -1, 0
    if sep == 45:  # '-': a range from a lower ID to a higher one, neither with a leading zero
        return (1, 0) if data[a] != 48 and v1 < v2 else (-1, 0)
    if sep == 46:  # '.': an empty node, 0.k or n.k
        return (1, 0) if data[a] != 48 or n1 == 1 else (-1, 0)
    return -1, 0


@njit(**NJIT_STRICT)
def scan_conllu(data, col, word, tag, token_line, sent_first, sent_lines, sent_tok, words, tags):
    """Sentences, words and tags of the CoNLL-U bytes ``data`` (UTF-8, already checked).

    Parameters
    ----------
    data : ndarray of uint8
        The whole file.
    col : int
        The tag column (3: UPOS, 4: XPOS).
    word, tag, token_line : ndarray of int64, shape (≥ n_lines,)
        Out: per word, the ids of its form and tag, and its line's index in its sentence.
    sent_first, sent_lines, sent_tok : ndarray of int64, shape (≥ n_lines,)
        Out: per sentence, its first line's number (from 1), its number of lines and its first word.
    words, tags : tuple (table, starts, ends) of int64 arrays
        Out: the distinct forms and tags, as byte spans of their first occurrence (see
        :func:`~perceptrons._jit.intern.intern`).  The forms' table has more than 2 · n_lines
        slots; the tags' may be smaller: more distinct tags than half its slots is a fallback.

    Returns
    -------
    (n_words, n_sentences, n_forms, n_tags), with n_words = −1 (:data:`FALLBACK`) when the file
    must be read line by line.
    """
    wtable, wstart, wend = words
    ttable, tstart, tend = tags
    n = data.shape[0]
    pos = 3 if n >= 3 and data[0] == 0xEF and data[1] == 0xBB and data[2] == 0xBF else 0  # a BOM
    lineno, nt, ns = 0, 0, 0
    # int64 from the start: a literal 0 passed to intern would have it compiled twice
    nw, ng = np.int64(0), np.int64(0)
    in_block, first, last, expect, block_tok = False, 0, 0, 1, 0
    field = np.empty(11, dtype=np.int64)  # field i is data[field[i] : field[i + 1] - 1]
    while pos < n:
        lineno += 1
        end = pos
        while end < n and data[end] != 10:
            end += 1
        e = end
        while e > pos and data[e - 1] == 13:  # the reader strips "\r" (and "\n") at the end
            e -= 1
        lo, hi, pos = pos, e, end + 1  # the line is data[lo:hi]
        blank = True
        for p in range(lo, hi):
            if not (9 <= data[p] <= 13 or 28 <= data[p] <= 32):
                blank = False
                break
        if blank:
            if in_block and nt > block_tok:
                sent_first[ns], sent_lines[ns], sent_tok[ns] = first, last - first + 1, block_tok
                ns += 1
            in_block = False
            continue
        if not in_block:
            in_block, first, expect, block_tok = True, lineno, 1, nt
        last = lineno
        if data[lo] == 35:  # '#': a comment
            continue
        k = 0
        field[0] = lo
        for p in range(lo, hi):
            c = data[p]
            if c == 9:
                k += 1
                if k > 9:
                    return FALLBACK, 0, 0, 0
                field[k] = p + 1
            elif c < 32 or c == 127 or (c == 0xC2 and data[p + 1] == 0x85) or (c == 0xE2 and _line_separator(data, p)):
                return FALLBACK, 0, 0, 0  # a control character: the line reader names it
        if k != 9:
            return FALLBACK, 0, 0, 0
        field[10] = hi + 1
        for i in range(10):
            a, b = field[i], field[i + 1] - 1
            if b <= a:
                return FALLBACK, 0, 0, 0
            # whitespace around a column is refused (the form excepted); most edges are printable
            # ASCII, which the first test clears without decoding a character
            c, d = data[a], data[b - 1]
            if i != 1 and not (32 < c < 0x80 and 32 < d < 0x80) and _space_around(data, a, b):
                return FALLBACK, 0, 0, 0
        kind, value = _parse_id(data, field[0], field[1] - 1)
        if kind == 1:
            continue  # a multi-word token or an empty node: kept for writing, not tagged
        if kind < 0 or value != expect:
            return FALLBACK, 0, 0, 0
        ta, tb = field[col], field[col + 1] - 1
        for p in range(ta, tb):
            if not 0x21 <= data[p] <= 0x7E:  # printable ASCII, no space
                return FALLBACK, 0, 0, 0
        word[nt], nw = intern(data, field[1], field[2] - 1, wtable, wstart, wend, nw)
        tag[nt], ng = intern(data, ta, tb, ttable, tstart, tend, ng)
        if 2 * ng > ttable.shape[0]:  # the table must keep free slots for intern's probes
            return FALLBACK, 0, 0, 0
        token_line[nt] = lineno - first
        nt += 1
        expect += 1
    if in_block and nt > block_tok:
        sent_first[ns], sent_lines[ns], sent_tok[ns] = first, last - first + 1, block_tok
        ns += 1
    return nt, ns, nw, ng
