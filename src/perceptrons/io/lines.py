"""Lines of a text file, decoded one at a time so that bad bytes are reported with their line."""

import os
import re
from functools import partial

from perceptrons._core.errors import PerceptronsError

#: the longest line a reader takes.  A line is read whole before it is checked; an input with
#: no line break at all (``/dev/zero``, a binary file) would otherwise be read until memory
#: runs out.  Real lines are far shorter: a dense LIBSVM row of a million features is ~10 MB.
MAX_LINE_BYTES = 256 << 20


def line_too_long(where):
    """The error for a line longer than :data:`MAX_LINE_BYTES`; ``where`` names the file and line."""
    return PerceptronsError(
        f"{where}: a line longer than {MAX_LINE_BYTES >> 20} MiB; expected lines of text (is this a text file?)"
    )


#: the first bytes of the compressed files read as text otherwise ("not UTF-8, try --encoding
#: cp1252", "a bare carriage return", "a NUL byte"): bzip2's with its first block's magic
_COMPRESSED = (
    (re.compile(rb"BZh[1-9]1AY&SY"), "bzip2"),
    (re.compile(re.escape(b"\xfd7zXZ\x00")), "xz"),
    (re.compile(re.escape(b"\x28\xb5\x2f\xfd")), "zstd"),
    (re.compile(re.escape(b"7z\xbc\xaf\x27\x1c")), "7-Zip"),
    (re.compile(re.escape(b"PK\x03\x04")), "zip"),
)


def check_not_compressed(path, head):
    """Refuse a file whose first bytes ``head`` are those of a compression other than gzip (which
    is read as it is): its bytes would be read as text, and refused for what they are not.
    """
    for magic, name in _COMPRESSED:
        if magic.match(head):
            raise PerceptronsError(f"{path}: compressed with {name}; expected text: decompress it first")


def utf8_lines(path):
    """Yield ``(line number, text without the line break)``; a line that is not UTF-8 raises
    :class:`PerceptronsError` naming the file, the line, the byte and its column.

    A UTF-8 byte-order mark at the start of the file is dropped: Windows editors write one,
    and left in place it would become part of the first word (another word, another tag).
    """
    path = os.fspath(path)
    with open(path, "rb") as f:
        check_not_compressed(path, f.peek(10)[:10])
        yield from decoded_lines(path, bounded_lines(f))


def bounded_lines(f):
    """The byte lines of the open binary file ``f``, none read further than one byte past
    :data:`MAX_LINE_BYTES` (which :func:`decoded_lines` refuses).
    """
    return iter(partial(f.readline, MAX_LINE_BYTES + 1), b"")


#: what to do with text that is not UTF-8, for a reader that takes no other encoding (CoNLL-U)
CONVERT_TO_UTF8 = "convert it, e.g. iconv -f CP1252 -t UTF-8 for Latin-1 or Windows-1252 text"


def decoded_lines(path, raw_lines, first=1, where=None, keep_ends=False, encoding="utf-8", remedy=CONVERT_TO_UTF8):
    """:func:`utf8_lines` of the byte lines ``raw_lines`` of the file ``path``, the first of
    them its line number ``first``.  ``where(n)`` names line n in an error (``path:n`` by
    default); ``keep_ends`` keeps each line's line break; ``encoding``: another the user named
    (:func:`perceptrons.io.encodings.check_encoding`); ``remedy``: what the error of a line that
    is not UTF-8 advises (a table's reader takes ``--encoding``; CoNLL-U's does not).
    """
    where = where or (lambda n: f"{path}:{n}")
    for lineno, raw in enumerate(raw_lines, first):
        if len(raw) > MAX_LINE_BYTES:
            raise line_too_long(where(lineno))
        if encoding != "utf-8":
            try:
                yield lineno, _decoded(raw, encoding, keep_ends)
            except UnicodeDecodeError as exc:
                raise PerceptronsError(
                    f"{where(lineno)}: not valid {encoding} (byte {raw[exc.start]:#04x} at column {exc.start + 1})"
                ) from None
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            if lineno == 1 and raw[:2] == b"\x1f\x8b":
                raise PerceptronsError(
                    f"{where(lineno)}: gzip-compressed; expected plain text (gunzip it first)"
                ) from None
            if lineno == 1 and raw[:4] in (b"PK\x03\x04", b"\xd0\xcf\x11\xe0"):
                raise PerceptronsError(
                    f"{where(lineno)}: a zip or OLE2 file (a spreadsheet workbook?), not text; save the sheet as "
                    '"CSV UTF-8"'
                ) from None
            if lineno == 1 and raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
                raise PerceptronsError(
                    f"{where(lineno)}: not valid UTF-8: UTF-16 text (it starts with the byte-order mark "
                    f'{raw[0]:#04x} {raw[1]:#04x}); save it as UTF-8 (a spreadsheet\'s "CSV UTF-8") or convert it '
                    "(iconv -f UTF-16 -t UTF-8)"
                ) from None
            raise PerceptronsError(
                f"{where(lineno)}: not valid UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1}); expected "
                f"UTF-8 text: {remedy}"
            ) from None
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]
        yield lineno, (line if keep_ends else line.rstrip("\r\n"))


def _decoded(raw, encoding, keep_ends):
    line = raw.decode(encoding)
    return line if keep_ends else line.rstrip("\r\n")
