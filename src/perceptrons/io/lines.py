"""Lines of a text file, decoded one at a time so that bad bytes are reported with their line."""

import os

from perceptrons._validation import PerceptronsError


def utf8_lines(path):
    """Yield ``(line number, text without the line break)``; a line that is not UTF-8 raises
    :class:`PerceptronsError` naming the file, the line, the byte and its column.

    A UTF-8 byte-order mark at the start of the file is dropped: Windows editors write one,
    and left in place it would become part of the first word (another word, another tag).
    """
    path = os.fspath(path)
    with open(path, "rb") as f:
        yield from decoded_lines(path, f)


def decoded_lines(path, raw_lines, first=1):
    """:func:`utf8_lines` of the byte lines ``raw_lines`` of the file ``path``, the first of
    them its line number ``first``.
    """
    for lineno, raw in enumerate(raw_lines, first):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PerceptronsError(
                f"{path}:{lineno}: not valid UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1})"
            ) from None
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]
        yield lineno, line.rstrip("\r\n")
