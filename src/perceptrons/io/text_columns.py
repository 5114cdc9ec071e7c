"""The streamed CSV's rule for a column: numbers or text, throughout the file.

pyarrow types each column from the first block; a column of text is then hashed as categories
(as documented), where the in-memory reader refuses any cell that is not a number.  A cell that
breaks the rule is refused naming its line, whichever block it is in.
"""

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.labels import is_float


def row_where(path, row, first_row_line):
    """Where row ``row`` (0-based) of ``path`` is: its file line for CSV (``first_row_line``
    that of row 0), its row number otherwise.
    """
    return f"{path}, line {first_row_line + row}" if first_row_line else f"{path}, row {row + 1}"


def check_mixed(path, columns, feature_names, first_row_line, done):
    """Refuse a CSV column of numbers with a cell that is not one: read as text, the whole column
    would be hashed as categories, where the in-memory reader stops at that cell (a typo in a
    column of numbers, most likely).  A column of text throughout is hashed, as documented.

    The first block (``done`` 0) fixes each column's type; in every later block a column of
    text must hold no number either (a column is numbers or text, throughout the file).
    """
    import pyarrow.types as pt

    for name, column in zip(feature_names, columns):
        if not (pt.is_string(column.type) or pt.is_large_string(column.type)):
            continue
        values = column.unique()
        numbers = count_numbers(values)
        if done == 0 and 0 < numbers < len(values):
            row, value = next((i, v) for i, v in enumerate(column.to_pylist()) if not _is_number(v))
            raise PerceptronsError(
                f"{row_where(path, row, first_row_line)}: column {name!r} holds {value!r} among numbers; "
                "expected a number (give --hash-bits to read the column as text categories)"
            )
        if done and numbers:
            row, value = next((i, v) for i, v in enumerate(column.to_pylist()) if _is_number(v))
            raise PerceptronsError(
                f"{row_where(path, done + row, first_row_line)}: column {name!r} holds the number {value!r}, "
                "but its first rows are text; expected text throughout (give --hash-bits to read every "
                "column as text categories)"
            )


#: what a number's text (:func:`~perceptrons.io.labels.is_float`) starts with: Python's ASCII
#: white space, a sign, then a digit, a point and a digit, nan or inf.  Only values that match
#: are given to is_float, so that a column of words costs one vectorised pass.
_NUMBER_START = r"^[\t\n\x0b\x0c\r\x1c-\x1f ]*[+-]?(\d|\.\d|nan|inf)"


def count_numbers(values):
    """How many of the strings ``values`` (a pyarrow array) are numbers; ``nan`` is not one,
    but a missing cell (pyarrow keeps the words for missing as text in a column of text, and
    a column of words with one ``NaN`` is text, as it is in memory).
    """
    import pyarrow.compute as pc

    candidates = values.filter(pc.match_substring_regex(values, _NUMBER_START, ignore_case=True))
    return sum(map(_is_number, candidates.to_pylist()))


def _is_number(value):
    """Whether the text ``value`` is a number other than NaN."""
    return is_float(value) and float(value) == float(value)
