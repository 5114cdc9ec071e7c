"""Class labels read as text: missing values refused, types kept exact (no lossy cast)."""

import re
from decimal import Decimal, InvalidOperation

import numpy as np

from perceptrons._core.errors import PerceptronsError

#: label cells that mean "no value" (pandas' default NA strings, compared in lower case), but
#: "None", which is a class in data sets as people label them (an improvement of "None", "Some"
#: or "Marked"; vitamins "none", "enriched" or "100%"); a cell of features reads it as missing
MISSING_LABELS = frozenset(
    {
        "",
        "na",
        "n/a",
        "nan",
        "-nan",
        "+nan",
        "null",
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


def check_label(where, text, column=None):
    """Refuse a missing (empty, NA, NaN) or infinite label; ``where`` is "file, line N", ``column``
    the label column's name where the file names its columns (the last one unless ``--label``
    says: a user who meant another learns which was taken).
    """
    low = text.strip().lower()
    if low in MISSING_LABELS:
        what = "empty" if not low else f"{text.strip()!r}, a missing value"
        which = f" (the label column is {column!r}; --label names another)" if column is not None else ""
        raise PerceptronsError(f"{where}: the label is {what}; every row needs a class label{which}")
    if low in INFINITE_LABELS:
        raise PerceptronsError(
            f"{where}: the label {text.strip()!r} is not finite; expected a class name or a finite number"
        )


#: distinct labels beyond which numbers that are not all whole read as a measurement, not classes
MAX_MEASURED_CLASSES = 20


def check_classes(y, where):
    """Refuse labels that are a measurement rather than classes: more than
    :data:`MAX_MEASURED_CLASSES` distinct numbers, not all whole (a feature column taken for the
    label, or a regression target).  scikit-learn's classifiers refuse such a target as
    "continuous"; a file's first column of prices or lengths was trained on as hundreds of classes.

    Raises
    ------
    PerceptronsError
        One line: ``where`` (the file and label column), how many values, one of them.
    """
    values = np.unique(np.asarray(y))
    if values.dtype.kind not in "US" or values.shape[0] <= MAX_MEASURED_CLASSES:
        return
    numbers = [v for v in values.tolist() if _NUMBER.match(v.lstrip("+-"))]
    if len(numbers) < values.shape[0]:
        return  # words among them: class names
    fraction = next((v for v in numbers if not float(v).is_integer()), None)
    if fraction is not None:
        raise PerceptronsError(
            f"{where} holds {values.shape[0]:,} different numbers, not all whole (such as {fraction[:20]!r}): a "
            "measurement, not classes; expected class labels (--label names the label column)"
        )


def case_variants(y):
    """Text labels that differ only in case, each group as written (``[['NO', 'No', 'no']]``): one
    class each, which a user who meant one would want to know.
    """
    values = np.unique(np.asarray(y))
    if values.dtype.kind not in "US":
        return []
    groups = {}
    for v in values.tolist():
        groups.setdefault(v.casefold(), []).append(v)
    return [g for g in groups.values() if len(g) > 1]


def typed_labels(texts):
    """The labels' texts as an array that keeps every class apart (no lossy cast).

    int64 when every label is a whole number (``3``, ``+1``, ``2.0``, ``1e3``) within int64;
    text otherwise.  Words stay as written (``cat``).  Numbers that are not all whole within
    int64 become one canonical text per value: a whole number up to 2^53 its digits (``+1`` →
    ``1``), another number the shortest text of its float64 (``0.50`` → ``0.5``), so that
    ``0.5`` and ``0.50`` are one class, and a file read into memory and the same file streamed
    (its labels parsed as float64, :func:`float_labels`) agree.  Whole numbers beyond 2^53 keep
    their text (``1e19`` and ``10000000000000000001`` are two classes, which one float would
    merge).  There is no float case: scikit-learn takes non-integer float labels for a
    regression target, and whole-number floats beyond int64 too (its check casts them to int).
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
            values[t] = int(d) if d == d.to_integral_value() else float(t)
        except (InvalidOperation, ArithmeticError, OverflowError):
            return np.array(texts, dtype=str)
    if all(isinstance(v, int) and _INT64[0] <= v <= _INT64[1] for v in values.values()):
        return np.fromiter((values[t] for t in texts), dtype=np.int64, count=len(texts))
    # whole numbers beyond 2^53 keep their text: no float holds them (a stream refuses them)
    canonical = {
        t: t if isinstance(v, int) and abs(v) > EXACT_FLOAT_INT else _number_text(v) for t, v in values.items()
    }
    return np.array([canonical[t] for t in texts], dtype=str)


def _number_text(v):
    """The canonical text of a label's value: the digits of a whole number, else the shortest
    text that reads back as the same float64.
    """
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v) if isinstance(v, int) else repr(v)


#: whole numbers beyond this are not all exact in float64: labels parsed as floats could merge
EXACT_FLOAT_INT = 2**53


def float_labels(y, where):
    """Labels parsed as float64 (LIBSVM and VW blocks, as streamed), typed as :func:`typed_labels`
    types their text: int64 when all are whole, else canonical text.

    Raises
    ------
    PerceptronsError
        For a whole number beyond 2^53, where two labels may have become one float
        (``10000000000000001`` and ``10000000000000000``); ``where`` names the data.
    """
    y = np.asarray(y, dtype=np.float64)
    whole = y == np.round(y)
    big = whole & (np.abs(y) > EXACT_FLOAT_INT)
    if big.any():
        raise PerceptronsError(
            f"{where}: the label {float(y[big][0]):.17g} is beyond 2^53, where labels read as float64 (as "
            "streamed or on a cluster) may merge; expected labels within ±2^53 (an in-memory read keeps "
            "larger ones exact)"
        )
    if whole.all():
        return y.astype(np.int64)
    return np.array([_number_text(v) for v in y.tolist()], dtype=str)


def decimal_chars(v):
    """Whether ``v`` holds only what a number in a text file may: ASCII, and no ``_`` (the part
    of :func:`is_float`'s grammar that Python's ``float`` does not check).
    """
    return v.isascii() and "_" not in v


def is_float(v):
    """Whether the text ``v`` is a number as every reader of text reads one: what ``float()``
    reads, in ASCII and without ``_``.

    Python's ``float`` also reads ``1_000``, digits of other scripts (``١٢``, ``１``) and
    spaces beyond ASCII; pyarrow's CSV reader, C's ``strtod`` and the other readers here do
    not.  The same CSV read in memory and streamed gave a number in one and, in the other, a
    column of text hashed as categories.
    """
    if not decimal_chars(v):
        return False
    try:
        float(v)
        return True
    except ValueError:
        return False


def file_labels(labels, where):
    """Labels read from a file, typed once whatever the reader: text as :func:`typed_labels`
    types it, parsed floats (LIBSVM, VW) as :func:`float_labels` does, integers as they are.
    """
    labels = np.asarray(labels)
    if labels.dtype.kind in "OUS":
        return typed_labels([str(v) for v in labels.tolist()])
    return float_labels(labels, where) if labels.dtype.kind == "f" else labels


#: a truth value as readers spell it: pandas and Python write ``True``, R and spreadsheets
#: ``TRUE``, pyarrow ``true`` (a Parquet column of booleans read as labels)
_TRUTHS = frozenset({"true", "false"})


def label_key(text):
    """What a label's text means, whatever its spelling: a truth value (``TRUE``, ``true``), the
    value of a number (``01``, ``1.0`` and ``1`` alike: ``typed_labels``' canonical value), or
    the word in Unicode's composed form (NFC: ``café`` typed on macOS, decomposed, is ``café``).

    Parameters
    ----------
    text : str

    Returns
    -------
    tuple
    """
    import unicodedata

    low = text.strip().lower()
    if low in _TRUTHS:
        return ("truth", low)
    if _NUMBER.match(text.strip().lstrip("+-")):
        return ("number", typed_labels([text.strip()]).tolist()[0])
    return ("word", unicodedata.normalize("NFC", text))


def as_classes(y, classes):
    """Labels ``y`` read from a file, in the type and spelling of a model's ``classes``.

    A file's labels are typed on their own: a file of ``01`` and ``02`` is read as the numbers 1
    and 2, where the model's training file, holding a word too, kept the text ``01``, ``02``.
    A label the classes do not hold is the class of the same meaning (:func:`label_key`) when
    exactly one class has it: the number 1 is the class ``01``, ``true`` the class ``True``
    (a table's CSV from pandas and its Parquet copy), a decomposed ``café`` the composed one.
    The model's spelling is what it predicts.  Any other label stays as read, and counts as an
    error where it is evaluated.  Labels read as numbers meet numeric classes unchanged, or as
    those numbers when every label is one of them; beside a word that is none, as text, each
    class's labels spelt as ``str`` of the class (predictions are compared as text then:
    :func:`perceptrons._core.labels.alike`).

    Parameters
    ----------
    y : ndarray or None
        The labels as read.
    classes : ndarray or None
        The model's classes, or the training labels.

    Returns
    -------
    ndarray or None
    """
    if y is None or classes is None:
        return y
    classes = np.unique(np.asarray(classes))
    y = np.asarray(y)
    if classes.dtype.kind != "U" and y.dtype.kind != "U":
        return y
    text = y if y.dtype.kind == "U" else y.astype(str)  # booleans read as True and False
    unknown = np.unique(text[~np.isin(text, classes.astype(str))]).tolist()
    if not unknown:
        return y.astype(classes.dtype) if classes.dtype.kind != "U" else text
    by_key = {}
    for c in classes.tolist():
        by_key.setdefault(label_key(str(c)), []).append(c)
    meant = {u: by_key[k][0] for u in unknown if len(by_key.get(k := label_key(u), ())) == 1}
    if classes.dtype.kind != "U":  # numeric classes: the labels as numbers when every one is a class
        if len(meant) == len(unknown):
            return np.array([meant.get(v, v) for v in text.tolist()]).astype(classes.dtype)
        # else as text, a class's labels spelled as the class is (perceptrons._core.labels.alike)
        spelt = dict(zip(classes.tolist(), classes.astype(str).tolist()))
        return np.array([spelt[meant[v]] if v in meant else v for v in text.tolist()], dtype=str)
    if not meant:
        return text
    return np.array([meant.get(v, v) for v in text.tolist()], dtype=str)
