"""Data-file readers: CSV/TSV with a header, LIBSVM/SVMlight text, and ``.npz``.

The format is chosen by extension (``.csv``, ``.tsv``, ``.txt``/``.svm``/``.libsvm`` or no
known extension → LIBSVM, ``.npz``) unless ``fmt`` says otherwise.  Every error names the file
and, where it has one, the line, the value seen and what was expected.
"""

import csv
import os

import numpy as np

from perceptrons._validation import PerceptronsError

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


def _label_array(values):
    """Labels as ints when every label is an integer, else as strings."""
    try:
        as_float = np.array([float(v) for v in values])
    except ValueError:
        return np.array(values, dtype=str)
    if np.all(np.isfinite(as_float)) and np.all(as_float == np.round(as_float)):
        return as_float.astype(np.int64)
    return np.array(values, dtype=str)


def _finite_row(path, lineno, values):
    bad = ~np.isfinite(values)
    if bad.any():
        raise PerceptronsError(f"{path}, line {lineno}: value {values[bad][0]!r} is not finite; expected a finite number")


@reader("csv")
def read_csv(path, label=None, n_features=None, delimiter=","):
    with open(path, newline="", encoding="utf-8", errors="strict") as f:
        try:
            rows = csv.reader(f, delimiter=delimiter)
            header = next(rows, None)
            if header is None:
                raise PerceptronsError(f"{path}: the file is empty; expected a header line and data rows")
            header = [h.strip() for h in header]
            features_only = n_features is not None and len(header) == n_features
            if label is not None and label in header:
                col = header.index(label)
            elif features_only:
                col = None  # a file to predict on: every column is a feature
            elif label is None:
                col = len(header) - 1
            else:
                raise PerceptronsError(f"{path}: no label column {label!r}; columns are {header}")
            if len(header) < 2:
                raise PerceptronsError(f"{path}, line 1: expected at least one feature column and a label column")
            feats, labels = [], []
            for lineno, row in enumerate(rows, start=2):
                if not row or all(not c.strip() for c in row):
                    continue
                if len(row) != len(header):
                    raise PerceptronsError(
                        f"{path}, line {lineno}: {len(row)} fields, expected {len(header)} as in the header"
                    )
                if col is not None:
                    labels.append(row[col].strip())
                try:
                    values = np.array([float(v) for j, v in enumerate(row) if j != col])
                except ValueError:
                    bad = next(v for j, v in enumerate(row) if j != col and not _is_float(v))
                    raise PerceptronsError(f"{path}, line {lineno}: {bad!r} is not a number") from None
                _finite_row(path, lineno, values)
                feats.append(values)
        except UnicodeDecodeError as exc:
            raise PerceptronsError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not feats:
        raise PerceptronsError(f"{path}: no data rows after the header")
    if col is None:
        return np.vstack(feats), None, None
    return np.vstack(feats), _label_array(labels), header[col]


def _is_float(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


@reader("tsv")
def read_tsv(path, label=None, n_features=None):
    return read_csv(path, label=label, n_features=n_features, delimiter="\t")


@reader("libsvm")
def read_libsvm(path, label=None, n_features=None):
    """LIBSVM/SVMlight text (1-based feature indices), via scikit-learn's fast parser.

    When that parser refuses a file, the file is scanned line by line to say which line and why.
    """
    from sklearn.datasets import load_svmlight_file

    if os.path.getsize(path) == 0:
        raise PerceptronsError(f"{path}: the file is empty; expected LIBSVM lines 'label index:value ...'")
    try:
        X, y = load_svmlight_file(path, n_features=n_features, zero_based=False)
    except (ValueError, RuntimeError, UnicodeDecodeError) as exc:
        _explain_libsvm(path, n_features)
        raise PerceptronsError(f"{path}: not LIBSVM text ({exc})") from None
    if X.shape[0] and not np.all(np.isfinite(X.data)):
        row = int(np.searchsorted(X.indptr, np.flatnonzero(~np.isfinite(X.data))[0], side="right")) - 1
        raise PerceptronsError(f"{path}, data row {row + 1}: a value is not finite; expected finite numbers")
    if not np.all(np.isfinite(y)):
        raise PerceptronsError(f"{path}: a label is not finite")
    y = y.astype(np.int64) if np.all(y == np.round(y)) else y
    return X, y, None


def _explain_libsvm(path, n_features):
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, start=1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            parts = text.split()
            try:
                float(parts[0])
            except ValueError:
                raise PerceptronsError(f"{path}, line {lineno}: label {parts[0]!r} is not a number") from None
            for tok in parts[1:]:
                if tok.startswith("qid:"):
                    continue
                idx, sep, val = tok.partition(":")
                if not sep or not idx.isdigit() or not _is_float(val):
                    raise PerceptronsError(
                        f"{path}, line {lineno}: {tok!r} is not 'index:value' with a positive integer index"
                    )
                if int(idx) < 1:
                    raise PerceptronsError(f"{path}, line {lineno}: feature index {idx} < 1; LIBSVM indices start at 1")
                if n_features is not None and int(idx) > n_features:
                    raise PerceptronsError(
                        f"{path}, line {lineno}: feature index {idx} exceeds the model's {n_features} features"
                    )


@reader("npz")
def read_npz(path, label=None, n_features=None):
    import zipfile

    try:
        with np.load(path, allow_pickle=False) as z:
            missing = [k for k in ("X", "y") if k not in z.files]
            if missing:
                raise PerceptronsError(f"{path}: missing array(s) {missing}; expected arrays 'X' and 'y'")
            X, y = z["X"], z["y"]
    except PerceptronsError:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as exc:
        raise PerceptronsError(f"{path}: not a readable .npz file ({exc})") from None
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise PerceptronsError(f"{path}: X must be 2-D and y 1-D of the same length; got {X.shape} and {y.shape}")
    if not np.issubdtype(X.dtype, np.number):
        raise PerceptronsError(f"{path}: X has dtype {X.dtype}; expected numbers")
    if X.size and not np.all(np.isfinite(X)):
        row = int(np.flatnonzero(~np.isfinite(X).all(axis=1))[0])
        raise PerceptronsError(f"{path}: X row {row} holds NaN or inf; expected finite numbers")
    return X, y, None
