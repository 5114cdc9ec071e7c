"""The streamed CSV's rule for a column: numbers or text, throughout the file.

pyarrow types each column from the first block; a column of text is then hashed as categories
(as documented), where the in-memory reader refuses any cell that is not a number.  A cell that
breaks the rule is refused naming its line, whichever block it is in.
"""

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.labels import is_float


def check_mixed(path, columns, feature_names, places, first):
    """Refuse a CSV column of numbers with a cell that is not one: read as text, the whole column
    would be hashed as categories, where the in-memory reader stops at that cell (a typo in a
    column of numbers, most likely).  A column of text throughout is hashed, as documented.

    The first block (``first``) fixes each column's type; in every later block a column of
    text must hold no number either (a column is numbers or text, throughout the file).
    ``places[i]`` names the line of the block's row ``i``.
    """
    import pyarrow.types as pt

    for name, column in zip(feature_names, columns):
        if not (pt.is_string(column.type) or pt.is_large_string(column.type)):
            continue
        values = column.unique()
        numbers = count_numbers(values)
        if first and 0 < numbers < len(values):
            row, value = next((i, v) for i, v in enumerate(column.to_pylist()) if not _is_number(v))
            raise PerceptronsError(
                f"{path}, {places[row]}: column {name!r} holds {value!r} among numbers; "
                "expected a number (give --hash-bits to read the column as text categories)"
            )
        if not first and numbers:
            row, value = next((i, v) for i, v in enumerate(column.to_pylist()) if _is_number(v))
            raise PerceptronsError(
                f"{path}, {places[row]}: column {name!r} holds the number {value!r}, "
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
