"""Reading an epoch cache: :func:`open_cache`, :class:`Cache` and the checks of each record."""

import json
import os
import stat
import weakref
import zlib

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_path
from perceptrons.io.blocks import Block
from perceptrons.io.cache._fingerprint import _fingerprint_problem, file_identity
from perceptrons.io.cache._footer import _check_footer, _fail, _Invalid, _read_exact, _read_footer
from perceptrons.io.cache._format import (
    _ALL_FLAGS,
    _CSR,
    _INDPTR64,
    _RECORD,
    _TAIL,
    _VALUES,
    _WEIGHTS,
    _finite,
    _no_infinity,
    _pad,
)
from perceptrons.io.cache._labels import _label_array
from perceptrons.io.cache._prefetch import BlockReader, _prefetched


class CacheError(PerceptronsError):
    """An epoch cache that cannot be used.

    Parameters
    ----------
    path : str
        The cache file.
    reason : str
        Why, in a few words ("the data changed since the cache was written"), fit to follow
        "rebuilding the cache: ".
    """

    def __init__(self, path, reason):
        super().__init__(f"{path}: epoch cache unusable: {reason}")
        self.path, self.reason = path, reason


def open_cache(path, fingerprint):
    """The epoch cache at ``path`` if it is usable for the source ``fingerprint``.

    Parameters
    ----------
    path : str or path-like
        The cache file.
    fingerprint : dict
        :func:`fingerprint` of the source as it is now.

    Returns
    -------
    cache : Cache or None
        The cache, its footer checked; None when it cannot be used.
    reason : str or None
        Why not, when ``cache`` is None: no file yet, stale (the source changed), truncated,
        from a newer version, or corrupted (with what is wrong).  Blocks themselves are
        checked as they are read, by :meth:`Cache.blocks`.
    """
    path = check_path(path, "path", "open_cache")
    try:
        return Cache(path, fingerprint), None
    except CacheError as exc:
        return None, exc.reason


class Cache:
    """An epoch cache whose footer has been checked; read its rows with :meth:`blocks`.

    Use :func:`open_cache`, which turns a refused file into a reason, rather than this class
    directly (it raises :class:`CacheError`).

    Parameters
    ----------
    path : str
        The cache file.
    fingerprint : dict
        :func:`fingerprint` of the source; a cache of another source is refused as stale.

    Attributes
    ----------
    n_rows, n_features, nnz, n_blocks : int
        Totals from the footer (``nnz`` counts the stored entries of CSR blocks, 0 for dense).
    storage : str
        "dense" or "csr".
    dtype : numpy.dtype or None
        The values' dtype of dense blocks; None for CSR (float32 or binary per block).
    labels : numpy.ndarray
        The label table, in first-seen order: int64 when every label is a whole number,
        float64 for other numbers, else str.  Blocks carry codes into it.
    has_weights : bool
        Whether any block has per-row weights.
    block_rows : tuple of int
        Rows of each block.
    """

    def __init__(self, path, fingerprint):
        self.path = os.fspath(path)
        try:
            if not stat.S_ISREG(os.stat(self.path).st_mode):  # before open(): a FIFO would block it
                raise CacheError(self.path, "not a regular file")
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            raise CacheError(self.path, "no cache file yet") from None
        except OSError as exc:
            raise CacheError(self.path, f"cannot read it ({exc.strerror or exc})") from None
        # The file stays open for the cache's life, and every pass reads through it: another
        # run that replaces the file at this path (a rebuild, renamed into place) does not
        # change what this one reads.
        self._release = weakref.finalize(self, os.close, fd)
        try:
            st = os.fstat(fd)
            meta, footer_start = _read_footer(_At(fd), st.st_size)
            _check_footer(meta, footer_start)
            _check_fresh(meta["fingerprint"], fingerprint)
        except _Invalid as exc:
            self.close()
            raise CacheError(self.path, str(exc)) from None
        except OSError as exc:
            self.close()
            raise CacheError(self.path, f"cannot read it ({exc.strerror or exc})") from None
        self._fd = fd
        self._identity = file_identity(st)
        self.storage = meta["storage"]
        self.n_rows, self.n_features, self.nnz = meta["n_rows"], meta["n_features"], meta["nnz"]
        self.n_blocks = meta["n_blocks"]
        self.dtype = np.dtype(meta["values"]) if self.storage == "dense" else None
        self.labels = _label_array(meta["labels"]["kind"], meta["labels"]["values"])
        self.has_weights = meta["weights"]
        self.block_rows = tuple(meta["block_rows"])
        self._offsets = meta["offsets"]
        self._ends = [*meta["offsets"][1:], footer_start]
        self._binary = [v == "none" for v in meta["values"]] if self.storage == "csr" else None

    def __repr__(self):
        return (
            f"Cache({self.path!r}, {self.n_rows} rows x {self.n_features} {self.storage}, "
            f"{self.n_blocks} blocks, {len(self.labels)} labels)"
        )

    def blocks(self, prefetch=True):
        """The cached rows, block by block, each checked as it is read.

        Parameters
        ----------
        prefetch : bool, default=True
            Read and check the next block in a background thread while the caller works on
            the current one (at most three blocks in memory: the caller's, one waiting, one
            being read).

        Returns
        -------
        BlockReader
            An iterator of :class:`~perceptrons.io.blocks.Block`, whose ``y`` holds the
            **label codes** (int32 indices into :attr:`labels`; map them to classes with the
            table) and ``weight`` None when a block has no weights (all rows weigh 1).
            ``path`` is the cache file and ``line`` the 1-based row number of the block's
            first row in the cache.  Close it (or use it in a ``with`` block) when stopping
            early; leaving a ``for`` loop over it does so.

        Raises
        ------
        CacheError
            While iterating: a block that fails its checksum or a structural check, or a cache
            file that changed since it was opened.
        """
        return BlockReader(self._generate(prefetch))

    def close(self):
        """Close the file; a later :meth:`blocks` is refused.  Also done when the cache is
        garbage-collected."""
        self._release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _generate(self, prefetch):
        if not self._release.alive:
            raise CacheError(self.path, "closed")
        try:
            # a descriptor of the pass's own: closing the cache cannot pull the file from under
            # a pass still running (a prefetch thread), nor hand it a reused descriptor number
            fd = os.dup(self._fd)
        except OSError as exc:
            raise CacheError(self.path, f"cannot read it ({exc.strerror or exc})") from None
        try:
            st = os.fstat(fd)
            if file_identity(st) != self._identity:  # written in place
                raise CacheError(self.path, "the file changed since it was opened")
            records = self._records(_At(fd))
            yield from _prefetched(records) if prefetch else records
        finally:
            os.close(fd)

    def _records(self, f):
        """Every block in file order, then the totals checked against the footer."""
        row, nnz = 0, 0
        labelled = np.zeros(len(self.labels), dtype=bool)
        if self.n_blocks:
            f.seek(self._offsets[0])  # records are contiguous: one sequential read from here
        for i in range(self.n_blocks):
            try:
                block = self._read_block(f, i, row)
            except _Invalid as exc:
                raise CacheError(self.path, f"block {i}: {exc}") from None
            except OSError as exc:
                raise CacheError(self.path, f"block {i}: cannot read ({exc.strerror or exc})") from None
            row += block.n_rows
            nnz += 0 if block.indices is None else block.indices.shape[0]
            labelled[block.y] = True
            yield block
        if nnz != self.nnz:
            raise CacheError(self.path, f"corrupted (the blocks hold {nnz} entries, the footer says {self.nnz})")
        if not labelled.all():  # the writer stores the labels of rows only: one more is an edit
            raise CacheError(self.path, f"corrupted (the label {self.labels[int(np.argmin(labelled))]!r} has no row)")

    def _read_block(self, f, i, row):
        size = self._ends[i] - self._offsets[i]
        buf = np.empty(size, dtype=np.uint8)  # one read, and every array below is a view of it
        _read_exact(f, buf, "a block")
        crc, zero = _TAIL.unpack_from(buf, size - _TAIL.size)
        if zlib.crc32(buf[: size - _TAIL.size]) != crc or zero:
            _fail("corrupted (checksum mismatch: the file was damaged or modified)")
        n, nnz, flags, reserved = _RECORD.unpack_from(buf, 0)
        self._check_record(i, n, nnz, flags, reserved, size)
        sections = _Sections(buf)
        if self.storage == "dense":
            X = sections.take(n * self.n_features, self.dtype.newbyteorder("<")).reshape(n, self.n_features)
            indptr = indices = data = None
            if not _no_infinity(X):
                _fail("a feature value is infinite")
        else:
            X = None
            indptr, indices, data = self._csr(sections, n, nnz, flags)
        codes = sections.take(n, "<i4")
        if codes.min() < 0 or codes.max() >= len(self.labels):
            _fail(f"a label code outside [0, {len(self.labels)})")
        weight = sections.take(n, "<f8") if flags & _WEIGHTS else None
        if weight is not None and not (weight.min() >= 0 and np.isfinite(weight.max())):
            _fail("a weight is negative, NaN or infinite")
        return Block(
            y=codes, X=X, indptr=indptr, indices=indices, data=data, weight=weight, path=self.path, line=row + 1
        )

    def _check_record(self, i, n, nnz, flags, reserved, size):
        """The record header against the footer, and its counts against the record's size."""
        if reserved or flags & ~_ALL_FLAGS:
            _fail(f"corrupted record header (flags {flags:#x}, reserved {reserved})")
        if n != self.block_rows[i]:
            _fail(f"{n} rows, the footer says {self.block_rows[i]}")
        if flags & _WEIGHTS and not self.has_weights:
            _fail("has weights, the footer says none")
        if self.storage == "dense":
            if flags & (_CSR | _INDPTR64) or not flags & _VALUES or nnz:
                _fail(f"corrupted record header (flags {flags:#x} or nnz {nnz} in a dense cache)")
            body = n * self.n_features * self.dtype.itemsize
            body += _pad(body)
        else:
            if not flags & _CSR or bool(flags & _VALUES) == self._binary[i] or nnz < 0:
                _fail(f"corrupted record header (flags {flags:#x}, nnz {nnz} in a CSR cache)")
            body = 8 * (n + 1) if flags & _INDPTR64 else 4 * n + _pad(4 * n)
            stored = 4 * nnz + _pad(4 * nnz)
            body += stored * (2 if flags & _VALUES else 1)
        body += 4 * n + _pad(4 * n) + (8 * n if flags & _WEIGHTS else 0)
        if _RECORD.size + body + _TAIL.size != size:
            _fail(f"{n} rows and {nnz} entries do not fill the record's {size} bytes")

    def _csr(self, sections, n, nnz, flags):
        if flags & _INDPTR64:
            indptr = sections.take(n + 1, "<i8")
            if indptr[0] != 0 or indptr[-1] != nnz or not (indptr[1:] >= indptr[:-1]).all():
                _fail("indptr must start at 0, never decrease, and end at nnz")
        else:
            lengths = sections.take(n, "<i4")
            if lengths.min() < 0:
                _fail("a negative row length")
            indptr = np.empty(n + 1, dtype=np.int64)
            indptr[0] = 0
            np.cumsum(lengths, dtype=np.int64, out=indptr[1:])
            if indptr[-1] != nnz:
                _fail(f"row lengths sum to {indptr[-1]}, not to nnz {nnz}")
        indices = sections.take(nnz, "<i4")
        if nnz and (indices.min() < 0 or indices.max() >= self.n_features):
            _fail(f"a column index outside [0, {self.n_features})")
        data = sections.take(nnz, "<f4") if flags & _VALUES else None
        if data is not None and not _finite(data):
            _fail("a feature value is NaN or infinite")
        return indptr, indices, data


class _Sections:
    """Consecutive 8-byte-aligned arrays of a record buffer, as views (no copy)."""

    def __init__(self, buf):
        self.buf, self.pos = buf, _RECORD.size

    def take(self, count, dtype):
        dtype = np.dtype(dtype)
        nbytes = count * dtype.itemsize
        view = self.buf[self.pos : self.pos + nbytes].view(dtype)
        self.pos += nbytes + _pad(nbytes)
        return view


def _check_fresh(stored, given):
    """Raise the stale reason when the cache was built from another source or with other options."""
    problem = _fingerprint_problem(given)
    if problem:
        raise PerceptronsError(f"open_cache: bad fingerprint: {problem}")
    given = json.loads(json.dumps(given))
    if stored == given:
        return
    if stored["options"].get("rules") != given["options"].get("rules"):
        _fail("stale (written by another version of perceptrons, whose readers accepted other rows)")
    if stored["options"] != given["options"]:
        _fail("stale (built with other options)")
    if [s["path"] for s in stored["sources"]] != [s["path"] for s in given["sources"]]:
        _fail("stale (built from other files)")
    for old, new in zip(stored["sources"], given["sources"]):
        changed = [k for k in ("size", "mtime_ns", "head_sha256", "tail_sha256") if old[k] != new[k]]
        if changed:
            what = ", ".join(dict.fromkeys("contents" if k.endswith("sha256") else k for k in changed))
            _fail(f"stale ({os.path.basename(new['path'])} changed since the cache was written: {what})")


class _At:
    """A read position of its own in the cache's shared file descriptor: passes read with
    ``pread``, so that none moves another's offset."""

    def __init__(self, fd):
        self.fd, self.pos = fd, 0

    def seek(self, pos):
        self.pos = pos

    def readinto(self, view):
        if _PREADV:
            got = os.preadv(self.fd, [view], self.pos)
        else:  # pragma: no cover - platforms without preadv (macOS before 11)
            data = os.pread(self.fd, len(view), self.pos)
            got = len(data)
            view[:got] = data
        self.pos += got
        return got


_PREADV = hasattr(os, "preadv")
