"""LIBSVM/SVMlight text in a ``uint8`` buffer parsed to CSR arrays, with no Python per line.

The buffer holds complete lines only (the caller carries a partial last line into its next
chunk); the last line may lack its newline at the end of a file.  Per data row the parser writes
the label (float64) and the end of the row in ``indptr``; per feature a 0-based int32 index and a
float32 value.  Blank lines and ``#`` comments are skipped, ``qid:N`` right after the label is
skipped, ``\\r\\n`` line ends are accepted (``\\r`` is whitespace), and a UTF-8 BOM is skipped
when the caller says the buffer starts the file.

The first bad token stops the parse: ``info`` then holds an error code, its line (1-based,
relative to the buffer) and the byte offset of the token (relative to the buffer), so that
Python, which alone composes messages, can quote the token and name the line.

Numbers are read by :func:`_scan_number` (syntax, decimal mantissa and exponent) and
:func:`_to_float` (value):

* fast path, exact: a mantissa of at most 2^53 (every decimal of ≤ 15 significant digits, and
  those of 16-18 digits up to 9007199254740992 or with trailing zeros) times or divided by
  10^k, |k| ≤ 22 (and up to 10^37 when ``m · 10^(k-22)`` stays ≤ 2^53): both operands are
  exact doubles, so the one IEEE operation is correctly rounded (Clinger 1990), equal to
  Python's ``float(text)``;
* otherwise: the first 18 significant digits (an int64) times a double-double power of ten
  (≈ 106 bits, from a table built exactly with Python integers), then one rounding to double and
  a scaling by a power of two.  The truncated digits weigh < 10^-17 relative and the
  double-double product ≈ 2^-104, so the result is within 1 ulp of the correctly rounded value.
  In practice it is that value except for more than 18 significant digits within ~0.1 ulp of a
  half-way point, or a decimal within ~2^-100 of one (a subnormal result is rounded once, from
  the double-double, at its own precision).

Feature values, mostly short plain decimals (``1``, ``0.372``), are first read inline by the
parser: up to 15 digits with an optional point, ``m / 10^k`` is Clinger's fast path.

The functions use ``NJIT_STRICT``: ``fastmath``'s ``arcp`` would turn ``m / 10^k`` into
``m * (1 / 10^k)`` (not correctly rounded), and ``contract``/``reassoc`` would break the
error-free products the double-double path relies on.
"""

import math

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT

# ---------------------------------------------------------------- error codes (info[STATUS])
OK = 0
LABEL_BAD = 1  # the label is not a number
LABEL_NONFINITE = 2  # the label is nan/inf or overflows float64
TOKEN_BAD = 3  # a feature token is not 'index:value'
QID_BAD = 4  # 'qid:' not followed by an integer
INDEX_ZERO = 5  # index 0 (LIBSVM indices start at 1)
INDEX_TOO_LARGE = 6  # index > 2^31 - 1
INDEX_ORDER = 7  # index <= the previous one (info[ERR_A] = index, info[ERR_B] = previous)
INDEX_BEYOND = 8  # index > n_features (info[ERR_A] = index)
VALUE_NONFINITE = 9  # value nan/inf or overflowing float64 (info[ERR_A] = index)
VALUE_FLOAT32 = 10  # value finite in float64 but beyond float32's range (info[ERR_A] = index)

# ---------------------------------------------------------------- slots of the info array
STATUS = 0
ROWS = 1  # data rows written
NNZ = 2  # features written
NEWLINES = 3  # newlines consumed (the line count of the buffer, but for an unterminated last line)
ERR_LINE = 4
ERR_BYTE = 5
ERR_A = 6
ERR_B = 7
FIRST_LINE = 8  # line of the first data row (0 when there is none)
INEXACT_LABELS = 9  # labels that are not integers within ±2^53 (so their text matters)
ALL_ONES = 10  # 1 when every value written is exactly 1.0
TEXT = 11  # bytes of label text written to ``text``
MAX_SEEN = 12  # the width the indices written need (the largest 1-based index), 0 if none
INFO_SIZE = 13

MAX_INDEX = 2**31 - 1
_TWO53 = 2**53
_MAX_DIGITS = 18  # significant digits kept in an int64 mantissa (10^18 < 2^63)
_DOUBLE_MIN = 2.2250738585072014e-308  # the smallest normal double

_EXACT10 = np.array([10.0**k for k in range(23)])  # 10^0 .. 10^22: exact doubles
_INT10 = np.array([10**k for k in range(19)], dtype=np.int64)

# "nan", "inf", "infinity": spelled so that lower-casing (c | 0x20) compares
_NAN = np.frombuffer(b"nan", dtype=np.uint8)
_INF = np.frombuffer(b"inf", dtype=np.uint8)
_INFINITY = np.frombuffer(b"infinity", dtype=np.uint8)
_QID = np.frombuffer(b"qid:", dtype=np.uint8)


def _power_table(lo, hi):
    """10^k = (HI[k] + LO[k]) · 2^E[k] with HI in [1, 2), to ~2^-106, for k = lo .. hi.

    Built from exact integers: a 110-bit truncated mantissa, split into 53 high bits and the rest.
    """
    his, los, exps = [], [], []
    for k in range(lo, hi + 1):
        num, den = (10**k, 1) if k >= 0 else (1, 10**-k)
        e = num.bit_length() - den.bit_length()
        if (num << max(0, -e)) < (den << max(0, e)):  # make num / den >= 2^e
            e -= 1
        s = 109 - e
        mant = (num << s) // den if s >= 0 else num // (den << -s)  # in [2^109, 2^110)
        top = mant >> 57
        his.append(math.ldexp(float(top), -52))
        los.append(math.ldexp(float(mant - (top << 57)), -109))
        exps.append(e)
    return np.array(his), np.array(los), np.array(exps, dtype=np.int64)


_K_MIN = -350  # 10^-350 · (a mantissa < 10^18) is below half the smallest subnormal
_K_MAX = 310
_P_HI, _P_LO, _P_EXP = _power_table(_K_MIN, _K_MAX)


@njit(**NJIT_STRICT)
def _ends_token(buf, pos, n):
    """Whether a token ends at ``pos``: end of buffer, whitespace, newline or a comment."""
    if pos >= n:
        return True
    c = buf[pos]
    return c == 32 or (c >= 9 and c <= 13) or c == 35


@njit(**NJIT_STRICT)
def _word(buf, pos, n, word):
    """Whether ``word`` (lower case) is at ``pos``, in any case, followed by the token's end."""
    k = word.shape[0]
    if pos + k > n:
        return False
    for j in range(k):
        if (buf[pos + j] | 32) != word[j]:
            return False
    return _ends_token(buf, pos + k, n)


@njit(**NJIT_STRICT)
def _scan_number(buf, pos, n):
    """Read a decimal number as Python's ``float`` spells a finite one.

    Returns ``(status, end, negative, m, e10, inexact)``: the value is ``±m · 10^e10`` with ``m``
    the first 18 significant digits, ``inexact`` set when a later digit was non-zero.  status 0:
    a number (``end`` just after it; the caller checks what follows); 1: not a number; 2: nan or
    inf spelled out.
    """
    negative = False
    if pos < n and (buf[pos] == 43 or buf[pos] == 45):  # + -
        negative = buf[pos] == 45
        pos += 1
    m = np.int64(0)
    nd = 0
    e10 = np.int64(0)
    inexact = False
    digits = 0
    while pos < n:
        d = np.int64(buf[pos]) - 48
        if d < 0 or d > 9:
            break
        digits += 1
        if nd < _MAX_DIGITS:
            if m != 0 or d != 0:  # leading zeros are not significant
                m = m * 10 + d
                nd += 1
        else:
            e10 += 1
            if d != 0:
                inexact = True
        pos += 1
    if pos < n and buf[pos] == 46:  # .
        pos += 1
        while pos < n:
            d = np.int64(buf[pos]) - 48
            if d < 0 or d > 9:
                break
            digits += 1
            if nd < _MAX_DIGITS:
                if m != 0 or d != 0:
                    m = m * 10 + d
                    nd += 1
                e10 -= 1
            elif d != 0:
                inexact = True
            pos += 1
    if digits == 0:
        if _word(buf, pos, n, _NAN) or _word(buf, pos, n, _INF):
            return 2, pos + 3, negative, m, e10, inexact
        if _word(buf, pos, n, _INFINITY):
            return 2, pos + 8, negative, m, e10, inexact
        return 1, pos, negative, m, e10, inexact
    if pos < n and (buf[pos] | 32) == 101:  # e E
        pos += 1
        exp_negative = False
        if pos < n and (buf[pos] == 43 or buf[pos] == 45):
            exp_negative = buf[pos] == 45
            pos += 1
        exp = np.int64(0)
        exp_digits = 0
        while pos < n:
            d = np.int64(buf[pos]) - 48
            if d < 0 or d > 9:
                break
            if exp < 100_000:  # saturate: beyond this any mantissa over- or underflows
                exp = exp * 10 + d
            exp_digits += 1
            pos += 1
        if exp_digits == 0:
            return 1, pos, negative, m, e10, inexact
        e10 += -exp if exp_negative else exp
    return 0, pos, negative, m, e10, inexact


@njit(**NJIT_STRICT)
def _split(a):
    """Veltkamp's split of a double into two 26-bit halves (exact)."""
    t = 134217729.0 * a  # 2^27 + 1
    hi = t - (t - a)
    return hi, a - hi


@njit(**NJIT_STRICT)
def _product_error(a, b, p):
    """The rounding error of ``p = a * b`` (Dekker's two-product; exact without FMA)."""
    ah, al = _split(a)
    bh, bl = _split(b)
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl


@njit(**NJIT_STRICT)
def _slow_float(m, e10):
    """``m · 10^e10`` within 1 ulp, for any exponent (see the module docstring)."""
    nd = 1
    while nd < 19 and m >= _INT10[nd]:
        nd += 1
    if e10 + nd > 310:  # > 10^309: overflows
        return math.inf
    if e10 + nd < -330:  # < 10^-330: below half the smallest subnormal
        return 0.0
    k = e10 - _K_MIN
    ph = _P_HI[k]
    pl = _P_LO[k]
    mh = float(m)
    ml = float(m - np.int64(mh))  # exact: |m - mh| < 2^7 since m < 2^60
    p = mh * ph
    err = _product_error(mh, ph, p) + (mh * pl + ml * ph)
    e2 = int(_P_EXP[k])  # int(): math.ldexp takes no numpy integer without the JIT
    if math.frexp(p + err)[1] + e2 > 1024:  # overflows (which math.ldexp raises without the JIT)
        return math.inf
    v = math.ldexp(p + err, e2)
    if abs(v) > _DOUBLE_MIN:
        return v
    # subnormal (or the smallest normal, which a 53-bit rounding may have reached from below):
    # round the double-double itself at 2^-1074 rather than round twice
    s = e2 + 1074
    hp = math.ldexp(p, s)  # exact: a normal number scaled by a power of two
    he = math.ldexp(err, s)
    whole = math.floor(hp)
    half = ((hp - whole) - 0.5) + he  # hp - whole and, near one half, its - 0.5 are exact
    if half > 0.0 or (half == 0.0 and whole % 2.0 == 1.0):
        whole += 1.0
    return math.ldexp(whole, -1074)


@njit(**NJIT_STRICT)
def _to_float(negative, m, e10, inexact):
    """The double nearest ``±m · 10^e10``: exact on Clinger's fast path, else within 1 ulp."""
    if m == 0:
        return -0.0 if negative else 0.0
    if not inexact and m > _TWO53:
        while m % 10 == 0:  # 1000000000000000000 is 1e18: small enough once its zeros go
            m //= 10
            e10 += 1
    v = 0.0
    if not inexact and m <= _TWO53:
        if e10 >= 0 and e10 <= 22:
            v = float(m) * _EXACT10[e10]
        elif e10 < 0 and e10 >= -22:
            v = float(m) / _EXACT10[-e10]
        elif e10 > 22 and e10 <= 22 + 15 and m <= _TWO53 // _INT10[e10 - 22]:
            v = float(m * _INT10[e10 - 22]) * 1e22  # still one exact operand times 10^22
        else:
            v = _slow_float(m, e10)
    else:
        v = _slow_float(m, e10)
    return -v if negative else v


@njit(**NJIT_STRICT)
def _integral(m, e10, inexact):
    """Whether ``m · 10^e10`` is an integer of at most 2^53 (so its double is exact and its text
    names the same class as any other spelling of that integer)."""
    if m == 0:
        return True
    if inexact:
        return False  # more than 18 significant digits: beyond 2^53 or not whole
    if e10 >= 0:
        return e10 <= 15 and m <= _TWO53 // _INT10[e10]
    return -e10 <= 18 and m % _INT10[-e10] == 0 and m // _INT10[-e10] <= _TWO53


@njit(**NJIT_STRICT)
def _value(buf, pos, n):
    """A value that is not a short plain decimal: ``(status, end, value)``, status 0 (a finite
    number), 1 (not a number, or not followed by the token's end) or 2 (nan, inf, overflow)."""
    status, pos, negative, m, e10, inexact = _scan_number(buf, pos, n)
    if status == 1 or not _ends_token(buf, pos, n):
        return 1, pos, 0.0
    if status == 2:
        return 2, pos, math.nan
    v = _to_float(negative, m, e10, inexact)
    return (0 if math.isfinite(v) else 2), pos, v


@njit(**NJIT_STRICT)
def _label(buf, pos, n):
    """The label at ``pos``: ``(status, end, value, integral)``, status as :func:`_value`'s."""
    status, pos, negative, m, e10, inexact = _scan_number(buf, pos, n)
    if status == 1 or not _ends_token(buf, pos, n):
        return 1, pos, 0.0, False
    if status == 2:
        return 2, pos, math.nan, False
    v = _to_float(negative, m, e10, inexact)
    return (0 if math.isfinite(v) else 2), pos, v, _integral(m, e10, inexact)


@njit(**dict(NJIT_STRICT, inline="always"))  # its literal codes would each compile it again
def _fail(info, code, line, at, a, b, rows, nnz, newlines):
    info[STATUS] = code
    info[ERR_LINE] = line
    info[ERR_BYTE] = at
    info[ERR_A] = a
    info[ERR_B] = b
    info[ROWS] = rows
    info[NNZ] = nnz
    info[NEWLINES] = newlines


@njit(**NJIT_STRICT)
def _skip_line(buf, pos, n):
    """The position of the next newline (or ``n``)."""
    while pos < n and buf[pos] != 10:
        pos += 1
    return pos


@njit(**NJIT_STRICT)
def _skip_qid(buf, pos, n):
    """After ``qid:`` at ``pos``: the end of its integer, or -1 when it is not one."""
    p = pos + 4
    start = p
    while p < n and buf[p] >= 48 and buf[p] <= 57:
        p += 1
    if p == start or not _ends_token(buf, p, n):
        return -1
    return p


@njit(**NJIT_STRICT)
def _is_qid(buf, pos, n):
    if pos + 4 > n:
        return False
    for j in range(4):
        if buf[pos + j] != _QID[j]:
            return False
    return True


@njit(**NJIT_STRICT)
def parse_libsvm(buf, n, at_file_start, indexing, y, indptr, indices, values, text, row0, nnz0, info):
    """Parse ``buf[:n]`` into the outputs from row ``row0`` and feature ``nnz0`` on.

    Writes ``y[row0 + r]``, ``indptr[row0 + r + 1]`` (absolute: ``nnz0`` + the features so far),
    ``indices`` and ``values`` from ``nnz0``.  The caller sizes them from :func:`count_bounds`
    (rows ≤ newlines + 1, features ≤ colons).  ``indexing = (n_features, base)``: the width
    allowed (< 0: no limit) and the first index, 1 (LIBSVM's) or 0 (a file written 0-based),
    stored as column 0.  When ``text`` is
    not empty, each row's label text is appended to it followed by a newline (``text`` needs
    ``n + 1`` bytes).  Results and errors go to ``info`` (see the slot names above).

    The per-feature path is written out here rather than in helpers: a numba call that passes
    an array costs reference counting, several times the parse of a short token.  Past the end
    of the buffer ``c`` reads as a newline.
    """
    n_features, base = indexing
    pos = 0
    if at_file_start and n >= 3 and buf[0] == 0xEF and buf[1] == 0xBB and buf[2] == 0xBF:
        pos = 3
    want_text = text.shape[0] > 0
    line = 1
    r = row0
    k = nnz0
    t = 0
    first_line = 0
    inexact_labels = 0
    ones = True
    max_seen = np.int64(0)
    while pos < n:
        c = np.int64(buf[pos])
        if c == 32 or c == 9 or (c >= 11 and c <= 13):
            pos += 1
            continue
        if c == 10:
            line += 1
            pos += 1
            continue
        if c == 35:  # a comment line
            pos = _skip_line(buf, pos, n)
            continue
        # ------------------------------------------------ the label
        start = pos
        status, pos, label, integral = _label(buf, pos, n)
        if status != 0:
            _fail(info, LABEL_BAD if status == 1 else LABEL_NONFINITE, line, start, 0, 0, r - row0, k - nnz0, line - 1)
            return
        y[r] = label
        if not integral:
            inexact_labels += 1
        if want_text:
            for j in range(start, pos):
                text[t] = buf[j]
                t += 1
            text[t] = 10
            t += 1
        if first_line == 0:
            first_line = line
        # ------------------------------------------------ the features
        prev = np.int64(base - 1)
        first = True
        while True:
            c = np.int64(buf[pos]) if pos < n else np.int64(10)
            while c == 32 or c == 9 or (c >= 11 and c <= 13):
                pos += 1
                c = np.int64(buf[pos]) if pos < n else np.int64(10)
            if c == 10 or c == 35:
                break
            start = pos
            if first and c == 113 and _is_qid(buf, pos, n):  # q
                first = False
                pos = _skip_qid(buf, pos, n)
                if pos < 0:
                    _fail(info, QID_BAD, line, start, 0, 0, r - row0, k - nnz0, line - 1)
                    return
                continue
            first = False
            index = np.int64(0)
            while c >= 48 and c <= 57:
                if index <= MAX_INDEX:  # saturate: anything above is refused below
                    index = index * 10 + (c - 48)
                pos += 1
                c = np.int64(buf[pos]) if pos < n else np.int64(10)
            status = 1
            v = 0.0
            if pos > start and c == 58:  # :
                pos += 1
                value_start = pos
                # most values are short plain decimals (1, 0.372): m / 10^scale is exact
                m = np.int64(0)
                digits = 0
                scale = 0
                c = np.int64(buf[pos]) if pos < n else np.int64(10)
                while c >= 48 and c <= 57:
                    if digits < 16:  # beyond 15 digits the general path reads the value
                        m = m * 10 + (c - 48)
                    digits += 1
                    pos += 1
                    c = np.int64(buf[pos]) if pos < n else np.int64(10)
                if c == 46:  # .
                    pos += 1
                    c = np.int64(buf[pos]) if pos < n else np.int64(10)
                    while c >= 48 and c <= 57:
                        if digits < 16:
                            m = m * 10 + (c - 48)
                        digits += 1
                        scale += 1
                        pos += 1
                        c = np.int64(buf[pos]) if pos < n else np.int64(10)
                if digits > 0 and digits <= 15 and (c == 32 or (c >= 9 and c <= 13) or c == 35):
                    status = 0
                    v = float(m) if scale == 0 else float(m) / _EXACT10[scale]
                else:
                    status, pos, v = _value(buf, value_start, n)
            code = OK
            if status == 1:
                code = TOKEN_BAD
            elif index < base:
                code = INDEX_ZERO
            elif index > MAX_INDEX:
                code = INDEX_TOO_LARGE
            elif index <= prev:
                code = INDEX_ORDER
            elif n_features >= 0 and index - base + 1 > n_features:
                code = INDEX_BEYOND
            elif status == 2:
                code = VALUE_NONFINITE
            f = np.float32(v)
            if code == OK and not math.isfinite(f):
                code = VALUE_FLOAT32
            if code != OK:
                _fail(info, code, line, start, index, prev, r - row0, k - nnz0, line - 1)
                return
            indices[k] = np.int32(index - base)
            values[k] = f
            ones = ones and v == 1.0
            k += 1
            prev = index
        # ------------------------------------------------ the end of the row
        if prev - base + 1 > max_seen:  # indices increase: a row's last is its largest
            max_seen = prev - base + 1
        if c == 35:
            pos = _skip_line(buf, pos, n)
        if pos < n:
            line += 1
            pos += 1
        r += 1
        indptr[r] = k
    info[STATUS] = OK
    info[ROWS] = r - row0
    info[NNZ] = k - nnz0
    info[NEWLINES] = line - 1
    info[FIRST_LINE] = first_line
    info[INEXACT_LABELS] = inexact_labels
    info[ALL_ONES] = 1 if ones else 0
    info[TEXT] = t
    info[MAX_SEEN] = max_seen


@njit(**NJIT_STRICT)
def count_bounds(buf, n):
    """``(colons, newlines)`` in ``buf[:n]``: bounds on the features and (with + 1) the rows."""
    colons = 0
    newlines = 0
    for i in range(n):
        c = buf[i]
        colons += c == 58
        newlines += c == 10
    return colons, newlines


@njit(**NJIT_STRICT)
def parse_float(buf, n):
    """The number spelled by all of ``buf[:n]`` (NaN when it is not one); for tests."""
    status, pos, negative, m, e10, inexact = _scan_number(buf, 0, n)
    if status != 0 or pos != n:
        return math.nan
    return _to_float(negative, m, e10, inexact)
