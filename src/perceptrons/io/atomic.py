"""The project's one way of writing an output file: whole or not at all.

Where the bytes go depends on what the output path names:

* ``-`` — standard output (``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` and
  ``/proc/self/fd/N`` likewise go to that descriptor).  Nothing is renamed: replacing the file
  behind a descriptor would detach the descriptor the caller holds.
* a regular file, or a name that does not exist yet — the data goes to a temporary file
  ``.tmp-XXXXXXXX-NAME`` in the destination's directory, is flushed and ``fsync``-ed, and the
  temporary file is renamed over the destination (``os.replace``).  A reader sees the old file
  or the new one, never a part; any failure removes the temporary file and leaves the old file
  as it was.  A symbolic link is followed: its target is replaced and the link stays.
* a character device or a FIFO (``-o /dev/null``, ``-o /dev/full``, a named pipe) — written
  into, in place, as ``cp`` or a shell redirection would: there is no file to replace, and
  replacing ``/dev/null`` by a regular file (which a rename does, as root) would break the
  system.  Such a write cannot be atomic; a failure stops it where it is.
* anything else is refused with a one-line error: a directory, a block device (a model
  written over a disk destroys it, and is never what ``-o`` was meant for), a socket (it
  cannot be opened).

Modes: a new file gets what the umask allows (``0666 & ~umask``, as ``open()`` and shell
redirections give); an overwritten file keeps its mode, and its owner and group where the
process may set them.

Errors: any ``OSError`` while writing (disk full, quota, I/O error, permission) becomes one
:class:`PerceptronsError` naming the output — ``m.npz: cannot write: No space left on
device``.  ``BrokenPipeError`` is let through unchanged, so that the command line can end
quietly when a reader such as ``head`` stops reading.

Signals: while a write is under way, SIGTERM and SIGHUP (``timeout``, ``docker stop``, batch
schedulers, a closed terminal) raise :class:`Terminated` in the main thread instead of ending
the process on the spot, so the temporary file is removed; then the signal is delivered again
with its default action, so the process still ends as signalled (status 128 + signum in a
shell).  Handlers are installed only in the main thread and only over the default action: an
ignored signal (``nohup``) stays ignored and an application's own handler is left in charge.
"""

import contextlib
import errno
import os
import re
import secrets
import signal
import stat
import sys
import threading

from perceptrons._core.errors import PerceptronsError

#: bytes handed to one write() call: a signal is acted on between two calls, so a large model
#: is abandoned within one chunk rather than after the whole payload
CHUNK = 4 << 20
#: the most a :class:`_Checked` hands to one write: what a pipe holds (Linux's default)
PIECE = 1 << 16

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_DESCRIPTOR = re.compile(r"/dev/(?P<std>stdout|stderr)|/dev/fd/(?P<fd>\d+)|/proc/self/fd/(?P<pfd>\d+)")


# ----------------------------------------------------------------------------- signals
class Terminated(SystemExit):
    """SIGTERM or SIGHUP arrived inside :func:`cleanup_on_signals`.

    A ``SystemExit`` (not an ``Exception``) so that no ``except Exception`` on the way swallows
    it; its code, 128 + signum, is the status the process ends with should re-delivering the
    signal not end it.
    """

    def __init__(self, signum):
        super().__init__(128 + signum)
        self.signum = signum


class _Guard:
    def __init__(self):
        self.hit = None  # the first signal received
        self.defer = 0  # > 0: record a signal, raise when the critical section ends
        self.previous = {}

    def handler(self, signum, frame):
        # Only the first signal raises: a second SIGTERM while the first one's cleanup runs
        # must not interrupt that cleanup.
        if self.hit is None:
            self.hit = signum
            if not self.defer:
                raise Terminated(signum)


_guard = None


@contextlib.contextmanager
def cleanup_on_signals():
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated`, so ``finally`` clauses and
    ``except BaseException`` cleanups run; when the block is left, the signal is delivered again
    with its default action and the process ends as signalled.

    Nested uses are one: only the outermost installs handlers.  Outside the main thread, and for
    a signal that is ignored or has a handler of the application's, nothing changes.
    """
    global _guard
    if _guard is not None or threading.current_thread() is not threading.main_thread():
        yield
        return
    guard = _Guard()
    for sig in _SIGNALS:
        try:
            if signal.getsignal(sig) is signal.SIG_DFL:
                guard.previous[sig] = signal.signal(sig, guard.handler)
        except (OSError, ValueError):  # an interpreter that does not own its signals
            pass
    _guard = guard
    try:
        yield
    finally:
        try:
            guard.defer += 1
        except Terminated:  # arrived on the way out: recorded in guard.hit, handled below
            pass
        _guard = None
        for sig, previous in guard.previous.items():
            signal.signal(sig, previous)
        if guard.hit is not None:
            signal.raise_signal(guard.hit)  # the default action: the process ends here


@contextlib.contextmanager
def signals_deferred():
    """Inside :func:`cleanup_on_signals`, a signal arriving in this block is acted on at its end,
    when the block's result (a file created and its name recorded) is visible to the cleanup.
    """
    guard = _guard
    if guard is None or threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only: another thread's block has nothing to defer
        return
    guard.defer += 1
    try:
        yield
    finally:
        guard.defer -= 1
        if guard.hit is not None and not guard.defer:
            raise Terminated(guard.hit)


# ----------------------------------------------------------------------------- targets
def output_target(path):
    """How ``path`` is written: ``("stream", fd)``, ``("device", path)`` or ``("file", dest)``,
    ``dest`` being the file to replace (symbolic links resolved).

    Raises :class:`PerceptronsError` for what is refused: a directory, a block device, a socket,
    or a file in a directory that does not exist.
    """
    path = os.fspath(path)
    if path == "-":
        return "stream", 1
    match = _DESCRIPTOR.fullmatch(os.path.normpath(os.path.abspath(path)))
    if match:
        std = match.group("std")
        return "stream", {"stdout": 1, "stderr": 2}[std] if std else int(match.group("fd") or match.group("pfd"))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None  # a new file (or a dangling link, whose target is created)
    except OSError as exc:
        raise _write_error(path, exc) from None
    if mode is not None:
        if stat.S_ISDIR(mode):
            raise PerceptronsError(f"{path}: is a directory; expected a file name")
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            return "device", path
        if stat.S_ISBLK(mode):
            raise PerceptronsError(f"{path}: is a block device; refusing to write over a disk (expected a file name)")
        if not stat.S_ISREG(mode):
            kind = "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
            raise PerceptronsError(f"{path}: is {kind}; expected a file name, a character device or a FIFO")
    dest = os.path.realpath(path)
    directory = os.path.dirname(dest)
    if not os.path.isdir(directory):
        raise PerceptronsError(f"{path}: the directory {directory!r} does not exist")
    return "file", dest


def _write_error(label, exc):
    reason = exc.strerror or str(exc) or type(exc).__name__
    return PerceptronsError(f"{label}: cannot write: {reason}")


def unencodable(label, exc):
    """The one-line error for text that ``label`` (standard output) cannot hold in its encoding."""
    char = exc.object[exc.start : exc.start + 1]
    return PerceptronsError(
        f"{label}: cannot write {char!r} in its encoding, {exc.encoding}; expected an output that takes "
        "UTF-8 (set PYTHONIOENCODING=utf-8, or write to a file with -o)"
    )


class _Checked:
    """The file object handed out by :func:`atomic_output`: a failed write names the output."""

    def __init__(self, f, label):
        self._f, self._label = f, label

    def _call(self, method, *args):
        try:
            return getattr(self._f, method)(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _write_error(self._label, exc) from None
        except UnicodeEncodeError as exc:  # standard output in ASCII (PYTHONIOENCODING=ascii, say)
            raise unencodable(self._label, exc) from None

    def write(self, data):
        # in pieces: one write of megabytes to a pipe whose reader has gone (``| head -1``) was
        # taken in part and the rest dropped without an error; the next piece meets the closed pipe
        if len(data) <= PIECE:
            return self._call("write", data)
        for start in range(0, len(data), PIECE):
            self._call("write", data[start : start + PIECE])
        return len(data)

    def writelines(self, lines):
        for line in lines:
            self._call("write", line)

    def flush(self):
        self._call("flush")

    def __getattr__(self, name):
        return getattr(self._f, name)


# ----------------------------------------------------------------------------- writers
#: the files :func:`atomic_output` has put in place in this process, in order
_WRITTEN = []


def written():
    """The paths :func:`atomic_output` has replaced so far in this process, in order: what an
    interrupted program has written, rather than "nothing".
    """
    return tuple(_WRITTEN)


@contextlib.contextmanager
def atomic_output(path, mode="w"):
    """Yield a file object (text, UTF-8, for ``mode="w"``; bytes for ``"wb"``) whose contents
    replace ``path`` when the block ends without an exception; on any exception nothing of it
    is left.  See the module docstring for ``-``, devices and FIFOs.
    """
    if mode not in ("w", "wb"):
        raise PerceptronsError(f"atomic_output: mode must be 'w' or 'wb'; got {mode!r}")
    path = os.fspath(path)
    kind, where = output_target(path)
    if kind == "stream":
        with _stream(path, where, mode) as f:
            yield f
    elif kind == "device":
        with _device(path, mode) as f:
            yield f
    else:
        with cleanup_on_signals(), _replacing(path, where, mode) as f:
            yield f


def atomic_write_bytes(path, payload):
    """Write ``payload`` (bytes-like) to ``path`` as :func:`atomic_output` does."""
    view = memoryview(payload).cast("B")
    with atomic_output(path, "wb") as f:
        for start in range(0, len(view), CHUNK):
            f.write(view[start : start + CHUNK])


def _open(fd, mode, closefd=True):
    if mode == "wb":
        return open(fd, "wb", closefd=closefd)
    return open(fd, "w", encoding="utf-8", closefd=closefd)


@contextlib.contextmanager
def _stream(path, fd, mode):
    label = "standard output" if path in ("-", "/dev/stdout") or fd == 1 else path
    if fd in (1, 2):
        # sys.stdout / sys.stderr, not the raw descriptor: keeps the order of what else was
        # printed, and goes where the caller redirected them (a test's capture, for one)
        text = sys.stdout if fd == 1 else sys.stderr
        f = text if mode == "w" else text.buffer
        if mode == "wb":
            _Checked(text, label).flush()
        out = _Checked(f, label)
        yield out
        out.flush()
        return
    with _written_through(lambda: _open(fd, mode, closefd=False), label) as out:
        yield out


@contextlib.contextmanager
def _device(path, mode):
    # no O_CREAT: should the device or FIFO have vanished since it was looked at, fail rather
    # than leave a regular file in its place; O_NOCTTY: a terminal opened here must not become
    # the process's controlling terminal
    flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    with _written_through(lambda: _open(os.open(path, flags), mode), path) as out:
        yield out


@contextlib.contextmanager
def _written_through(opener, label):
    """Write straight into what ``opener`` opens (a descriptor, a device, a FIFO): no temporary
    file, errors named after ``label``, the file closed whatever happens.
    """
    try:
        f = opener()
    except OSError as exc:
        raise _write_error(label, exc) from None
    try:
        out = _Checked(f, label)
        yield out
        out.flush()
    finally:
        with contextlib.suppress(OSError):
            f.close()


def _open_temp(directory, name):
    """(fd, path) of a new file next to the destination, created with mode 0666 so that the
    kernel applies the umask (and a default ACL) exactly as for any new file.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    while True:
        tmp = os.path.join(directory, f".tmp-{secrets.token_hex(4)}-{name[:200]}")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue


@contextlib.contextmanager
def _replacing(path, dest, mode):
    directory, name = os.path.split(dest)
    fd = tmp = f = None
    try:
        with signals_deferred():
            fd, tmp = _open_temp(directory, name)
        _keep_mode(fd, dest)
        f = _open(fd, mode)
        fd = None  # f owns it now
    except BaseException as exc:
        _discard(fd, f, tmp)
        if isinstance(exc, OSError):
            raise _write_error(path, exc) from None
        raise
    try:
        yield _Checked(f, path)
    except BaseException:
        _discard(None, f, tmp)
        raise
    try:
        f.flush()
        _fsync(f.fileno())
        f.close()
        os.replace(tmp, dest)
        _WRITTEN.append(path)
    except BaseException as exc:
        _discard(None, f, tmp)
        if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
            raise _write_error(path, exc) from None
        raise
    # the rename itself is durable once the directory is synced; not every file system can
    # sync a directory, and the file is in place either way
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _keep_mode(fd, dest):
    """An overwritten file keeps its permission bits, and its owner and group where allowed."""
    try:
        old = os.stat(dest)
    except FileNotFoundError:
        return
    new = os.fstat(fd)
    if (old.st_uid, old.st_gid) != (new.st_uid, new.st_gid):
        with contextlib.suppress(PermissionError):  # only root may give a file away
            os.fchown(fd, old.st_uid, old.st_gid)
    os.fchmod(fd, stat.S_IMODE(old.st_mode))  # after fchown, which clears set-id bits


def _fsync(fd):
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno != errno.EINVAL:  # a file system that cannot sync; the data is written
            raise


def _discard(fd, f, tmp):
    """Close and remove a temporary file, whatever state it is in (errors here would hide the
    one being reported).
    """
    if f is not None:
        with contextlib.suppress(OSError, ValueError):
            f.close()
    elif fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
    if tmp is not None:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
