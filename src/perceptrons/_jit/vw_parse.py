"""Compiled parser of Vowpal Wabbit text lines into hashed CSR rows.

Input: ``buf[:end]``, a ``uint8`` buffer of complete lines (the last one may lack its ``\\n``
only at the end of the file).  One call parses them all; Python never sees a single line.

The format (VW's "Input format" wiki page), one example per line::

    label [importance] [tag]|namespace[:scale] feature[:value] feature ... |namespace2 ...

* Fields are separated by spaces or tabs; ``\r\n`` ends a line as ``\n`` does.  A carriage
  return not followed by ``\n`` (classic Mac line ends) is an error: read as a space, it
  would merge the lines into one example.
  A blank line (only such separators) is skipped: VW uses it to end a multiline example,
  which has no meaning here.  VW has no comment syntax, and neither has this parser.
* Everything before the first ``|`` is the label part.  Its last token is the tag — ignored,
  as VW only echoes it in predictions — when it touches the ``|`` (``1 ex7|f a``) or starts
  with a single quote (``1 'ex7 |f a``); that is VW's own rule, so ``1|f a`` has the tag ``1``
  and no label.  The tokens left are the label, an optional importance weight and an optional
  initial prediction: the label a finite number (binary tasks use -1/1 or 0/1, multiclass
  1..K; kept as float64), the importance a finite number ≥ 0 (1 when absent), the initial
  prediction a finite number, checked and not used (VW adds it to a regressor's output; a
  perceptron classifies by its own score).  A line without a label is VW's unlabeled example,
  to predict: its label is NaN when ``require_labels`` is False, else it is an error.
* Each ``|`` starts a namespace.  Its name runs from right after the ``|`` to the next space,
  tab, ``:`` or ``|``, so ``| f`` (a space after the bar) is the default namespace, whose name
  is empty, with the feature ``f``.  ``|name:scale`` multiplies every value of the namespace
  by ``scale`` (finite).
* A feature is ``name`` (value 1) or ``name:value`` (value finite, and finite after the
  namespace scale in float32).  The name runs to the first ``:``, space, tab or ``|`` and must
  not be empty (VW numbers empty names itself; we have no such counter).  Names are bytes,
  hashed as they are: no encoding is assumed.
* Numbers are decimal: ``[+-]digits[.digits][(e|E)[+-]digits]`` (``.5`` and ``5.`` too); no
  ``nan``, ``inf`` or hexadecimal.  They are converted correctly rounded (Clinger's exact fast
  path, else Eisel–Lemire with 128-bit powers of five, exact for up to 19 significant digits
  without a fallback — Mushtak & Lemire 2023); only inputs with more than 19 significant
  digits that fall next to a rounding boundary, or subnormal results, take an approximate
  path (within a few units in the last place of float64).

Hashing — our own convention, not bit-compatible with VW's hashes (VW hashes numeric names
as numbers and adds namespace hashes differently)::

    index = murmurhash3_32(name, seed=murmurhash3_32(namespace, seed=0)) & (2**bits - 1)

with MurmurHash3 x86 32-bit, unsigned, equal to ``sklearn.utils.murmurhash3_32(...,
positive=True)``; the default namespace hashes the empty string (seed 0).

Within a row, entries with the same index (a repeated feature or a hash collision) are summed,
in the order they appear, in float64 and then stored as float32; indices are sorted ascending,
so each row is canonical CSR.  An entry whose float32 value is 0 is not stored (VW skips
zero-valued features too).

Errors stop the parse: ``err = (code, line, start, stop)`` with the line counted from 0 within
the buffer and ``buf[start:stop]`` the offending token; codes are the ``E_*`` constants.

Speed: the per-row work (features, sort, merge) is one loop in :func:`parse_lines` rather than
helper calls, deliberately.  Every array handed to a compiled call has its reference count
raised and lowered (two atomic instructions), and at some twenty arrays per row that cost more
than the sorting.  Helpers that run per row take scalars only, or one array.
"""

import math

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit.murmur import murmur_finish, murmur_round

# exact float arithmetic throughout: fastmath's reciprocal and re-association would break the
# correctly rounded number conversion and the in-order sums
_JIT = NJIT_STRICT

E_NUL = 1  # a NUL byte
E_NO_BAR = 2  # a line without '|'
E_NO_LABEL = 3  # nothing but (maybe) a tag before '|'
E_LABEL = 4  # label not a finite number
E_IMPORTANCE = 5  # importance not a finite number >= 0
E_EXTRA = 6  # a fourth token before '|' that is not a tag
E_SCALE = 7  # namespace scale not a finite number
E_VALUE = 8  # feature value not a number
E_RANGE = 9  # feature value (times the scale) not finite in float32
E_NO_NAME = 10  # ':value' without a name
E_SUM = 11  # duplicate entries summing beyond float32
E_INITIAL = 12  # a third token before '|', neither a tag nor a finite number
E_CR = 13  # a carriage return not followed by a line feed: classic Mac line ends, lines merged

#: |x| below this rounds to a finite float32 (2**128 - 2**103 is the halfway point to infinity)
_F32_LIMIT = float(2**128 - 2**103)
_M32 = np.uint64(0xFFFFFFFF)
_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_POW10 = np.array([10.0**k for k in range(23)])  # exactly representable powers


# byte classes: everything else is part of a token
_SPACE, _COLON, _BAR, _EOL, _NUL = 1, 2, 3, 4, 5
_CLASS = np.zeros(256, np.uint8)
for _c, _k in ((" ", _SPACE), ("\t", _SPACE), ("\r", _SPACE), (":", _COLON), ("|", _BAR), ("\n", _EOL), ("\0", _NUL)):
    _CLASS[ord(_c)] = _k
#: where a name ends (also a namespace name), and where a number or a label token ends
_NAME_END = _CLASS != 0
_VALUE_END = (_CLASS != 0) & (_CLASS != _COLON)


def _powers_of_five():
    """(651, 2) uint64: high and low words of 5**q normalised to 128 bits, q = -342 .. 308, as
    fast_float tabulates them (truncated for q >= 0, rounded up for q < 0).
    """
    rows = []
    for q in range(-342, 0):
        p = 5**-q
        z = p.bit_length()
        b = z + 127 if q >= -27 else 2 * z + 128
        c = 2**b // p + 1
        while c >= 1 << 128:
            c //= 2
        rows.append(c)
    for q in range(0, 309):
        p = 5**q
        while p < 1 << 127:
            p *= 2
        while p >= 1 << 128:
            p //= 2
        rows.append(p)
    return np.array([(c >> 64, c & ((1 << 64) - 1)) for c in rows], dtype=np.uint64)


_POW5 = _powers_of_five()


# ----------------------------------------------------------------------------- numbers
@njit(**_JIT)
def _clz64(x):
    n = 0
    for s in (32, 16, 8, 4, 2, 1):
        if x >> np.uint64(64 - s) == np.uint64(0):
            n += s
            x = x << np.uint64(s)
    return n


@njit(**_JIT)
def _mul128(a, b):
    """(low, high) words of the 128-bit product of two uint64, from 32-bit halves (no wrap)."""
    a_lo, a_hi = a & _M32, a >> np.uint64(32)
    b_lo, b_hi = b & _M32, b >> np.uint64(32)
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    mid = (p0 >> np.uint64(32)) + (p1 & _M32) + (p2 & _M32)
    lo = (p0 & _M32) | ((mid & _M32) << np.uint64(32))
    hi = p3 + (p1 >> np.uint64(32)) + (p2 >> np.uint64(32)) + (mid >> np.uint64(32))
    return lo, hi


@njit(**_JIT)
def _lemire(w, q):
    """(exact, value) of w·10**q for 0 < w < 2**64 (Eisel–Lemire); not exact for a subnormal."""
    if q < -342:
        return True, 0.0
    if q > 308:
        return True, np.inf
    lz = _clz64(w)
    w = w << np.uint64(lz)
    lo, hi = _mul128(w, _POW5[q + 342, 0])
    if hi & np.uint64(0x1FF) == np.uint64(0x1FF):
        # the 64 high bits of 5**q left the result undecided: add the next 64
        _, hi2 = _mul128(w, _POW5[q + 342, 1])
        if hi2 > _M64 - lo:
            lo = hi2 - (_M64 - lo) - np.uint64(1)
            hi += np.uint64(1)
        else:
            lo += hi2
    upper = int(hi >> np.uint64(63))
    shift = np.uint64(upper + 9)
    mant = hi >> shift
    power2 = (((152170 + 65536) * q) >> 16) + 63 + upper - lz + 1023
    if power2 <= 0:
        return False, 0.0
    # exactly halfway between two doubles: round to even instead of up
    if lo <= np.uint64(1) and -4 <= q <= 23 and mant & np.uint64(3) == np.uint64(1):
        if (mant << shift) == hi:
            mant &= ~np.uint64(1)
    mant = (mant + (mant & np.uint64(1))) >> np.uint64(1)
    if mant >= np.uint64(1 << 53):
        mant = np.uint64(1 << 52)
        power2 += 1
    if power2 >= 2047:
        return True, np.inf
    return True, math.ldexp(float(mant), int(power2 - 1075))


@njit(**_JIT)
def _approx(w, q):
    """w·10**q within a few units in the last place, for -342 <= q <= 308 (what reaches it)."""
    v = float(w)
    if q < -300:  # 10.0**q alone would be subnormal or zero
        return v * 1e-300 * 10.0 ** (q + 300)
    return v * 10.0**q


@njit(**_JIT)
def _decimal(w, q, truncated):
    """w·10**q correctly rounded (see the module docstring for the one approximate case)."""
    if not truncated and w <= np.uint64(1 << 53) and -22 <= q <= 22:
        # Clinger: both operands exact, so one rounding
        return float(w) * _POW10[q] if q >= 0 else float(w) / _POW10[-q]
    ok, v = _lemire(w, q)
    if truncated:
        # the digits dropped put the value between w and w + 1 units: both must round alike
        ok2, v2 = _lemire(w + np.uint64(1), q)
        if ok and ok2 and v == v2:
            return v
        return _approx(w, q)
    return v if ok else _approx(w, q)


@njit(**_JIT)
def parse_number(buf, s, e):
    """(ok, value) of the decimal number ``buf[s:e]`` (the whole slice, nothing else)."""
    i = s
    neg = False
    if i < e and (buf[i] == 45 or buf[i] == 43):  # '-' '+'
        neg = buf[i] == 45
        i += 1
    w = np.uint64(0)
    kept = 0  # significant digits in w (at most 19: w < 10**19 < 2**64)
    shift = 0  # decimal exponent of w's last digit
    digits = 0
    truncated = False
    while i < e and 48 <= buf[i] <= 57:
        d = np.uint64(buf[i] - 48)
        digits += 1
        if kept < 19:
            if w != np.uint64(0) or d != np.uint64(0):
                w = w * np.uint64(10) + d
                kept += 1
        else:
            shift += 1
            truncated = truncated or d != np.uint64(0)
        i += 1
    if i < e and buf[i] == 46:  # '.'
        i += 1
        while i < e and 48 <= buf[i] <= 57:
            d = np.uint64(buf[i] - 48)
            digits += 1
            if kept < 19:
                if w != np.uint64(0) or d != np.uint64(0):
                    w = w * np.uint64(10) + d
                    kept += 1
                shift -= 1
            else:
                truncated = truncated or d != np.uint64(0)
            i += 1
    if digits == 0:
        return False, 0.0
    if i < e and (buf[i] == 101 or buf[i] == 69):  # 'e' 'E'
        i += 1
        eneg = False
        if i < e and (buf[i] == 45 or buf[i] == 43):
            eneg = buf[i] == 45
            i += 1
        exp = 0
        edigits = 0
        while i < e and 48 <= buf[i] <= 57:
            if exp < 100000:  # beyond any float's range already; stops overflow
                exp = exp * 10 + np.int64(buf[i] - 48)
            edigits += 1
            i += 1
        if edigits == 0:
            return False, 0.0
        shift += -exp if eneg else exp
    if i != e:
        return False, 0.0
    v = 0.0 if w == np.uint64(0) else _decimal(w, shift, truncated)
    return True, -v if neg else v


# ----------------------------------------------------------------------------- lines
@njit(**_JIT)
def _bare_cr(buf, q, end):
    """Whether ``buf[q]`` is a carriage return that does not end a line: another byte than
    ``\n`` or ``\r`` follows it (so ``\r\r\n`` ends a line, and the last CR of a run is judged)."""
    return buf[q] == 13 and q + 1 < end and buf[q + 1] != 10 and buf[q + 1] != 13


@njit(**_JIT)
def _label_part(buf, p, end, require_label):
    """Label and importance from the tokens from ``buf[p]`` to the first ``|``.

    Returns ``(bar, label, importance, code, start, stop)``: the position of the ``|``, and on
    an error its code and the offending token ``buf[start:stop]``.  Without a label (and
    ``require_label`` False) the label is NaN and the importance 1.
    """
    k = 0
    a_s = a_e = b_s = b_e = c_s = c_e = d_s = d_e = last_s = last_e = p
    q = p
    while True:
        while q < end and _CLASS[buf[q]] == _SPACE:
            if _bare_cr(buf, q, end):
                return q, 0.0, 0.0, E_CR, q, q + 1
            q += 1
        c = _CLASS[buf[q]] if q < end else _EOL
        if c == _BAR:
            break
        if c == _EOL:
            return q, 0.0, 0.0, E_NO_BAR, a_s, a_e
        if c == _NUL:
            return q, 0.0, 0.0, E_NUL, q, q + 1
        ts = q
        while q < end and not _VALUE_END[buf[q]]:
            q += 1
        if k == 0:
            a_s, a_e = ts, q
        elif k == 1:
            b_s, b_e = ts, q
        elif k == 2:
            c_s, c_e = ts, q
        elif k == 3:
            d_s, d_e = ts, q
        last_s, last_e = ts, q
        k += 1
    if k > 0 and (last_e == q or buf[last_s] == 39):  # the tag: touches '|' or starts with "'"
        k -= 1
    if k == 0:
        if require_label:
            return q, 0.0, 0.0, E_NO_LABEL, p, q + 1
        return q, math.nan, 1.0, 0, 0, 0
    if k > 3:
        return q, 0.0, 0.0, E_EXTRA, d_s, d_e
    ok, label = parse_number(buf, a_s, a_e)
    if not ok or not math.isfinite(label):
        return q, 0.0, 0.0, E_LABEL, a_s, a_e
    importance = 1.0
    if k >= 2:
        ok, importance = parse_number(buf, b_s, b_e)
        if not ok or not math.isfinite(importance) or importance < 0:
            return q, 0.0, 0.0, E_IMPORTANCE, b_s, b_e
    if k == 3:  # the initial prediction: checked, then unused
        ok, initial = parse_number(buf, c_s, c_e)
        if not ok or not math.isfinite(initial):
            return q, 0.0, 0.0, E_INITIAL, c_s, c_e
    return q, label, importance, 0, 0, 0


@njit(**_JIT)
def _doubled(a):
    out = np.empty(2 * a.shape[0], a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(**_JIT)
def _bounds(buf, end):
    """(rows, entries) a parse of ``buf[:end]`` can produce at most: a row per line, and an
    entry per separator (each feature follows a space, tab, CR or '|').  Sizing the outputs
    exactly once matters: growing and trimming copies cost more than parsing (page faults).
    """
    lines = 1
    seps = 0
    for i in range(end):  # branch-free, so LLVM vectorises it
        c = buf[i]
        lines += c == 10
        seps += (c == 32) | (c == 9) | (c == 13) | (c == 124)
    return lines, seps


@njit(**_JIT)
def _trim(a, n):
    # a view when little is wasted: a copy would fault in as many fresh pages again
    return a[:n] if 4 * n >= 3 * a.shape[0] else a[:n].copy()


@njit(**_JIT)
def _failed(err, code, line, start, stop, indptr, indices, data, y, wt):
    err[0], err[1], err[2], err[3] = code, line, start, stop
    return indptr[:1], indices[:0], data[:0], y[:0], wt[:0], False, False, -1, line, err


@njit(**dict(_JIT, inline="always"))
def _hash_name(buf, q, end, seed):
    """MurmurHash3 of the name starting at ``buf[q]`` (up to the first byte that ends a name),
    hashed while it is scanned; returns (hash, the position after the name)."""
    s = q
    h = seed
    k = np.uint64(0)
    shift = np.uint64(0)
    while q < end and not _NAME_END[buf[q]]:
        k |= np.uint64(buf[q]) << shift
        shift += np.uint64(8)
        if shift == np.uint64(32):
            h, k, shift = murmur_round(h, k), np.uint64(0), np.uint64(0)
        q += 1
    return murmur_finish(h, k, q - s), q


@njit(**_JIT)
def parse_lines(buf, end, bits, require_labels):
    """Parse the lines of ``buf[:end]`` (see the module docstring).

    Returns ``(indptr, indices, data, y, weight, ones, unit, first, lines, err)``: the CSR rows
    (indptr int64 from 0, indices int32, data float32), labels and importances (float64),
    whether every value is 1 and every importance 1, the 0-based line of the first row (-1 if
    none), the lines consumed, and ``err = (code, line, start, stop)`` (code 0: no error).
    """
    mask = (1 << bits) - 1
    err = np.zeros(4, np.int64)
    max_rows, max_nnz = _bounds(buf, end)
    indptr = np.empty(max_rows + 1, np.int64)
    y = np.empty(max_rows, np.float64)
    wt = np.empty(max_rows, np.float64)
    indices = np.empty(max_nnz, np.int32)
    data = np.empty(max_nnz, np.float32)
    # one row's entries: keys = index << 32 | position (the position keeps sums in file order)
    keys = np.empty(256, np.int64)
    vals = np.empty(256, np.float64)
    tmp = np.empty(256, np.int64)
    counts = np.empty(4 * 256, np.int64)
    indptr[0] = 0
    n = nnz = 0
    ones = unit = True
    first = -1
    line = 0
    i = 0
    while i < end:
        p = i
        while p < end and _CLASS[buf[p]] == _SPACE:
            if _bare_cr(buf, p, end):
                return _failed(err, E_CR, line, p, p + 1, indptr, indices, data, y, wt)
            p += 1
        if p == end or buf[p] == 10:  # a blank line
            line += 1
            i = p + 1
            continue
        q, label, importance, code, start, stop = _label_part(buf, p, end, require_labels)
        if code:
            return _failed(err, code, line, start, stop, indptr, indices, data, y, wt)
        y[n] = label
        wt[n] = importance
        unit &= importance == 1.0

        # ---- namespaces and features: hashed while scanned, one pass over the bytes
        m = 0
        while q < end and buf[q] == 124 and m < keys.shape[0]:  # '|': a namespace
            ns_s = q + 1
            seed, q = _hash_name(buf, ns_s, end, np.uint64(0))
            seed = np.uint64(seed)
            scale = 1.0
            if q < end and buf[q] == 58:  # ':'
                vs = q + 1
                q = vs
                while q < end and not _VALUE_END[buf[q]]:
                    q += 1
                ok, scale = parse_number(buf, vs, q)
                if not ok or not math.isfinite(scale):
                    return _failed(err, E_SCALE, line, ns_s, q, indptr, indices, data, y, wt)
            while q < end:
                c = _CLASS[buf[q]]
                if c == _SPACE:
                    if _bare_cr(buf, q, end):
                        return _failed(err, E_CR, line, q, q + 1, indptr, indices, data, y, wt)
                    q += 1
                    continue
                if c == _BAR or c == _EOL:
                    break
                if c == _NUL:
                    return _failed(err, E_NUL, line, q, q + 1, indptr, indices, data, y, wt)
                fs = q
                name_hash, q = _hash_name(buf, fs, end, seed)
                fe = q
                v = 1.0
                if q < end and buf[q] == 58:
                    q += 1
                    vs = q
                    # the usual value, [-]digits[.digits] with at most 15 digits, is read here:
                    # exact (both operands of the division are), and no call
                    neg = q < end and buf[q] == 45
                    q += neg
                    w = 0
                    digits = 0
                    point = -1
                    simple = True
                    while q < end and not _VALUE_END[buf[q]]:
                        d = np.int64(buf[q]) - 48
                        if 0 <= d <= 9:
                            if digits < 15:
                                w = w * 10 + d
                            digits += 1
                        elif d == -2 and point < 0:  # '.'
                            point = digits
                        else:
                            simple = False
                        q += 1
                    if simple and 0 < digits <= 15:
                        v = float(w) / _POW10[digits - point] if point >= 0 else float(w)
                        v = -v if neg else v
                    else:
                        ok, v = parse_number(buf, vs, q)
                        if not ok:
                            return _failed(err, E_VALUE, line, fs, q, indptr, indices, data, y, wt)
                if fe == fs:
                    return _failed(err, E_NO_NAME, line, fs, q, indptr, indices, data, y, wt)
                v *= scale
                if not abs(v) < _F32_LIMIT:  # also NaN
                    return _failed(err, E_RANGE, line, fs, q, indptr, indices, data, y, wt)
                if v != 0.0:
                    if m == keys.shape[0]:
                        break  # out of room: grown below, and the line parsed again
                    index = name_hash & mask
                    keys[m] = (index << 32) | m
                    vals[m] = v
                    m += 1

        if m == keys.shape[0]:
            # no array is reassigned inside the loops above: that would cost reference-count
            # updates there, per feature
            keys, vals = _doubled(keys), _doubled(vals)
            tmp, counts = np.empty(keys.shape[0], np.int64), np.empty(4 * keys.shape[0], np.int64)
            i = p  # the line again, with twice the room
            continue

        # ---- sort the row's keys.  Hashed indices are uniform, so one bucket pass on their top
        # bits leaves at most a key or two per bucket, and the insertion sort after it has almost
        # nothing to move: linear time, where a comparison sort of a 40-feature row costs three
        # times as much in mispredicted branches.
        src = keys
        if m > 16:
            lb = 1
            while (1 << lb) < 2 * m and lb < bits:  # two buckets a key: few share one
                lb += 1
            nb = 1 << lb
            top = bits - lb + 32
            counts[:nb] = 0
            for j in range(m):
                counts[keys[j] >> top] += 1
            total = 0
            for b in range(nb):  # exclusive prefix sums
                total, counts[b] = total + counts[b], total
            for j in range(m):
                b = keys[j] >> top
                tmp[counts[b]] = keys[j]
                counts[b] += 1
            src = tmp
        for j in range(1, m):
            key = src[j]
            t = j - 1
            while t >= 0 and src[t] > key:
                src[t + 1] = src[t]
                t -= 1
            src[t + 1] = key

        # ---- merge equal indices, summed in file order, into the CSR arrays
        j = 0
        while j < m:
            index = src[j] >> 32
            total_v = vals[src[j] & 0xFFFFFFFF]
            j += 1
            while j < m and src[j] >> 32 == index:
                total_v += vals[src[j] & 0xFFFFFFFF]
                j += 1
            if not abs(total_v) < _F32_LIMIT:
                return _failed(err, E_SUM, line, p, q, indptr, indices, data, y, wt)
            f = np.float32(total_v)
            if f != 0:
                indices[nnz] = index
                data[nnz] = f
                ones &= f == 1
                nnz += 1
        if first < 0:
            first = line
        n += 1
        indptr[n] = nnz
        line += 1
        i = q + 1
    return (
        _trim(indptr, n + 1),
        _trim(indices, nnz),
        _trim(data, nnz),
        _trim(y, n),
        _trim(wt, n),
        ones,
        unit,
        first,
        line,
        err,
    )
