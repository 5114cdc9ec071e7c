r"""The epoch cache: parsed rows in a compact binary file, written once, read back block by block.

``perceptrons train DATA --stream`` parses its data in a first pass and writes the blocks here;
later epochs read this file instead of parsing text again.  The file is untrusted input (it
sits on disk between runs, can be truncated by a full disk, edited, or left from another
version), so the reader checks everything before an array reaches compiled code, and says why
it refuses a file so that the caller can print "rebuilding the cache: <reason>".

Format (version 1; little-endian throughout; every section padded with zero bytes to a
multiple of 8 bytes, so each array starts 8-byte aligned)::

    file     := header record* footer trailer
    header   := magic b"\x89PCACHE\n" | version u32 | reserved u32 (0)            16 bytes
    record   := n_rows i64 | nnz i64 | flags u32 | reserved u32 (0)                 24 bytes
                rows      CSR only: row lengths int32 (n_rows), or indptr int64 (n_rows + 1)
                          when flag INDPTR64; indptr starts at 0 and ends at nnz
                indices   CSR only: int32 (nnz), 0-based column numbers
                values    CSR with flag VALUES: float32 (nnz); none for binary blocks.
                          Dense: n_rows x n_features of the footer's dtype, C order
                labels    int32 (n_rows): codes, indices into the footer's label table
                weights   float64 (n_rows), with flag WEIGHTS
                crc       u32: zlib.crc32 of the record from n_rows to the end of its last
                          section (padding included) | u32 (0)
    footer   := UTF-8 JSON object, see below
    trailer  := footer length u64 | crc32 of the footer u32 | u32 (0) | b"PCACHEOK"   24 bytes

Record flags: 1 CSR, 2 VALUES, 4 INDPTR64, 8 WEIGHTS; other bits are 0.  Dense records have
flags VALUES (| WEIGHTS) and nnz 0.  A record never has 0 rows: an empty block handed to the
writer is skipped, so a cache holds exactly the rows of the source.

The footer has exactly these fields: ``format`` ("perceptrons-epoch-cache"), ``version`` (the
header's), ``fingerprint`` (of the source, :func:`fingerprint`), ``storage`` ("dense" or
"csr"), ``values`` (dense: "float32" or "float64"; CSR: a list with "float32" or "none" per
block), ``n_features``, ``n_rows``, ``nnz`` (stored entries of the CSR blocks, 0 for dense),
``labels`` (``{"kind": "number" | "str", "values": [...]}``, in first-seen order), ``weights``
(whether any block has weights), ``n_blocks``, ``offsets`` (byte offset of each record) and
``block_rows`` (row count of each record).  Records are contiguous: the first starts right after
the header, each next one where the previous ends, and the footer where the last ends.

The trailer comes last so that a truncated file (a full disk, a killed copy) lacks it and is
refused at once; the writer never leaves one anyway, since it writes to a temporary file that
is renamed into place only when complete (:mod:`perceptrons.io.atomic`).
"""

import contextlib
import hashlib
import json
import os
import queue
import re
import stat
import struct
import sys
import threading
import zlib

import numpy as np

from perceptrons._validation import PerceptronsError
from perceptrons.io.atomic import CHUNK, atomic_output, output_target
from perceptrons.io.blocks import Block

FORMAT = "perceptrons-epoch-cache"
VERSION = 1
MAGIC = b"\x89PCACHE\n"  # the high byte and the newline catch text-mode transfers, as PNG's do
END_MAGIC = b"PCACHEOK"

_HEADER = struct.Struct("<8sII")
_RECORD = struct.Struct("<qqII")
_TAIL = struct.Struct("<II")
_TRAILER = struct.Struct("<QII8s")

_CSR, _VALUES, _INDPTR64, _WEIGHTS = 1, 2, 4, 8
_ALL_FLAGS = _CSR | _VALUES | _INDPTR64 | _WEIGHTS

#: bytes hashed at each end of a source file by :func:`fingerprint`
SAMPLE_BYTES = 1 << 20
#: the footer is a few bytes per block and per label; more is not a footer of ours
MAX_FOOTER_BYTES = 64 << 20
#: footer -> fingerprint -> sources -> one source: the deepest nesting the writer produces
MAX_FOOTER_DEPTH = 4
_INT32_MAX = 2**31 - 1
#: longest row stored as an int32 length; a longer one makes the block store int64 offsets
_MAX_ROW_LENGTH = _INT32_MAX
_INT64 = (-(2**63), 2**63 - 1)
_FIELDS = (
    "format",
    "version",
    "fingerprint",
    "storage",
    "values",
    "n_features",
    "n_rows",
    "nnz",
    "labels",
    "weights",
    "n_blocks",
    "offsets",
    "block_rows",
)
_SOURCE_FIELDS = {"path": str, "size": int, "mtime_ns": int, "head_sha256": str, "tail_sha256": str}
_HEX64 = re.compile(r"[0-9a-f]{64}")


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


def _pad(nbytes):
    return -nbytes % 8


def _finite(a):
    """Whether every value of the float array ``a`` is finite, at the cost of one sum when so."""
    with np.errstate(all="ignore"):
        # NaN and ±inf propagate into the sum, so a finite sum proves the values finite; a sum
        # that overflowed although the values are finite takes the exact (slower) check
        return bool(np.isfinite(a.sum()) or np.isfinite(a).all())


# ----------------------------------------------------------------------------- fingerprint
def fingerprint(paths, options=None):
    """What identifies the source of a cache: each file's size, mtime and sampled contents.

    Parameters
    ----------
    paths : str, path-like or sequence of them
        The source file(s), regular files only.
    options : dict, optional
        Parsing options that change the rows (``{"format": "libsvm", "n_features": 100}``):
        keys are str, values str, int, finite float, bool or None.  A cache built with other
        options is stale.

    Returns
    -------
    dict
        JSON-able ``{"sources": [...], "options": {...}}``; each source holds its real path,
        ``size``, ``mtime_ns`` and the SHA-256 of its first and of its last MiB.  Cheap (2 MiB
        read per file) and catches edits that keep the size, and touched files.

    Raises
    ------
    PerceptronsError
        A path that is not a readable regular file (standard input cannot be cached).
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    result = {"sources": [_source_print(os.fsdecode(p)) for p in paths], "options": dict(options or {})}
    problem = _fingerprint_problem(result)
    if problem:
        raise PerceptronsError(f"fingerprint: {problem}")
    return result


def _source_print(path):
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # before open(): opening a FIFO would block
            raise PerceptronsError(f"{path}: not a regular file; only files can be cached")
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            head = hashlib.sha256(f.read(SAMPLE_BYTES)).hexdigest()
            f.seek(max(0, st.st_size - SAMPLE_BYTES))
            tail = hashlib.sha256(f.read(SAMPLE_BYTES)).hexdigest()
    except OSError as exc:
        raise PerceptronsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return {
        "path": os.path.realpath(path),
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "head_sha256": head,
        "tail_sha256": tail,
    }


def _fingerprint_problem(fp):
    """What is wrong with a fingerprint's structure, or None."""
    if not isinstance(fp, dict) or set(fp) != {"sources", "options"}:
        return "expected an object with exactly 'sources' and 'options'"
    if not isinstance(fp["sources"], list) or not all(isinstance(s, dict) for s in fp["sources"]):
        return "'sources' must be a list of objects"
    for s in fp["sources"]:
        if set(s) != set(_SOURCE_FIELDS) or not all(type(s[k]) is t for k, t in _SOURCE_FIELDS.items()):
            return f"a source must have exactly {sorted(_SOURCE_FIELDS)} of the right types"
        if not (0 <= s["size"] <= _INT64[1] and _INT64[0] <= s["mtime_ns"] <= _INT64[1]):
            return "a source's size or mtime is out of range"
        if not (_HEX64.fullmatch(s["head_sha256"]) and _HEX64.fullmatch(s["tail_sha256"])):
            return "a source's hashes must be 64 hex digits"
    options = fp["options"]
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        return "'options' must be an object with str keys"
    for value in options.values():
        if not (value is None or type(value) in (str, int, bool, float)):
            return "option values must be str, int, float, bool or None"
        if type(value) is float and not np.isfinite(value):
            return "option values must be finite"
    return None


# ----------------------------------------------------------------------------- labels
_PLURAL = {"number": "numbers", "str": "strings"}


class _LabelTable:
    """Raw labels -> int32 codes, in first-seen order; one dict lookup per distinct label of a
    block, never one per row.
    """

    def __init__(self):
        self.codes = {}
        self.kind = None  # "number" or "str", fixed by the first labelled block

    def encode(self, y):
        kind, y = _label_kind(y)
        if self.kind is None:
            self.kind = kind
        elif kind != self.kind:
            raise PerceptronsError(
                f"epoch cache: labels are {_PLURAL[self.kind]} in earlier blocks and {_PLURAL[kind]} here; "
                "one kind per source"
            )
        uniques, first, inverse = np.unique(y, return_index=True, return_inverse=True)
        # codes in the order the labels first appear, as the source reads
        order = np.argsort(first, kind="stable")
        code_of_unique = np.empty(uniques.shape[0], dtype="<i4")
        codes = self.codes
        for pos, label in zip(order.tolist(), uniques[order].tolist()):
            code_of_unique[pos] = codes.setdefault(label, len(codes))
        if len(codes) > _INT32_MAX:
            raise PerceptronsError(f"epoch cache: more than {_INT32_MAX} distinct labels")
        return code_of_unique[inverse.reshape(-1)]

    def footer(self):
        return {"kind": self.kind or "number", "values": list(self.codes)}


def _label_kind(y):
    """("number" | "str", y as an array np.unique and dict keys handle exactly)."""
    if y.dtype.kind == "O":
        kinds = set(map(type, y.tolist()))
        if not kinds <= {str}:
            raise PerceptronsError(
                f"epoch cache: labels must be numbers or strings; got {sorted(k.__name__ for k in kinds)}"
            )
        y = y.astype(str)
    if y.dtype.kind == "U":
        return "str", y
    if y.dtype.kind in "iu":
        if y.size and y.dtype.kind == "u" and int(y.max()) > _INT64[1]:
            raise PerceptronsError("epoch cache: integer labels beyond the int64 range")
        return "number", y
    if y.dtype.kind == "f":
        if not _finite(y):
            raise PerceptronsError("epoch cache: a label is NaN or infinite; every row needs a finite label")
        return "number", y.astype(np.float64, copy=False)
    raise PerceptronsError(f"epoch cache: labels must be numbers or strings; got an array of {y.dtype}")


def _label_array(kind, values):
    """The label table as numpy: str; int64 when every number is whole and fits; else float64."""
    if kind == "str":
        return np.array(values, dtype=str)
    whole = all(_INT64[0] <= v <= _INT64[1] and (type(v) is int or v.is_integer()) for v in values)
    if whole:
        return np.array([int(v) for v in values], dtype=np.int64)
    return np.array(values, dtype=np.float64)


# ----------------------------------------------------------------------------- writer
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
            return  # no record has 0 rows (see the module docstring)
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
        if not _finite(X):
            raise PerceptronsError("epoch cache: a feature value is NaN or infinite")
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
        if self._hint is None and nnz:
            self._n_features = max(self._n_features, int(indices.max()) + 1)
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


# ----------------------------------------------------------------------------- footer
def _fail(reason):
    raise _Invalid(reason)


class _Invalid(Exception):
    """Raised by the checks; :func:`open_cache` turns it into a reason."""


def _read_exact(f, view, what):
    """Fill ``view`` from ``f``; the raw file may return less than asked (2 GiB per call on Linux)."""
    view = memoryview(view).cast("B")
    done = 0
    while done < len(view):
        got = f.readinto(view[done:])
        if not got:
            _fail(f"truncated ({what} ends early)")
        done += got


def _read_footer(f, size):
    """(footer dict, footer start) after checking header, trailer and the footer's checksum."""
    header = bytearray(min(size, _HEADER.size))
    _read_exact(f, header, "the header")
    if not header.startswith(MAGIC[: len(header)]):  # a shorter prefix of ours is a truncation
        _fail("not an epoch cache file (wrong magic bytes)")
    if size < _HEADER.size:
        _fail(f"truncated ({size} bytes, shorter than the header)")
    _, version, reserved = _HEADER.unpack(header)
    if version > VERSION:
        _fail(f"written by a newer version of perceptrons (cache format {version}; this version reads {VERSION})")
    if version < 1 or reserved:
        _fail(f"corrupted header (version {version}, reserved {reserved})")
    if size < _HEADER.size + _TRAILER.size:
        _fail(f"truncated ({size} bytes, no room for the trailer)")
    trailer = bytearray(_TRAILER.size)
    f.seek(size - _TRAILER.size)
    _read_exact(f, trailer, "the trailer")
    length, crc, zero, end = _TRAILER.unpack(trailer)
    if end != END_MAGIC:
        _fail("truncated or unfinished (no end marker)")
    start = size - _TRAILER.size - length
    if zero or length > MAX_FOOTER_BYTES or start < _HEADER.size:
        _fail(f"corrupted trailer (footer of {length} bytes in a file of {size})")
    raw = bytearray(length)
    f.seek(start)
    _read_exact(f, raw, "the footer")
    if zlib.crc32(raw) != crc:
        _fail("corrupted (the footer's checksum does not match)")
    return _parse_json(bytes(raw)), start


def _parse_json(raw):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        _fail("corrupted footer (not UTF-8)")
    # nesting depth outside strings, before the recursive parser sees it
    bare = np.frombuffer(re.sub(r'"(?:[^"\\]|\\.)*"', '""', text).encode(), dtype=np.uint8)
    step = np.isin(bare, (ord("["), ord("{"))).astype(np.int64) - np.isin(bare, (ord("]"), ord("}")))
    if bare.size and np.cumsum(step).max() > MAX_FOOTER_DEPTH:
        _fail(f"corrupted footer (nested deeper than {MAX_FOOTER_DEPTH} levels)")

    def no_constant(token):  # NaN, Infinity: not JSON, never written
        raise ValueError(f"{token} is not a JSON number")

    def unique_keys(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate key")
        return dict(pairs)

    try:
        return json.loads(text, parse_constant=no_constant, object_pairs_hook=unique_keys)
    except (ValueError, RecursionError) as exc:
        _fail(f"corrupted footer (not valid JSON: {str(exc)[:80]})")


def _is_int(v, lo=0, hi=_INT64[1]):
    return type(v) is int and lo <= v <= hi


def _check_footer(meta, footer_start):
    """The footer's fields, every one checked for type and range and against the others."""
    if not isinstance(meta, dict):
        _fail("corrupted footer (not a JSON object)")
    if set(meta) != set(_FIELDS):
        odd = sorted(set(meta) ^ set(_FIELDS))[:3]
        _fail(f"corrupted footer (missing or unknown fields {odd})")
    if meta["format"] != FORMAT or meta["version"] != VERSION or type(meta["version"]) is not int:
        _fail("corrupted footer (format or version does not match the header)")
    problem = _fingerprint_problem(meta["fingerprint"])
    if problem:
        _fail(f"corrupted footer (fingerprint: {problem})")
    if not isinstance(meta["weights"], bool):
        _fail("corrupted footer ('weights' must be true or false)")
    for name, hi in (("n_features", _INT32_MAX), ("n_rows", _INT64[1]), ("nnz", _INT64[1]), ("n_blocks", _INT64[1])):
        if not _is_int(meta[name], 0, hi):
            _fail(f"corrupted footer ({name!r} must be an int in [0, {hi}])")
    _check_storage(meta)
    _check_labels(meta["labels"])
    _check_layout(meta, footer_start)


def _check_storage(meta):
    storage, values, n_blocks = meta["storage"], meta["values"], meta["n_blocks"]
    if storage == "dense":
        if values not in ("float32", "float64") or meta["nnz"] != 0:
            _fail("corrupted footer (dense values must be 'float32' or 'float64', with nnz 0)")
    elif storage == "csr":
        if not isinstance(values, list) or len(values) != n_blocks or not all(v in ("float32", "none") for v in values):
            _fail("corrupted footer (CSR 'values' must list 'float32' or 'none' per block)")
    else:
        _fail("corrupted footer ('storage' must be 'dense' or 'csr')")


def _check_labels(labels):
    if not isinstance(labels, dict) or set(labels) != {"kind", "values"} or not isinstance(labels["values"], list):
        _fail("corrupted footer ('labels' must be {'kind', 'values'})")
    kind, values = labels["kind"], labels["values"]
    if len(values) > _INT32_MAX:
        _fail("corrupted footer (too many labels)")
    if kind == "str":
        ok = all(type(v) is str for v in values)
    elif kind == "number":
        ok = all(
            (type(v) is int and _INT64[0] <= v <= _INT64[1]) or (type(v) is float and np.isfinite(v)) for v in values
        )
    else:
        ok = False
    if not ok:
        _fail("corrupted footer (labels must be all strings or all finite numbers)")
    if len(set(values)) != len(values):
        _fail("corrupted footer (a label appears twice in the table)")


def _check_layout(meta, footer_start):
    offsets, rows, n_blocks = meta["offsets"], meta["block_rows"], meta["n_blocks"]
    if not (isinstance(offsets, list) and isinstance(rows, list) and len(offsets) == len(rows) == n_blocks):
        _fail("corrupted footer ('offsets' and 'block_rows' must list one int per block)")
    if not all(_is_int(r, 1) for r in rows) or sum(rows) != meta["n_rows"]:
        _fail("corrupted footer (block row counts must be positive and sum to n_rows)")
    minimal = _RECORD.size + _TAIL.size
    ends = [*offsets[1:], footer_start]
    if n_blocks and offsets[0] != _HEADER.size or not n_blocks and footer_start != _HEADER.size:
        _fail("corrupted footer (the first block must start right after the header)")
    if not all(_is_int(o) and _is_int(e) and e - o >= minimal for o, e in zip(offsets, ends)):
        _fail("corrupted footer (block offsets must increase and lie inside the file)")


# ----------------------------------------------------------------------------- reader
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
    path = os.fspath(path)
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
            f = open(self.path, "rb", buffering=0)
        except FileNotFoundError:
            raise CacheError(self.path, "no cache file yet") from None
        except OSError as exc:
            raise CacheError(self.path, f"cannot read it ({exc.strerror or exc})") from None
        try:
            with f:
                st = os.fstat(f.fileno())
                meta, footer_start = _read_footer(f, st.st_size)
            _check_footer(meta, footer_start)
            _check_fresh(meta["fingerprint"], fingerprint)
        except _Invalid as exc:
            raise CacheError(self.path, str(exc)) from None
        except OSError as exc:
            raise CacheError(self.path, f"cannot read it ({exc.strerror or exc})") from None
        self._identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
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

    def _generate(self, prefetch):
        try:
            f = open(self.path, "rb", buffering=0)
        except OSError as exc:
            raise CacheError(self.path, f"cannot read it ({exc.strerror or exc})") from None
        with f:
            st = os.fstat(f.fileno())
            if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) != self._identity:
                raise CacheError(self.path, "the file changed since it was opened")
            records = self._records(f)
            yield from _prefetched(records) if prefetch else records

    def _records(self, f):
        """Every block in file order, then the totals checked against the footer."""
        row, nnz = 0, 0
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
            yield block
        if nnz != self.nnz:
            raise CacheError(self.path, f"corrupted (the blocks hold {nnz} entries, the footer says {self.nnz})")

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
            if not _finite(X):
                _fail("a feature value is NaN or infinite")
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
    if stored["options"] != given["options"]:
        _fail("stale (built with other options)")
    if [s["path"] for s in stored["sources"]] != [s["path"] for s in given["sources"]]:
        _fail("stale (built from other files)")
    for old, new in zip(stored["sources"], given["sources"]):
        changed = [k for k in ("size", "mtime_ns", "head_sha256", "tail_sha256") if old[k] != new[k]]
        if changed:
            what = ", ".join(dict.fromkeys("contents" if k.endswith("sha256") else k for k in changed))
            _fail(f"stale ({os.path.basename(new['path'])} changed since the cache was written: {what})")


# ----------------------------------------------------------------------------- prefetching
class BlockReader:
    """The iterator :meth:`Cache.blocks` returns: blocks, and ``close()`` to stop early.

    Closing (explicitly, by ``with``, by leaving a ``for`` loop over it, or by garbage
    collection) stops the prefetch thread, waits for it, and closes the file.

    Parameters
    ----------
    generator : generator
        The blocks.
    """

    def __init__(self, generator):
        self._generator = generator

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._generator)

    def close(self):
        """Stop reading: end the prefetch thread and close the file."""
        self._generator.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_BLOCK, _END, _ERROR = "block", "end", "error"
#: how often a producer blocked on a full slot looks whether the consumer has gone
_POLL_SECONDS = 0.05


def _prefetched(records):
    """``records`` read one ahead by a background thread (double buffering).

    The slot holds one block: the thread reads (and checks) block k + 1 while the consumer
    works on block k, then waits.  When the consumer stops, for whatever reason, the ``finally``
    tells the thread to stop, frees the slot, and joins it before the caller closes the file.
    """
    slot = queue.Queue(maxsize=1)
    stop = threading.Event()
    thread = threading.Thread(
        target=_produce, args=(records, slot, stop), name="perceptrons-cache-prefetch", daemon=True
    )
    thread.start()
    try:
        while True:
            kind, item = slot.get()
            if kind == _END:
                return
            if kind == _ERROR:
                raise item  # the thread's exception, with its traceback
            yield item
    finally:
        stop.set()
        with contextlib.suppress(queue.Empty):
            slot.get_nowait()  # a producer waiting on the full slot can finish now
        thread.join()


def _produce(records, slot, stop):
    try:
        for block in records:
            if not _offer(slot, (_BLOCK, block), stop):
                return
        _offer(slot, (_END, None), stop)
    except BaseException as exc:  # re-raised in the consumer, never lost in this thread
        _offer(slot, (_ERROR, exc), stop)
    finally:
        records.close()


def _offer(slot, item, stop):
    """Put ``item`` in the slot unless the consumer has stopped; whether it was put."""
    while not stop.is_set():
        try:
            slot.put(item, timeout=_POLL_SECONDS)
            return True
        except queue.Full:
            continue
    return False
