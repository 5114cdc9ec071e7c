"""Writing an epoch cache: :class:`CacheWriter`."""

import contextlib
import json
import os
import sys
import zlib

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.atomic import CHUNK, atomic_output, output_target
from perceptrons.io.cache._fingerprint import _fingerprint_problem
from perceptrons.io.cache._format import (
    _CSR,
    _HEADER,
    _INDPTR64,
    _INT32_MAX,
    _INT64,
    _RECORD,
    _TAIL,
    _TRAILER,
    _VALUES,
    _WEIGHTS,
    END_MAGIC,
    FORMAT,
    MAGIC,
    MAX_FOOTER_BYTES,
    VERSION,
    _finite,
    _no_infinity,
    _pad,
)
from perceptrons.io.cache._labels import _LabelTable
from perceptrons.io.labels import float_labels

#: longest row stored as an int32 length; a longer one makes the block store int64 offsets
_MAX_ROW_LENGTH = _INT32_MAX


class CacheWriter:
    r"""Write blocks to an epoch cache file, whole or not at all.

    Parameters
    ----------
    path : str or path-like
        The cache file; it appears, complete, when the ``with`` block ends without an
        exception.  On an exception, SIGTERM or SIGHUP nothing is left, not even the temporary
        file.
    fingerprint : dict
        :func:`fingerprint` of the source, stored so that :func:`open_cache` can tell a stale
        cache.
    n_features_hint : int, optional
        The number of columns when known beforehand (``--n-features``); CSR blocks may use
        fewer, dense blocks must have exactly this many.

    Notes
    -----
    Every block must hold the same storage (dense or CSR), dense blocks one dtype, CSR values
    float32 or none (binary), labels numbers or strings throughout.  Blocks with no rows are
    skipped.  Values, labels and weights are checked here as the reader checks them (finite,
    in range): a cache the reader would refuse is never written.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from perceptrons.io.blocks import Block
    >>> from perceptrons.io.cache import CacheWriter, fingerprint, open_cache
    >>> d = tempfile.mkdtemp()
    >>> data = os.path.join(d, "train.svm")
    >>> with open(data, "w") as f:
    ...     _ = f.write("spam 1:1 3:1\nham 2:1\n")
    >>> block = Block(
    ...     y=np.array(["spam", "ham"]),
    ...     indptr=np.array([0, 2, 3]),
    ...     indices=np.array([0, 2, 1], dtype=np.int32),
    ... )
    >>> with CacheWriter(os.path.join(d, "train.cache"), fingerprint(data)) as writer:
    ...     writer.append(block)
    >>> cache, reason = open_cache(os.path.join(d, "train.cache"), fingerprint(data))
    >>> cache.labels, [b.y.tolist() for b in cache.blocks()]
    (array(['spam', 'ham'], dtype='<U4'), [[0, 1]])
    >>> with open(data, "a") as f:
    ...     _ = f.write("ham 3:1\n")
    >>> open_cache(os.path.join(d, "train.cache"), fingerprint(data))[1]  # doctest: +ELLIPSIS
    'stale (train.svm changed since the cache was written: size, ...contents)'
    """

    def __init__(self, path, fingerprint, n_features_hint=None):
        self.path = os.fspath(path)
        problem = _fingerprint_problem(fingerprint)
        if problem:
            raise PerceptronsError(f"CacheWriter: bad fingerprint: {problem}")
        self._fingerprint = json.loads(json.dumps(fingerprint))  # stored as the reader will compare it
        if n_features_hint is not None and not (type(n_features_hint) is int and 0 <= n_features_hint <= _INT32_MAX):
            raise PerceptronsError(f"CacheWriter: n_features_hint must be an int in [0, {_INT32_MAX}]")
        self._n_features = n_features_hint or 0
        self._hint = n_features_hint
        self._stack = self._f = None
        self._offset = 0
        self._offsets, self._rows, self._values = [], [], []
        self._storage = self._dtype = None
        self._nnz = 0
        self._weights = False
        self._labels = _LabelTable()
        self._failed = False

    def __enter__(self):
        if self._stack is not None:
            raise PerceptronsError("CacheWriter: already open")
        if output_target(self.path)[0] != "file":
            raise PerceptronsError(f"{self.path}: an epoch cache must be a regular file")
        stack = contextlib.ExitStack()
        try:
            self._f = stack.enter_context(atomic_output(self.path, "wb"))
            self._stack = stack
            self._write([_HEADER.pack(MAGIC, VERSION, 0)])
        except BaseException:
            self._stack = self._f = None
            if not stack.__exit__(*sys.exc_info()):
                raise
        return self

    def __exit__(self, exc_type, exc, tb):
        stack, self._stack = self._stack, None
        try:
            if exc_type is None:
                self._finish()
        except BaseException:
            self._f = None
            if not stack.__exit__(*sys.exc_info()):
                raise
            return False
        self._f = None
        return stack.__exit__(exc_type, exc, tb)

    def append(self, block):
        """Write one block.

        Parameters
        ----------
        block : Block
            Rows with raw labels in ``y`` (numbers or strings); see :mod:`perceptrons.io.blocks`.

        Raises
        ------
        PerceptronsError
            A block that does not match the earlier ones or holds what the format cannot
            (non-finite values or weights, negative weights, labels of another kind).
        """
        if self._f is None:
            raise PerceptronsError("CacheWriter.append: the writer is not open (use it in a with block)")
        if self._failed:
            raise PerceptronsError("CacheWriter.append: an earlier append failed; this cache cannot be completed")
        try:
            self._append(block)
        except BaseException:
            # a refused block may have left the bookkeeping half updated: no footer may follow
            self._failed = True
            raise

    def _append(self, block):
        y = np.asarray(block.y)
        if y.ndim != 1:
            raise PerceptronsError(f"epoch cache: block labels must be 1-D; got shape {y.shape}")
        n = y.shape[0]
        if n == 0:
            return  # no record has 0 rows (see the format in the package docstring)
        if y.dtype.kind == "f":  # parsed numbers (LIBSVM, VW): whole ones beyond 2^53 may have merged
            float_labels(y, f"{block.path}, data rows from {block.line}" if block.path else "epoch cache")
        flags, sections, nnz, values = self._rows_of(block, n)
        sections.append(self._labels.encode(y))
        weight = _weight_of(block.weight, n)
        if weight is not None:
            flags |= _WEIGHTS
            sections.append(weight)
            self._weights = True
        self._offsets.append(self._offset)
        crc = self._write([_RECORD.pack(n, nnz, flags, 0), *sections])
        self._write([_TAIL.pack(crc, 0)])
        self._rows.append(n)
        self._nnz += nnz
        if values is not None:
            self._values.append(values)

    def _rows_of(self, block, n):
        """(flags, [arrays], nnz, CSR values tag or None) of the block's rows, checked and in their
        stored dtypes.
        """
        storage = "csr" if block.sparse else "dense"
        if self._storage is None:
            self._storage = storage
        elif storage != self._storage:
            raise PerceptronsError(
                f"epoch cache: a {storage} block after {self._storage} blocks; one storage per cache"
            )
        if storage == "dense":
            return _VALUES, [self._dense(block.X, n)], 0, None
        return self._csr(block, n)

    def _dense(self, X, n):
        X = np.asarray(X)
        if X.ndim != 2 or X.shape[0] != n or X.dtype not in (np.float32, np.float64):
            raise PerceptronsError(
                f"epoch cache: dense rows must be ({n}, d) float32 or float64; got {X.shape} {X.dtype}"
            )
        if self._dtype is None:
            self._dtype = X.dtype.name
            if self._hint is None:
                self._n_features = X.shape[1]
        if X.dtype.name != self._dtype or X.shape[1] != self._n_features:
            raise PerceptronsError(
                f"epoch cache: a block of {X.shape[1]} {X.dtype.name} columns after "
                f"{self._n_features} {self._dtype} columns"
            )
        if not _no_infinity(X):
            raise PerceptronsError("epoch cache: a feature value is infinite (a missing one is NaN)")
        return np.ascontiguousarray(X, dtype=X.dtype.newbyteorder("<"))

    def _csr(self, block, n):
        indptr, indices = np.asarray(block.indptr), np.asarray(block.indices)
        if (
            indptr.shape != (n + 1,)
            or indices.ndim != 1
            or indptr.dtype.kind not in "iu"
            or indices.dtype.kind not in "iu"
        ):
            raise PerceptronsError("epoch cache: CSR rows need indptr of n_rows + 1 ints and 1-D int indices")
        nnz = indices.shape[0]
        if indptr.dtype.kind == "u" and indptr.max() > _INT64[1]:
            raise PerceptronsError("epoch cache: indptr beyond the int64 range")
        indptr = indptr.astype(np.int64, copy=False)  # unsigned differences would wrap, hiding a decrease
        lengths = np.diff(indptr)
        if indptr[0] != 0 or indptr[-1] != nnz or (n and lengths.min() < 0):
            raise PerceptronsError("epoch cache: indptr must start at 0, never decrease, and end at len(indices)")
        if nnz and (indices.min() < 0 or indices.max() > _INT32_MAX - 1):
            raise PerceptronsError(f"epoch cache: a column index outside [0, {_INT32_MAX})")
        if type(block.width) is not int or not 0 <= block.width <= _INT32_MAX:
            raise PerceptronsError(f"epoch cache: a block's width must be an int in [0, {_INT32_MAX}]")
        if self._hint is None:  # a hashed block is as wide as its hash space (Block.width)
            self._n_features = max(self._n_features, int(indices.max()) + 1 if nnz else 0, int(block.width))
        elif nnz and indices.max() >= self._n_features:
            raise PerceptronsError(f"epoch cache: a column index beyond n_features_hint={self._hint}")
        flags, sections = _CSR, []
        if lengths.size and lengths.max() > _MAX_ROW_LENGTH:  # rows longer than int32: keep the int64 offsets
            flags |= _INDPTR64
            sections.append(np.ascontiguousarray(indptr, dtype="<i8"))
        else:
            sections.append(lengths.astype("<i4"))
        sections.append(np.ascontiguousarray(indices, dtype="<i4"))
        if block.data is None:
            values = "none"
        else:
            data = np.asarray(block.data)
            if data.dtype != np.float32 or data.shape != (nnz,):
                raise PerceptronsError(
                    f"epoch cache: CSR values must be float32 of shape ({nnz},); got {data.dtype} {data.shape}"
                )
            if not _finite(data):
                raise PerceptronsError("epoch cache: a feature value is NaN or infinite")
            flags |= _VALUES
            sections.append(np.ascontiguousarray(data, dtype="<f4"))
            values = "float32"
        return flags, sections, nnz, values

    def _write(self, parts, crc=0):
        """Write ``parts`` (bytes or arrays) each padded to 8 bytes; return their CRC32.

        Arrays go out as they are, no copy, in slices of ``CHUNK`` so a signal is acted on
        between two writes.
        """
        f = self._f
        for part in parts:
            view = memoryview(part).cast("B")
            for start in range(0, len(view), CHUNK):
                piece = view[start : start + CHUNK]
                crc = zlib.crc32(piece, crc)
                f.write(piece)
            pad = bytes(_pad(len(view)))
            crc = zlib.crc32(pad, crc)
            f.write(pad)
            self._offset += len(view) + len(pad)
        return crc

    def _finish(self):
        if self._failed:
            raise PerceptronsError(f"{self.path}: an append failed; the epoch cache was not written")
        footer = {
            "format": FORMAT,
            "version": VERSION,
            "fingerprint": self._fingerprint,
            "storage": self._storage or "csr",
            "values": self._dtype if self._storage == "dense" else self._values,
            "n_features": self._n_features,
            "n_rows": sum(self._rows),
            "nnz": self._nnz,
            "labels": self._labels.footer(),
            "weights": self._weights,
            "n_blocks": len(self._offsets),
            "offsets": self._offsets,
            "block_rows": self._rows,
        }
        raw = json.dumps(footer, separators=(",", ":"), allow_nan=False).encode("utf-8")
        if len(raw) > MAX_FOOTER_BYTES:
            raise PerceptronsError(f"epoch cache: the footer would be {len(raw)} bytes (at most {MAX_FOOTER_BYTES})")
        self._f.write(raw)
        self._f.write(_TRAILER.pack(len(raw), zlib.crc32(raw), 0, END_MAGIC))


def _weight_of(weight, n):
    if weight is None:
        return None
    w = np.ascontiguousarray(weight, dtype="<f8")
    if w.shape != (n,):
        raise PerceptronsError(f"epoch cache: weights must have one entry per row ({n}); got shape {w.shape}")
    if n and not (w.min() >= 0 and np.isfinite(w.max())):  # NaN fails the comparison
        raise PerceptronsError("epoch cache: weights must be finite and non-negative")
    return w
