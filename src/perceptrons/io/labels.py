"""Class labels read as text: missing values refused, types kept exact (no lossy cast)."""

import re
from decimal import Decimal, InvalidOperation

import numpy as np

from perceptrons._validation import PerceptronsError

#: label cells that mean "no value" (pandas' default NA strings, compared in lower case)
MISSING_LABELS = frozenset(
    {
        "",
        "na",
        "n/a",
        "nan",
        "-nan",
        "+nan",
        "null",
        "none",
        "#n/a",
        "#n/a n/a",
        "#na",
        "<na>",
        "-1.#ind",
        "-1.#qnan",
        "1.#ind",
        "1.#qnan",
    }
)
INFINITE_LABELS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
_NUMBER = re.compile(r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
_INT64 = (Decimal(-(2**63)), Decimal(2**63 - 1))
_SHORT_INT = re.compile(r"^[+-]?[0-9]{1,18}$")  # always within int64


def check_label(where, text):
    """Refuse a missing (empty, NA, NaN) or infinite label; ``where`` is "file, line N"."""
    low = text.strip().lower()
    if low in MISSING_LABELS:
        what = "empty" if not low else f"{text.strip()!r}, a missing value"
        raise PerceptronsError(f"{where}: the label is {what}; every row needs a class label")
    if low in INFINITE_LABELS:
        raise PerceptronsError(
            f"{where}: the label {text.strip()!r} is not finite; expected a class name or a finite number"
        )


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


def is_float(v):
    """Whether ``float()`` reads the text ``v``."""
    try:
        float(v)
        return True
    except ValueError:
        return False
