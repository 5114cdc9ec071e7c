"""Data-file readers: CSV/TSV with a header, LIBSVM/SVMlight text, and ``.npz``.

The format is chosen by extension (``.csv``, ``.tsv``, ``.txt``/``.svm``/``.libsvm`` or no
known extension → LIBSVM, ``.npz``) unless ``fmt`` says otherwise.  Every error names the file
and, where it has one, the line, the value seen and what was expected.
"""

import csv
import os
import re
from decimal import Decimal, InvalidOperation

import numpy as np

from perceptrons._validation import PerceptronsError
from perceptrons.io.npy import read_npy

FORMATS = ("csv", "tsv", "libsvm", "npz")
_BY_EXTENSION = {".csv": "csv", ".tsv": "tsv", ".npz": "npz", ".svm": "libsvm", ".libsvm": "libsvm",
                 ".svmlight": "libsvm", ".txt": "libsvm", ".t": "libsvm"}

READERS = {}


def reader(name):
    def register(fn):
        READERS[name] = fn
        return fn

    return register


def guess_format(path):
    ext = os.path.splitext(os.fspath(path))[1].lower()
    return _BY_EXTENSION.get(ext, "libsvm")


def read_data(path, label=None, fmt=None, n_features=None, return_label_name=False):
    """Read ``(X, y)`` from a data file.

    Parameters
    ----------
    path : str or path-like
        ``"-"`` reads standard input; ``fmt`` must then be given.
    label : str, optional
        CSV/TSV: name of the label column (default: the last column).  When ``n_features`` is
        given and the file has exactly that many columns and no column named ``label``, the file
        holds features only and y is None.
    fmt : {"csv", "tsv", "libsvm", "npz"}, optional
        Overrides the choice by extension.
    n_features : int, optional
        Width expected by a model: LIBSVM pads X to it (a test file may not mention the last columns).

    return_label_name : bool
        Also return the name of the label column (None for formats without a header).

    Returns
    -------
    X : ndarray of shape (n, d) float64, or CSR matrix for LIBSVM
    y : ndarray of shape (n,)
    label_name : str or None, only with ``return_label_name``
    """
    path = os.fspath(path)
    if path == "-":
        return _read_stdin(label, fmt, n_features, return_label_name)
    fmt = fmt or guess_format(path)
    if fmt not in READERS:
        raise PerceptronsError(f"--format must be one of {list(FORMATS)}; got {fmt!r}")
    if not os.path.exists(path):
        raise PerceptronsError(f"{path}: no such file")
    if os.path.isdir(path):
        raise PerceptronsError(f"{path}: is a directory, expected a data file")
    X, y, label_name = READERS[fmt](path, label=label, n_features=n_features)
    if X.shape[0] == 0:
        raise PerceptronsError(f"{path}: no data rows")
    return (X, y, label_name) if return_label_name else (X, y)


def _read_stdin(label, fmt, n_features, return_label_name):
    """``read_data("-")``: standard input, spooled to a temporary file first, since the readers
    need a real file (LIBSVM reads a refused file twice to say which line is wrong, ``.npz`` is
    a zip read by seeking).  Errors name standard input, not the temporary file."""
    import shutil
    import sys
    import tempfile

    from perceptrons.io.atomic import CHUNK, cleanup_on_signals, signals_deferred

    if fmt is None:
        raise PerceptronsError("-: standard input has no file extension to tell its format; "
                               f"give --format (one of {', '.join(FORMATS)})")
    if sys.stdin is None:
        raise PerceptronsError("-: standard input is closed")
    with cleanup_on_signals():  # SIGTERM while reading a large input must not leave the spool file
        tmp = None
        try:
            with signals_deferred():
                fd, tmp = tempfile.mkstemp(prefix="perceptrons-stdin-")
            with os.fdopen(fd, "wb") as f:
                try:
                    shutil.copyfileobj(getattr(sys.stdin, "buffer", sys.stdin), f, CHUNK)
                except OSError as exc:
                    raise PerceptronsError(f"standard input: cannot read: {exc.strerror or exc}") from None
            try:
                return read_data(tmp, label, fmt, n_features, return_label_name)
            except PerceptronsError as exc:
                raise PerceptronsError(str(exc).replace(tmp, "standard input")) from None
        finally:
            if tmp is not None:
                os.unlink(tmp)


#: label cells that mean "no value" (pandas' default NA strings, compared in lower case)
MISSING_LABELS = frozenset({"", "na", "n/a", "nan", "-nan", "+nan", "null", "none", "#n/a", "#n/a n/a", "#na",
                            "<na>", "-1.#ind", "-1.#qnan", "1.#ind", "1.#qnan"})
_INFINITE_LABELS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
_NUMBER = re.compile(r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
_INT64 = (Decimal(-(2**63)), Decimal(2**63 - 1))
_SHORT_INT = re.compile(r"^[+-]?[0-9]{1,18}$")  # always within int64


def check_label(where, text):
    """Refuse a missing (empty, NA, NaN) or infinite label; ``where`` is "file, line N"."""
    low = text.strip().lower()
    if low in MISSING_LABELS:
        what = "empty" if not low else f"{text.strip()!r}, a missing value"
        raise PerceptronsError(f"{where}: the label is {what}; every row needs a class label")
    if low in _INFINITE_LABELS:
        raise PerceptronsError(f"{where}: the label {text.strip()!r} is not finite; expected a class name or a finite number")


def typed_labels(texts):
    """The labels' texts as an array that keeps every class apart (no lossy cast).

    int64 when every label is a whole number (``3``, ``+1``, ``2.0``, ``1e3``) within int64;
    otherwise the texts themselves (``cat``, ``0.5``, ``1e19``).  There is no float case:
    scikit-learn takes non-integer float labels for a regression target, and whole-number
    floats beyond int64 too (its check casts them to int), so such labels could be neither
    trained nor scored; as text they stay exact and distinct (``1e19`` and
    ``10000000000000000001`` are two classes, which one float would merge).
    """
    values = {}
    for t in dict.fromkeys(texts):
        if _SHORT_INT.match(t):  # the common case, without Decimal
            values[t] = int(t)
            continue
        if not _NUMBER.match(t):
            return np.array(texts, dtype=str)
        try:
            d = Decimal(t)
            ok = d == d.to_integral_value() and _INT64[0] <= d <= _INT64[1]
        except (InvalidOperation, ArithmeticError):
            ok = False
        if not ok:
            return np.array(texts, dtype=str)
        values[t] = int(d)
    return np.fromiter((values[t] for t in texts), dtype=np.int64, count=len(texts))


def _finite_row(path, lineno, values):
    bad = ~np.isfinite(values)
    if bad.any():
        raise PerceptronsError(f"{path}, line {lineno}: value {float(values[bad][0])!r} is not finite; expected a finite number")


def _text_lines(path):
    """Lines of a text file with their line breaks, decoded one at a time (a bad byte is reported
    with its line); a UTF-8 byte-order mark at the start is dropped."""
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise PerceptronsError(
                    f"{path}, line {lineno}: not UTF-8 text (byte {raw[exc.start]:#04x} at column {exc.start + 1})"
                ) from None
            if lineno == 1 and line.startswith("\ufeff"):
                line = line[1:]  # Excel writes "UTF-8 CSV" with a BOM
            yield line


def _csv_records(path, delimiter):
    """``(first line, fields)`` of each record; csv errors name the file and line."""
    reader_ = csv.reader(_text_lines(path), delimiter=delimiter, strict=True)
    limit = csv.field_size_limit()
    start = 1
    while True:
        try:
            row = next(reader_)
        except StopIteration:
            return
        except csv.Error as exc:
            reason = str(exc)
            if "field larger than field limit" in reason:
                reason = f"a field is longer than {limit:,} characters ({limit // 1024} KiB); expected numbers"
            elif "unexpected end of data" in reason:
                reason = "a quoted field opened here is never closed (unterminated quote)"
            elif "NUL" in reason:
                reason = "contains a NUL byte; expected text"
            elif "new-line character seen in unquoted field" in reason:
                reason = "a bare carriage return ends a line (classic Mac line breaks); expected \\n or \\r\\n"
            else:
                reason = f"bad CSV quoting ({reason})"
            raise PerceptronsError(f"{path}, line {start}: {reason}") from None
        end = reader_.line_num
        if end != start and any("\n" in c or "\r" in c for c in row):
            raise PerceptronsError(
                f"{path}, line {start}: a quoted field runs over lines {start}-{end} (a quote is not closed on its line)"
            )
        yield start, row
        start = end + 1


@reader("csv")
def read_csv(path, label=None, n_features=None, delimiter=","):
    records = _csv_records(path, delimiter)
    first = next(records, None)
    if first is None:
        raise PerceptronsError(f"{path}: the file is empty; expected a header line and data rows")
    header_line, header = first
    header = [h.strip() for h in header]
    features_only = n_features is not None and len(header) == n_features
    if label is not None and label in header:
        col = header.index(label)
    elif features_only:
        col = None  # a file to predict on: every column is a feature
    elif label is None:
        col = len(header) - 1
    else:
        raise PerceptronsError(f"{path}: no label column {label!r}; columns are {header[:20]}"
                               f"{' ...' if len(header) > 20 else ''}")
    if len(header) < 2:
        raise PerceptronsError(f"{path}, line {header_line}: expected at least one feature column and a label column")
    if col is not None and header.count(header[col]) > 1:
        where = [i + 1 for i, h in enumerate(header) if h == header[col]]
        raise PerceptronsError(
            f"{path}, line {header_line}: the label column name {header[col]!r} appears {len(where)} times in the "
            f"header (columns {', '.join(map(str, where[:5]))}); expected a unique name"
        )
    feats, labels = [], []
    for lineno, row in records:
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise PerceptronsError(
                f"{path}, line {lineno}: {len(row)} fields, expected {len(header)} as in the header"
            )
        if col is not None:
            check_label(f"{path}, line {lineno}", row[col])
            labels.append(row[col].strip())
        try:
            values = np.array([float(v) for j, v in enumerate(row) if j != col])
        except ValueError:
            bad = next(v for j, v in enumerate(row) if j != col and not _is_float(v))
            raise PerceptronsError(f"{path}, line {lineno}: {bad[:40]!r} is not a number") from None
        _finite_row(path, lineno, values)
        feats.append(values)
    if not feats:
        raise PerceptronsError(f"{path}: no data rows after the header")
    if col is None:
        return np.vstack(feats), None, None
    return np.vstack(feats), typed_labels(labels), header[col]


def _is_float(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


@reader("tsv")
def read_tsv(path, label=None, n_features=None):
    return read_csv(path, label=label, n_features=n_features, delimiter="\t")


#: LIBSVM feature indices are 1-based and must fit the int32 index arrays of a CSR matrix
MAX_LIBSVM_INDEX = 2**31 - 1
_BOM = b"\xef\xbb\xbf"
# the label token of a data line as scikit-learn's parser sees it: the first whitespace-separated
# word before any '#'; a line without one (blank or comment) is no data row
_LIBSVM_LABEL = re.compile(rb"[ \t\n\r\x0b\x0c]*([^ \t\n\r\x0b\x0c#]+)")


@reader("libsvm")
def read_libsvm(path, label=None, n_features=None):
    """LIBSVM/SVMlight text (1-based, sorted, unique feature indices), via scikit-learn's fast parser.

    When that parser refuses a file, the file is scanned line by line to say which line and why.
    The labels are read from their text (a second, cheap pass): the parser reads them as floats,
    which would merge ``1e19`` and ``10000000000000000001``.
    """
    from sklearn.datasets import load_svmlight_file

    if os.path.getsize(path) == 0:
        raise PerceptronsError(f"{path}: the file is empty; expected LIBSVM lines 'label index:value ...'")
    with open(path, "rb") as f:
        skip = len(_BOM) if f.read(len(_BOM)) == _BOM else 0
        f.seek(skip)
        try:
            X, _ = load_svmlight_file(f, n_features=n_features, zero_based=False)
        except (ValueError, RuntimeError, UnicodeDecodeError, OverflowError, IndexError) as exc:
            _explain_libsvm(path, n_features)
            raise PerceptronsError(f"{path}: not LIBSVM text ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
    if X.shape[1] > MAX_LIBSVM_INDEX:
        _explain_libsvm(path, n_features)
        raise PerceptronsError(f"{path}: a feature index exceeds {MAX_LIBSVM_INDEX} (2^31 - 1)")
    if X.nnz and not np.all(np.isfinite(X.data)):
        row = int(np.searchsorted(X.indptr, np.flatnonzero(~np.isfinite(X.data))[0], side="right")) - 1
        _explain_libsvm(path, n_features)
        raise PerceptronsError(f"{path}, data row {row + 1}: a value is not finite; expected finite numbers")
    texts, lines = _libsvm_labels(path, skip)
    if len(texts) != X.shape[0]:  # pragma: no cover - the two readers split lines alike
        raise PerceptronsError(f"{path}: {len(texts)} labels for {X.shape[0]} rows; the file is not LIBSVM text")
    for t, lineno in lines.items():
        check_label(f"{path}, line {lineno}", t)
    return X, typed_labels(texts), None


def _libsvm_labels(path, skip):
    """The label text of every data line, and the first line of each distinct label."""
    texts, first = [], {}
    match = _LIBSVM_LABEL.match
    with open(path, "rb") as f:
        f.seek(skip)
        for lineno, line in enumerate(f, 1):
            m = match(line)
            if m is None:
                continue
            tok = m.group(1)
            if tok not in first:
                first[tok] = lineno
            texts.append(tok)
    names = {tok: tok.decode("utf-8", errors="replace") for tok in first}
    return [names[t] for t in texts], {names[t]: n for t, n in first.items()}


def _explain_libsvm(path, n_features):
    """Raise a PerceptronsError naming the first line that is not LIBSVM text; return if none is found."""
    for lineno, line in enumerate(_text_lines(path), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        parts = text.split()
        if "\x00" in text:
            raise PerceptronsError(f"{path}, line {lineno}: contains a NUL byte; expected text")
        if parts[0].lower() in MISSING_LABELS or parts[0].lower() in _INFINITE_LABELS:
            check_label(f"{path}, line {lineno}", parts[0])
        if not _is_float(parts[0]):
            raise PerceptronsError(f"{path}, line {lineno}: label {parts[0][:40]!r} is not a number")
        prev = 0
        for k, tok in enumerate(parts[1:]):
            if k == 0 and tok.startswith("qid:"):
                if not tok[4:].isdigit():
                    raise PerceptronsError(f"{path}, line {lineno}: {tok[:40]!r} is not 'qid:<integer>'")
                continue
            idx, sep, val = tok.partition(":")
            if not sep or not idx.isascii() or not idx.isdigit() or not _is_float(val):
                raise PerceptronsError(
                    f"{path}, line {lineno}: {tok[:40]!r} is not 'index:value' with a positive integer index"
                )
            i = int(idx)
            if i < 1:
                raise PerceptronsError(f"{path}, line {lineno}: feature index {idx} < 1; LIBSVM indices start at 1")
            if i > MAX_LIBSVM_INDEX:
                raise PerceptronsError(
                    f"{path}, line {lineno}: feature index {idx[:40]} is too large; at most {MAX_LIBSVM_INDEX} (2^31 - 1)"
                )
            if i <= prev:
                what = "repeats" if i == prev else f"comes after index {prev}"
                raise PerceptronsError(
                    f"{path}, line {lineno}: feature index {i} {what}; expected increasing indices, each once"
                )
            if n_features is not None and i > n_features:
                raise PerceptronsError(
                    f"{path}, line {lineno}: feature index {idx} exceeds the model's {n_features} features"
                )
            if not np.isfinite(float(val)):
                raise PerceptronsError(f"{path}, line {lineno}: value {val[:40]!r} of feature {i} is not finite; expected a finite number")
            prev = i


#: a deflated member expands at most ~1032 times; a member claiming more is not what numpy wrote
_MAX_DEFLATE_RATIO = 1100


def _plausible_member(path, info):
    """Refuse a member numpy.savez / savez_compressed would not write, before it is read."""
    import zipfile

    name = info.filename[:-4]
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise PerceptronsError(f"{path}: array {name!r} uses zip compression method {info.compress_type}; "
                               "expected numpy.savez or numpy.savez_compressed output")
    if info.flag_bits & 0x1:
        raise PerceptronsError(f"{path}: array {name!r} is encrypted")
    limit = info.compress_size if info.compress_type == zipfile.ZIP_STORED else info.compress_size * _MAX_DEFLATE_RATIO + 1024
    if info.compress_size > os.path.getsize(path) or info.file_size > limit:
        raise PerceptronsError(f"{path}: array {name!r} claims {info.file_size:,} bytes stored in {info.compress_size:,}; "
                               "the archive is corrupted")


def _check_npz_array(path):
    """The dtype and shape rules of X and y, applied to each header before its array is read."""

    def check(name, shape, dtype):
        if name == "X":
            if len(shape) != 2:
                raise PerceptronsError(f"{path}: X must be 2-D and y 1-D of the same length; got X of shape {shape}")
            if dtype.kind not in "biuf":
                what = "complex numbers" if dtype.kind == "c" else f"dtype {dtype}"
                raise PerceptronsError(f"{path}: X holds {what}; expected real numbers")
            if shape[1] == 0:
                raise PerceptronsError(f"{path}: X has 0 columns; expected at least one feature")
        else:
            if len(shape) != 1:
                raise PerceptronsError(f"{path}: X must be 2-D and y 1-D of the same length; got y of shape {shape}")
            if dtype.kind == "S":
                raise PerceptronsError(f"{path}: y holds bytes ({dtype}); expected integers or text (str) labels")
            if dtype.kind not in "biufU":
                raise PerceptronsError(f"{path}: y has dtype {dtype}; expected integer, float or text labels")

    return check


@reader("npz")
def read_npz(path, label=None, n_features=None):
    """Arrays ``X`` (2-D, real numbers) and ``y`` (1-D class labels) of a ``numpy.savez`` archive.

    Each header is checked before its array is loaded (:func:`perceptrons.io.npy.read_npy`); X must be
    finite with at least one column, and y integers, integral floats or text, without NaN,
    empty or bytes labels.
    """
    import zipfile
    import zlib

    with open(path, "rb") as f:
        magic = f.read(6)
    if magic == b"\x93NUMPY":
        raise PerceptronsError(f"{path}: is a .npy file (one array); expected a .npz archive with arrays 'X' and 'y' "
                               "(numpy.savez(path, X=X, y=y))")
    if not magic.startswith(b"PK"):
        raise PerceptronsError(f"{path}: not a .npz archive (no zip signature); expected arrays 'X' and 'y' "
                               "saved with numpy.savez")
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            missing = [k for k in ("X", "y") if k + ".npy" not in names]
            if missing:
                raise PerceptronsError(f"{path}: missing array(s) {missing}; expected arrays 'X' and 'y'")
            infos = [zf.getinfo(k + ".npy") for k in ("X", "y")]
            for info in infos:
                _plausible_member(path, info)
            check = _check_npz_array(path)
            X, y = (read_npy(path, zf, info, check) for info in infos)
            if X.shape[0] != y.shape[0]:
                raise PerceptronsError(
                    f"{path}: X must be 2-D and y 1-D of the same length; got {X.shape} and {y.shape}"
                )
    except PerceptronsError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError, SyntaxError, TypeError,
            OverflowError, NotImplementedError, RuntimeError, KeyError, zlib.error) as exc:
        reason = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise PerceptronsError(f"{path}: not a readable .npz file ({reason})") from None
    if X.size and not np.all(np.isfinite(X)):
        row = int(np.flatnonzero(~np.isfinite(X).all(axis=1))[0])
        raise PerceptronsError(f"{path}: X row {row + 1} (1-based) holds NaN or inf; expected finite numbers")
    return X, _check_npz_labels(path, y), None


def _check_npz_labels(path, y):
    if y.dtype.kind == "f":
        bad = ~np.isfinite(y)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise PerceptronsError(f"{path}: y[{i}] (row {i + 1}) is {float(y[i])}; expected a class label, not NaN or inf")
        frac = (y != np.round(y)) | (np.abs(y) >= 2.0**63)
        if frac.any():
            i = int(np.flatnonzero(frac)[0])
            what = "not an integer" if y[i] != np.round(y[i]) else "beyond the int64 range"
            raise PerceptronsError(f"{path}: y[{i}] (row {i + 1}) is {float(y[i])!r}, {what}; float class labels must be "
                                   "whole numbers within int64 (store other labels as text)")
    elif y.dtype.kind == "U":
        for i, t in enumerate(y.tolist()):
            if t.strip().lower() in MISSING_LABELS:
                check_label(f"{path}: y[{i}] (row {i + 1})", t)
    return y
