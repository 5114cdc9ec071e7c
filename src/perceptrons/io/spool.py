"""Standard input (or a pipe) copied to a file the readers can measure, seek and read again.

The readers need a real file: ``.npz`` and Parquet are read by seeking, the in-memory readers
check a file's size first, a streamed fit reads its source again when its epoch cache must be
rebuilt, and an error is located by reading the file again.  A pipe can be read once, so its
bytes are copied first, with a bound: an input that cannot end well (``/dev/zero``) is refused
before it fills the disk.
"""

import os
import shutil
import tempfile
import time
import weakref

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.atomic import CHUNK, signals_deferred
from perceptrons.io.lines import MAX_LINE_BYTES, line_too_long


def copy_bounded(name, src, dst, *, text, limit, hint):
    """Copy ``src`` to ``dst``, refusing more than ``limit`` bytes or (``text``) a first line
    longer than any reader takes.

    Parameters
    ----------
    name : str
        The input as messages name it ("standard input").
    src, dst : binary files
    text : bool
        Whether the format is read by lines (not gzip: its lines come inflated).
    limit : int
        Bytes the copy may hold (free memory, free disk).
    hint : str
        What the user can do instead, appended to the refusal.

    Raises
    ------
    PerceptronsError
    """
    copied, newline = 0, False
    while chunk := src.read(CHUNK):
        if text and not newline:
            newline = b"\n" in chunk or (copied == 0 and chunk[:2] == b"\x1f\x8b")  # gzip: lines come inflated
            if not newline and copied + len(chunk) > MAX_LINE_BYTES:
                raise line_too_long(f"{name}:1")
        copied += len(chunk)
        if copied > limit:
            raise PerceptronsError(f"{name}: more than {limit / 1e9:.1f} GB, {hint}")
        dst.write(chunk)


class Spool:
    """Standard input's bytes (or a pipe's) in an unlinked temporary file, open while this object lives.

    ``path`` opens the file afresh, at its start, as often as asked (``/proc/self/fd/N``), so
    it can be read like any regular file; no name is left on disk even when the process is
    killed.  Where ``/proc`` is absent the file keeps its name until this object is collected.

    Parameters
    ----------
    text : bool
        Whether the format is read by lines (a first line too long is refused early).
    path : str, optional
        A pipe or a device to copy instead of standard input.

    Raises
    ------
    PerceptronsError
        The input closed, unreadable, or larger than the free disk.
    """

    def __init__(self, text, path=None):
        import sys

        name = "standard input" if path is None else path
        try:
            stdin = getattr(sys.stdin, "buffer", sys.stdin) if path is None else open(path, "rb")
        except OSError as exc:
            raise PerceptronsError(f"{path}: cannot read: {exc.strerror or exc}") from None
        if stdin is None:
            raise PerceptronsError("-: standard input is closed")
        with signals_deferred():  # a signal between the two steps would leave the named file
            fd, tmp = tempfile.mkstemp(prefix="perceptrons-input-")
            proc = f"/proc/self/fd/{fd}"
            if os.path.exists(proc):
                os.unlink(tmp)
                self.path, named = proc, None
            else:  # pragma: no cover - every Linux has /proc
                self.path, named = tmp, tmp
        self._finalizer = weakref.finalize(self, _release, fd, named)
        #: this copy's own number, which no other run's input shares (an epoch cache of it is never reused)
        self.nonce = time.time_ns() ^ (os.getpid() << 20) ^ fd
        try:
            with open(fd, "wb", closefd=False) as f:
                limit = shutil.disk_usage(tempfile.gettempdir()).free
                try:
                    copy_bounded(name, stdin, f, text=text, limit=limit, hint="more than the free disk; give a file")
                except OSError as exc:
                    raise PerceptronsError(f"{name}: cannot read: {exc.strerror or exc}") from None
        except BaseException:
            self.close()
            raise
        finally:
            if path is not None:
                stdin.close()

    def close(self):
        """Remove the copy now (it is removed when this object is collected otherwise)."""
        self._finalizer()


def _release(fd, named):
    os.close(fd)
    if named is not None:  # pragma: no cover - see Spool
        os.unlink(named)
