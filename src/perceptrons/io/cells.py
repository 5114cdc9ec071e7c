"""A cell of a table as people write one: a number in any of the forms spreadsheets export, a
mark that stands for no value, or text.

A plain number (what ``float`` reads, in ASCII) is the common case and is read first.  When
that fails, :func:`formatted_number` tries the forms a spreadsheet or a report writes: ``1,234``
(thousands grouped by commas; by spaces, ``32 610,55``, as French and SI writing groups them), ``$12.50`` and ``12,50 €`` (a currency sign before or after),
``45%`` (a percentage, read as 0.45), ``0,126`` (a decimal comma, in files whose fields are
separated by ``;``, as spreadsheets write them where the comma is the decimal mark), ISO 8601
dates (``2020-07-20``, ``2020-07-20 12:00:00``, read as days since 1970-01-01 UTC), times of
day (``12:00``, read as 0.5 of a day) and ``true``/``false`` in any case (1 and 0), as the
Parquet readers read their types.  Each form
is named, so that a summary can say how a column was read.  The same rules read the file a
model is trained on and every file read for it later, so a column is read the same way in both.

In a column of numbers, :func:`is_placeholder` tells the marks that stand for an unknown value
(``?``, ``-``, ``.``, a spreadsheet's ``#VALUE!`` or ``#DIV/0!``, ``missing``, ``unknown``): such a
cell is missing, as an empty one is.  UCI's data sets write ``?`` for a missing value.
"""

import math
import re
import unicodedata
from datetime import UTC, datetime

from perceptrons.io.labels import decimal_chars

#: the forms :func:`formatted_number` reads, as a summary names them
THOUSANDS, CURRENCY, PERCENT, DECIMAL_COMMA, DATES, PARENTHESES, BOOLEANS = (
    "thousands separators",
    "currency signs",
    "percentages (÷ 100)",
    "decimal commas",
    "ISO dates (days since 1970-01-01)",
    "negatives in parentheses",
    "true and false (1 and 0)",
)
#: the form of a time of day (``12:00``, ``7:05:30.25``), read as a fraction of a day
TIMES = "times of day (a fraction of a day)"
_TIME = re.compile(r"^([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}(?:\.[0-9]{1,9})?))?$")
#: the form of a duration as pandas writes a ``timedelta64`` (``3 days 04:05:06.5``), in days
DURATIONS = "durations (days)"
_DURATION = re.compile(r"^(-?[0-9]+) days? \+?([0-9]{2}):([0-9]{2}):([0-9]{2}(?:\.[0-9]{1,9})?)$")
#: the words of a boolean, as R (TRUE), pandas (True) and pyarrow (true) write one
_BOOLEANS = {"true": 1.0, "false": 0.0}
#: the form of a number followed by a unit, named with its unit (``58 kg``: "the unit 'kg'")
UNIT_PREFIX = "the unit "
#: currency signs a number may carry before or after it
CURRENCY_SIGNS = "$€£¥₹"
#: words and spreadsheet errors that stand for no value in a column of numbers (lower case),
#: besides marks of punctuation and symbols only (``?``, ``-``, ``.``, ``--``)
PLACEHOLDER_WORDS = frozenset(
    {
        "missing",
        "unknown",
        "undefined",
        "nil",
        "n.a.",
        "n/d",
        "n.d.",
        "#value!",
        "#div/0!",
        "#ref!",
        "#num!",
        "#name?",
        "#null!",
        "#n/a!",
    }
)

_PLAIN = re.compile(r"^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
_GROUPED = re.compile(r"^[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?$")
_GROUPED_COMMA_DECIMAL = re.compile(r"^[1-9][0-9]{0,2}(?:\.[0-9]{3})+(?:,[0-9]+)?$")
_COMMA_DECIMAL = re.compile(r"^[0-9]*,[0-9]+$")
_DATE = re.compile(
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[ T][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,9})?)?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?$"
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: a unit after a number: up to six letters (any script), with °, µ, / or a superscript
_UNIT = re.compile(r"^(.*?[0-9.])\s*((?:[^\W\d_]|[°µ/²³]){1,6})$")
_GROUPED_POINTS = re.compile(r"^[1-9][0-9]{0,2}(?:\.[0-9]{3})+$")
#: thousands grouped by a space, as French, Nordic and SI writing groups them: a plain space,
#: a no-break space (U+00A0), a narrow one (U+202F) or a thin one (U+2009)
_SPACES = " \u00a0\u202f\u2009"
_GROUPED_SPACES = re.compile(rf"^[1-9][0-9]{{0,2}}(?:[{_SPACES}][0-9]{{3}})+(?:[.,][0-9]+)?$")


def plain_number(cell):
    """The float of a plain number (``1.5``, ``-2e3``), or None (``1_000`` is not, as in a CSV)."""
    if not decimal_chars(cell):
        return None
    try:
        return float(cell)
    except ValueError:
        return None


def formatted_number(cell, decimal_comma=False, points_group=False):
    """``(value, form)`` of a number written in one of the forms the module names, or None.

    Parameters
    ----------
    cell : str
    decimal_comma : bool
        The file separates its fields by ``;``: a comma is the decimal mark (``0,126``) and a
        point groups thousands (``1.234,5``); else a comma groups thousands (``1,234.5``).
    points_group : bool
        The file writes decimal commas elsewhere: ``3.386`` groups thousands (3386), as in the
        rest of its numbers, rather than being 3.386.

    Returns
    -------
    (float, str) or None
        The value and the form it was written in (:data:`THOUSANDS`, ...); accounting's
        ``(1,234.50)`` is negative, and a number may carry a unit after it (``58 kg``: the
        form names the unit, so that a column of two units is no column of numbers).
    """
    text = cell.strip()
    if _DATE.match(text):
        return _date(text)
    if text.lower() in _BOOLEANS:  # as a Parquet column of booleans is read, and pyarrow's CSV reader
        return _BOOLEANS[text.lower()], BOOLEANS
    duration = _DURATION.match(text)
    if duration:  # as a Parquet duration is read
        day = _day_fraction(duration[2], duration[3], duration[4])
        return None if day is None else (int(duration[1]) + day, DURATIONS)
    time = _TIME.match(text)
    if time:  # as a Parquet time of day is read: 12:00 is 0.5
        day = _day_fraction(time[1], time[2], time[3])
        return None if day is None else (day, TIMES)
    if text[:1] == "(" and text[-1:] == ")":  # accounting's negatives
        inner = formatted_number(text[1:-1], decimal_comma, points_group) or _plain(text[1:-1])
        if inner is None or inner[0] < 0:
            return None
        return -inner[0], ", ".join(f for f in (PARENTHESES, inner[1]) if f)
    unit = _UNIT.match(text)
    if unit and text[-1:] not in CURRENCY_SIGNS and not text.endswith("%"):
        inner = formatted_number(unit.group(1), decimal_comma, points_group) or _plain(unit.group(1))
        if inner is None:
            return None
        return inner[0], ", ".join(f for f in (f"{UNIT_PREFIX}{unit.group(2)!r}", inner[1]) if f)
    sign, forms = 1.0, []
    if text[:1] in ("+", "-"):
        sign, text = (-1.0 if text[0] == "-" else 1.0), text[1:].lstrip()
    if text[:1] and text[:1] in CURRENCY_SIGNS:
        text, forms = text[1:].lstrip(), [CURRENCY]
        if sign == 1.0 and text[:1] in ("+", "-"):  # $-5
            sign, text = (-1.0 if text[0] == "-" else 1.0), text[1:].lstrip()
    elif text[-1:] and text[-1:] in CURRENCY_SIGNS:
        text, forms = text[:-1].rstrip(), [CURRENCY]
    scale = 1.0
    if text.endswith("%"):
        text, scale = text[:-1].rstrip(), 0.01
        forms.append(PERCENT)
    if points_group and _GROUPED_POINTS.match(text):  # 3.386 and 1.000 € where 0,5 is a half
        value = float(text.replace(".", ""))
        forms.append(THOUSANDS)
    elif _PLAIN.match(text):
        value = float(text)
    elif not decimal_comma and _GROUPED.match(text):
        value = float(text.replace(",", ""))
        forms.append(THOUSANDS)
    elif decimal_comma and _COMMA_DECIMAL.match(text):
        value = float(text.replace(",", "."))
        forms.append(DECIMAL_COMMA)
    elif decimal_comma and _GROUPED_COMMA_DECIMAL.match(text):
        value = float(text.replace(".", "").replace(",", "."))
        forms.append(THOUSANDS)
        if "," in text:
            forms.append(DECIMAL_COMMA)
    elif _GROUPED_SPACES.match(text) and ("." if decimal_comma else ",") not in text:
        # 32 610,55 where the comma is the decimal mark, 32 610.55 where the point is
        value = float(re.sub(f"[{_SPACES}]", "", text).replace(",", "."))
        forms.append(THOUSANDS)
        if "," in text:
            forms.append(DECIMAL_COMMA)
    else:
        return None
    if not forms:  # a plain number with a sign and spaces between: "- 5" is no number
        return None
    return sign * value * scale, ", ".join(forms)


def _plain(text):
    """``(value, None)`` of a plain number, for a form around one (``(5)``, ``5 kg``)."""
    v = plain_number(text)
    return None if v is None or not math.isfinite(v) else (v, None)


def _day_fraction(hours, minutes, seconds):
    """The fraction of a day of a clock's ``hours``, ``minutes`` and ``seconds`` (texts; seconds
    may be None), or None where one is out of its range (``24:00``, ``12:61``).
    """
    hours, minutes, seconds = int(hours), int(minutes), float(seconds or 0)
    if hours > 23 or minutes > 59 or seconds >= 60:
        return None
    return (hours * 3600 + minutes * 60 + seconds) / 86400


def _date(text):
    try:
        when = datetime.fromisoformat(text)  # to the microsecond
    except ValueError:  # 2020-13-45
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    days = (when - _EPOCH).total_seconds() / 86400.0
    fraction = re.search(r"\.[0-9]{7,9}", text)  # nanoseconds, as pyarrow's timestamp[ns] keeps them
    if fraction:
        days += int(fraction[0][7:].ljust(3, "0")) / 86_400_000_000_000
    return days, DATES


def writes_decimal_comma(cell):
    """Whether a cell is a number with a decimal comma (``0,126``, ``-1.234,5``)."""
    text = cell.strip().lstrip("+-")
    grouped = _GROUPED_COMMA_DECIMAL.match(text) or _GROUPED_SPACES.match(text)
    return bool(_COMMA_DECIMAL.match(text) or (grouped and "," in text))


#: the marks of no value that a column may hold alone and still be a column of numbers, every
#: value missing: those the streamed reader's parser takes for missing cells, exactly as written
#: (:mod:`perceptrons.io.arrow`), so that both readers read such a column alike
NULL_MARKS = frozenset(
    ["?", "-", "--", ".", "*"] + [w for word in PLACEHOLDER_WORDS for w in (word, word.title(), word.upper())]
)


def is_placeholder(cell):
    """Whether a cell that is no number stands for an unknown value in a column of numbers: a
    mark of punctuation and symbols only (``?``, ``-``, ``.``) or one of :data:`PLACEHOLDER_WORDS`.
    """
    text = cell.strip().lower()
    # punctuation, symbols and spaces only: a control character (a NUL byte) is no mark of a user's
    return bool(text) and (text in PLACEHOLDER_WORDS or all(unicodedata.category(ch)[0] in "PSZ" for ch in text))
