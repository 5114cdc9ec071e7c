"""LIBSVM/SVMlight text through scikit-learn's parser; a refused file is scanned to name its bad line."""

import os
import re

import numpy as np

from perceptrons._validation import PerceptronsError
from perceptrons.io.delimited import text_lines
from perceptrons.io.labels import INFINITE_LABELS, MISSING_LABELS, check_label, is_float, typed_labels

#: LIBSVM feature indices are 1-based and must fit the int32 index arrays of a CSR matrix
MAX_LIBSVM_INDEX = 2**31 - 1
_BOM = b"\xef\xbb\xbf"
# the label token of a data line as scikit-learn's parser sees it: the first whitespace-separated
# word before any '#'; a line without one (blank or comment) is no data row
_LIBSVM_LABEL = re.compile(rb"[ \t\n\r\x0b\x0c]*([^ \t\n\r\x0b\x0c#]+)")


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
            raise PerceptronsError(
                f"{path}: not LIBSVM text ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
            ) from None
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
    for lineno, line in enumerate(text_lines(path), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        parts = text.split()
        if "\x00" in text:
            raise PerceptronsError(f"{path}, line {lineno}: contains a NUL byte; expected text")
        if parts[0].lower() in MISSING_LABELS or parts[0].lower() in INFINITE_LABELS:
            check_label(f"{path}, line {lineno}", parts[0])
        if not is_float(parts[0]):
            raise PerceptronsError(f"{path}, line {lineno}: label {parts[0][:40]!r} is not a number")
        prev = 0
        for k, tok in enumerate(parts[1:]):
            if k == 0 and tok.startswith("qid:"):
                if not tok[4:].isdigit():
                    raise PerceptronsError(f"{path}, line {lineno}: {tok[:40]!r} is not 'qid:<integer>'")
                continue
            idx, sep, val = tok.partition(":")
            if not sep or not idx.isascii() or not idx.isdigit() or not is_float(val):
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
                raise PerceptronsError(
                    f"{path}, line {lineno}: value {val[:40]!r} of feature {i} is not finite; expected a finite number"
                )
            prev = i
