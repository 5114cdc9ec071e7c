"""Which mark separates the fields of a text table: the comma, or what the file's first line says.

A file named ``.csv`` is not always separated by commas: spreadsheets where the comma is the
decimal mark write semicolons (``0,126;0,788;1``), and tabs and bars are common too.  Excel also
writes, as the first line of a file it means to read back, ``sep=;``.  The in-memory and the
streamed readers find the separator by these same rules, so a file reads the same either way.
"""

import re

from perceptrons.io.delimited import text_lines

#: separators a file named .csv may use, besides the comma
OTHER_SEPARATORS = (";", "\t", "|")


def sniff_delimiter(path, delimiter, encoding="utf-8"):
    """``(delimiter, hint)``: :func:`delimiter_of` the file's first line that is not blank, or
    the separator Excel's hint line names (``sep=;``, which it writes as the first line of a
    file it means to read back), ``hint`` True when the file starts with such a line.
    """
    first = next((t for t in text_lines(path, encoding) if t.strip()), "")
    hint = excel_separator(first)
    if hint:
        return hint, True
    return delimiter_of(first.rstrip("\r\n").strip(" "), delimiter), False


#: Excel's first line that names a file's separator
_EXCEL_SEP = re.compile(r"^sep=([,;\t|])$")


def excel_separator(line):
    """The separator Excel's first line ``sep=;`` names (``line`` with or without its line
    break), or None for another line.
    """
    hint = _EXCEL_SEP.match(line.rstrip("\r\n").strip(" "))  # "sep=\t" keeps its tab
    return hint.group(1) if hint else None


def delimiter_of(line, delimiter=","):
    """``delimiter``, unless it is the comma and ``line`` (a header) holds none outside quotes
    but holds one of :data:`OTHER_SEPARATORS`: then the one it holds most (spreadsheets where
    the comma is the decimal mark write ``;``).
    """
    if delimiter != ",":
        return delimiter
    counts, quoted = dict.fromkeys((",", *OTHER_SEPARATORS), 0), False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in counts:
            counts[ch] += 1
    if counts[","]:
        return ","
    best = max(OTHER_SEPARATORS, key=lambda d: counts[d])
    return best if counts[best] else ","


#: a field of a decimal comma (0,126) in a line separated by semicolons
_COMMA_DECIMAL = re.compile(r"(?:^|;)\s*\"?[+-]?[0-9]*,[0-9]+\"?\s*(?:;|$)")


def decimal_comma_in(line):
    """Whether a data line separated by semicolons writes a number with a decimal comma."""
    return bool(_COMMA_DECIMAL.search(line))
