"""Text read in runs of complete lines, plain or gzip: the front end of the compiled parsers.

The LIBSVM and Vowpal Wabbit readers parse byte buffers in compiled code; this module hands
them the buffers.  One buffer is reused for the whole file (a chunk is valid until the next is
asked for), the partial last line of a chunk is carried into the next, and a line longer than
the buffer doubles it.  gzip is told by the file's first two bytes, whatever its name; a
truncated or corrupt stream is one clear error, never a traceback.
"""

import contextlib
import gzip
import zlib

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.lines import MAX_LINE_BYTES, check_not_compressed, line_too_long

GZIP_MAGIC = b"\x1f\x8b"


# a line ending is looked for in the last bytes of a chunk first: lines are far shorter than this
_TAIL = 1 << 16


@contextlib.contextmanager
def opened(path):
    """The file's bytes, decompressed when it starts with the gzip magic."""
    try:
        raw = open(path, "rb")
    except OSError as exc:
        raise PerceptronsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with raw:
        try:
            head = raw.peek(10)[:10]
        except OSError as exc:  # a directory opens on some systems and fails here
            raise PerceptronsError(f"{path}: cannot read: {exc.strerror or exc}") from None
        check_not_compressed(path, head)
        if head[:2] == GZIP_MAGIC:
            with gzip.GzipFile(fileobj=raw, mode="rb") as gz:
                yield gz
        else:
            yield raw


def is_gzip(path):
    """Whether the file starts with gzip's magic bytes."""
    try:
        with open(path, "rb") as f:
            return f.read(2) == GZIP_MAGIC
    except OSError as exc:
        raise PerceptronsError(f"{path}: cannot read: {exc.strerror or exc}") from None


def gzip_error(path, exc):
    """The one-line error of a gzip stream that could not be read: truncated (``EOFError``) or
    corrupt (``BadGzipFile``, ``zlib.error``).
    """
    if isinstance(exc, EOFError):
        return PerceptronsError(
            f"{path}: the gzip stream is truncated (it ends before its end-of-stream marker); "
            "expected a complete gzip file"
        )
    return PerceptronsError(f"{path}: corrupt gzip data ({exc}); expected a valid gzip file")


#: what reading a gzip stream raises when the stream is bad
GZIP_ERRORS = (EOFError, gzip.BadGzipFile, zlib.error)


def fill(f, buf, have, path):
    """Read into ``buf[have:]`` until it is full or the file ends; ``(bytes in buf, at end)``."""
    view = memoryview(buf)
    while have < buf.shape[0]:
        try:
            got = f.readinto(view[have:])
        except GZIP_ERRORS as exc:
            raise gzip_error(path, exc) from None
        except OSError as exc:
            raise PerceptronsError(f"{path}: cannot read: {exc.strerror or exc}") from None
        if not got:
            return have, True
        have += got
    return have, False


def last_newline(buf, n):
    """Index of the last newline in ``buf[:n]``, or −1 (the tail is searched first, without a scan)."""
    lo = max(0, n - _TAIL)
    k = bytes(buf[lo:n]).rfind(b"\n")
    if k >= 0:
        return lo + k
    return bytes(buf[:lo]).rfind(b"\n") if lo else -1


def line_chunks(path, block_bytes):
    """Yield ``(buf, n, byte)``: ``buf[:n]`` holds complete lines starting at decompressed byte
    ``byte`` of the file (the last chunk's last line may lack its newline).  An empty file
    yields nothing.
    """
    buf = np.empty(max(int(block_bytes), 4), np.uint8)
    have, byte, eof = 0, 0, False
    with opened(path) as f:
        while True:
            if not eof:
                have, eof = fill(f, buf, have, path)
            if have == 0:
                return
            n = have if eof else last_newline(buf, have) + 1
            if n == 0:  # a line longer than the buffer: make room and read on
                if have > MAX_LINE_BYTES:
                    raise line_too_long(f"{path}, byte {byte}")
                grown = np.empty(2 * buf.shape[0], np.uint8)
                grown[:have] = buf[:have]
                buf = grown
                continue
            yield buf, n, byte
            byte += n
            buf[: have - n] = buf[n:have]  # the partial last line, to be completed
            have -= n
