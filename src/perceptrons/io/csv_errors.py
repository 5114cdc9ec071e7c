"""Where in a CSV file the error pyarrow reports is: its line.

``pyarrow.csv`` names what is wrong (bytes that are not UTF-8, a row with another number of
fields than the header, a cell without its column's type) but not where.  On that error path
only, the file is read again, line by line, plain or gzip, to find the line.  The messages are
those of the in-memory reader (:mod:`perceptrons.io.delimited`).
"""

import contextlib
import re
import shlex

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.chunks import opened

#: pyarrow's message for a row whose number of fields is not the header's
RAGGED = re.compile(r"Expected (\d+) columns, got (\d+)")


def _comment_hint(first_field):
    """The advice for a line that starts with ``#``, which a CSV reader reads as a row."""
    if first_field.lstrip().startswith("#"):
        return "; a line starting with # is a row to a CSV reader, not a comment: remove the comment lines"
    return ""


def ragged_row(where, row, expected):
    """The error for a row of ``len(row)`` fields where the header has ``expected``."""
    hint = _comment_hint(row[0]) if row else ""
    return PerceptronsError(f"{where}: {len(row)} fields, expected {expected} as in the header{hint}")


def too_few_columns(where, header):
    """The error for a header of fewer than two columns (a feature and the label)."""
    shown = [h[:60] for h in header[:3]]
    hint = _comment_hint(header[0]) if header else ""
    return PerceptronsError(f"{where}: expected at least one feature column and a label column; got {shown}{hint}")


def undecodable(path, encoding="utf-8"):
    """The error naming the first line that is not text of ``encoding``, or None when every line is."""
    for lineno, raw in _lines(path):
        try:
            raw.decode(encoding)
        except UnicodeDecodeError as exc:
            named = "UTF-8" if encoding == "utf-8" else encoding
            hint = "; a table in Latin-1 or Windows-1252 is read with --encoding cp1252" if encoding == "utf-8" else ""
            return PerceptronsError(
                f"{path}, line {lineno}: not {named} text (byte {raw[exc.start]:#04x} at column {exc.start + 1}){hint}"
            )
    return None


def _lines(path):
    """``(line number, bytes)`` of a plain or gzip file, to find the line of an error pyarrow
    reports without one; a stream that ends early just ends the search.
    """
    import zlib

    with opened(path) as f:
        try:
            yield from enumerate(f, 1)
        except (OSError, EOFError, zlib.error):
            return


def csv_error(path, names, reason, delimiter, encoding="utf-8"):
    """The error for what pyarrow refused in a CSV block, with its line where it can be found:
    bytes that are not UTF-8, a row with another number of fields than the header, or a cell
    without its column's type (fixed by the first block).  pyarrow's message names what is
    wrong, not where.
    """
    if "invalid UTF8" in reason:
        return undecodable(path, encoding) or PerceptronsError(f"{path}: {reason}")
    ragged = RAGGED.search(reason)
    if ragged:  # a row with another number of fields than the header (as the in-memory reader says it)
        expected, got = int(ragged[1]), int(ragged[2])
        where, row = _first_row(path, delimiter, lambda row: len(row) == got, encoding)
        return ragged_row(where or path, row or [""] * got, expected)
    found = re.search(r"column #(\d+): (?:Row #\d+: )?CSV conversion error to (\w+): invalid value '(.*)'$", reason)
    if found is None:
        return PerceptronsError(f"{path}: {reason}; expected the column types of the first rows")
    k, kind, value = int(found[1]), found[2], found[3]
    where, _ = _first_row(path, delimiter, lambda row: len(row) > k and row[k] == value, encoding)
    kind = "a number" if kind == "double" else f"a value of type {kind}"
    # a stream is not read ahead: the first run fixed the column's kind
    return PerceptronsError(
        f"{where or path}: column {names[k]!r} holds {value!r}; expected {kind}, as in the file's first rows, which "
        f"fix a streamed column's kind; correct the cell, or --drop {shlex.quote(names[k])} to leave the column out"
    )


def _first_row(path, delimiter, wanted, encoding="utf-8"):
    """``("path, line n", its fields)`` of the first data row (after the header) for which
    ``wanted(fields)`` holds, or (None, None): pyarrow's messages name what is wrong, not where.
    """
    import csv

    reader = csv.reader((raw.decode(encoding, errors="replace") for _, raw in _lines(path)), delimiter=delimiter)
    with contextlib.suppress(csv.Error):  # a field csv cannot read: the message goes without the line
        for row in reader:
            if reader.line_num > 1 and wanted(row):
                return f"{path}, line {reader.line_num}", row
    return None, None
