"""The streamed CSV's rule for a column: numbers or text, throughout the file.

pyarrow types each column from the first block; a column of text is then hashed as categories
(as documented), where the in-memory reader refuses any cell that is not a number.  A cell that
breaks the rule is refused naming its line, whichever block it is in.
"""

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.labels import is_float


def check_mixed(path, columns, feature_names, places, first, mixed):
    """Refuse a CSV column of numbers with a few cells that are not (under
    :data:`~perceptrons.io.table.TYPO_SHARE` of them, as the in-memory reader refuses them: a
    typo in a column of numbers, most likely): read as text, the whole column would be hashed as
    categories.  A column of text throughout is hashed, as documented, and so is one of numbers
    and words with more words than that (``drv``: 4, f, r), as the in-memory reader reads it as
    text.

    The first block (``first``) fixes each column's type, and adds the names of the columns of
    numbers and words to the set ``mixed``; in every later block another column of text must
    hold no number (a column is numbers or text, throughout the file).  ``places[i]`` names the
    line of the block's row ``i``.
    """
    import pyarrow.compute as pc
    import pyarrow.types as pt

    from perceptrons.io.table import TYPO_SHARE

    for name, column in zip(feature_names, columns):
        if name in mixed or not (pt.is_string(column.type) or pt.is_large_string(column.type)):
            continue
        values = column.unique()
        numbers = count_numbers(values)
        if first and 0 < numbers < len(values):
            tally = pc.value_counts(column)
            counts = tally.field("counts").to_numpy()
            words = [bool(v and v.strip()) and not _is_number(v) for v in tally.field("values").to_pylist()]
            if sum(c for c, w in zip(counts, words) if w) > TYPO_SHARE * int(counts.sum()):
                mixed.add(name)  # numbers and words: text, as in memory
                continue
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
