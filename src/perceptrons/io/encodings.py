"""The text encoding a table is read in: UTF-8, or one the user names.

Excel on Windows saves "CSV" in the system's code page (Windows-1252 in Western Europe and the
Americas), and many data sets are still Latin-1.  Such a file is refused as not UTF-8 unless its
encoding is given (``--encoding cp1252``), as pandas' ``read_csv(encoding=...)`` reads it: a
guess would read another code page's letters as the wrong ones without a word.  The readers
split a file into lines and fields on its bytes (line breaks, commas, tabs, quotes), so an
encoding must write ASCII as ASCII does: UTF-16 and UTF-32 do not, and are refused.
"""

import codecs

from perceptrons._core.errors import PerceptronsError

#: the encoding every reader takes unless told another
DEFAULT_ENCODING = "utf-8"
#: what a file's structure is made of, which an encoding must write as ASCII does
_ASCII = bytes(range(1, 128))


def check_encoding(name, where="--encoding"):
    """The codec name of a text encoding every reader can take, or a one-line error naming ``where``.

    Parameters
    ----------
    name : str
        An encoding Python knows (``"cp1252"``, ``"latin-1"``, ``"shift_jis"``).
    where : str
        The option or parameter, for the error.

    Returns
    -------
    str
        Its codec's name (``"iso8859-1"`` for ``"latin-1"``); ``"utf-8"`` for UTF-8 with or
        without a byte-order mark (one at the start of a file is dropped anyway).

    Raises
    ------
    PerceptronsError
        An unknown name, or an encoding that does not write ASCII as ASCII does.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > 64:
        raise PerceptronsError(f"{where}: expected the name of a text encoding (utf-8, cp1252, latin-1, ...)")
    try:
        info = codecs.lookup(name.strip())
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        raise PerceptronsError(
            f"{where}: {name[:64]!r} is no text encoding Python knows; expected a name such as utf-8, cp1252 or latin-1"
        ) from None
    if info.name in ("utf-8", "utf-8-sig"):
        return DEFAULT_ENCODING
    try:
        ascii_as_ascii = _ASCII.decode("ascii").encode(info.name) == _ASCII
    except LookupError:  # a codec of bytes to bytes (base64, zlib) or of text to text (rot13)
        raise PerceptronsError(
            f"{where}: {name[:64]!r} is no text encoding; expected a name such as utf-8, cp1252 or latin-1"
        ) from None
    except UnicodeError:
        ascii_as_ascii = False
    if not ascii_as_ascii:
        raise PerceptronsError(
            f"{where}: {name[:64]!r} does not write ASCII as ASCII does (as UTF-16 and UTF-32 do not), so lines and "
            f"fields cannot be found in its bytes; expected an encoding such as utf-8, cp1252 or latin-1 (convert the "
            f"file with iconv -f {name[:64]} -t UTF-8)"
        )
    return info.name
