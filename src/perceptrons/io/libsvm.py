"""LIBSVM/SVMlight text, plain or gzip, read by a compiled parser: in blocks, or whole.

The file is read in chunks of complete lines (a partial last line is carried into the next
chunk) and each chunk is parsed by :func:`perceptrons._jit.libsvm_parse.parse_libsvm`, with no
Python per line.  The first bad token stops the read with a one-line error naming the file, the
line and the byte offset of the token, what was seen there and what was expected.
"""

import os
import re

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import LoadBudget
from perceptrons._core.params import check_bool, check_path
from perceptrons._jit import libsvm_parse as P
from perceptrons._jit.libsvm_parse import (
    ALL_ONES,
    FIRST_LINE,
    INEXACT_LABELS,
    INFO_SIZE,
    MAX_SEEN,
    NNZ,
    ROWS,
    STATUS,
    TEXT,
    count_bounds,
    parse_libsvm,
)
from perceptrons.io.blocks import Block
from perceptrons.io.chunks import is_gzip, line_chunks
from perceptrons.io.labels import check_label, typed_labels

#: LIBSVM feature indices are 1-based and must fit the int32 index arrays of a CSR matrix
MAX_LIBSVM_INDEX = 2**31 - 1
#: bytes read (and parsed) at a time by :func:`libsvm_blocks`
BLOCK_BYTES = 1 << 24
# ... and by read_libsvm, whose read buffer adds to its peak memory: 4 MiB keeps that small while
# the per-chunk cost (a call, four in-place resizes) stays negligible
_READ_BYTES = 1 << 22
# what ends a token: ASCII whitespace (as ``bytes.split`` sees it) or a comment
_TOKEN = re.compile(rb"[^ \t\n\r\x0b\x0c#]*")


def libsvm_blocks(path, block_bytes=BLOCK_BYTES, n_features=None, width_is="the model's", zero_based=False):
    """The rows of a LIBSVM/SVMlight file, as CSR blocks of about ``block_bytes`` of text each.

    Parameters
    ----------
    path : str or path-like
        Plain text, or gzip (told by its first two bytes, whatever the name).
    block_bytes : int, default 2**24
        Bytes of text read and parsed at a time; a line longer than that is still read whole.
    n_features : int, optional
        Width expected by a model: a feature index beyond it is refused.
    width_is : str, default "the model's"
        Whose width ``n_features`` is, as the refusal names it ("the model's", "--hash-bits 8's").
    zero_based : bool, default False
        The file's first index is 0 (as scikit-learn's ``dump_svmlight_file`` writes by
        default), not LIBSVM's 1; index 0 is then column 0.

    Yields
    ------
    Block
        CSR rows: ``indptr`` int64 from 0, ``indices`` int32 (0-based), ``data`` float32, or
        None when every value of the block is exactly 1; ``y`` float64; ``line`` the file line
        of the block's first row.  Chunks holding no data row (only comments) yield nothing.

    Raises
    ------
    PerceptronsError
        The file is empty, not LIBSVM text (the message names its line and byte), or a
        truncated gzip stream.
    """
    path = check_path(path, "path", "libsvm_blocks")
    limit = -1 if n_features is None else int(n_features)
    base = 0 if check_bool(zero_based, "zero_based") else 1
    info = np.zeros(INFO_SIZE, np.int64)
    no_text = np.empty(0, np.uint8)
    for chunk in _chunks(path, block_bytes):
        buf, n = chunk.buf, chunk.n
        y = np.empty(chunk.newlines + 1)
        indptr = np.empty(chunk.newlines + 2, np.int64)
        indptr[0] = 0
        indices = np.empty(chunk.colons, np.int32)
        values = np.empty(chunk.colons, np.float32)
        parse_libsvm(buf, n, chunk.first, (limit, base), y, indptr, indices, values, no_text, 0, 0, info)
        if info[STATUS]:
            raise _error(path, chunk, info, n_features, width_is, base)
        rows, nnz = int(info[ROWS]), int(info[NNZ])
        if rows:
            yield Block(
                y=y[:rows],
                indptr=indptr[: rows + 1],
                indices=indices[:nnz],
                data=None if info[ALL_ONES] else values[:nnz],
                path=path,
                line=chunk.line + int(info[FIRST_LINE]) - 1,
                end=chunk.byte + n,
            )


def read_libsvm(path, label=None, n_features=None, require_labels=True, zero_based=False):
    """A LIBSVM/SVMlight file (plain or gzip) as a CSR matrix and its labels.

    Parameters
    ----------
    path : str or path-like
        The file; indices are 1-based and increasing within a line.
    label : None
        Unused (LIBSVM labels are the first token of each line); accepted like the other readers.
    n_features : int, optional
        Width expected by a model: X is padded to it and an index beyond it is refused.
    require_labels : bool
        Unused: every LIBSVM line starts with its label; accepted like the other readers.
    zero_based : bool, default False
        The file's first index is 0 (as scikit-learn's ``dump_svmlight_file`` writes by
        default), not LIBSVM's 1; index 0 is then column 0.

    Returns
    -------
    X : scipy.sparse.csr_matrix of float32, shape (n_rows, n_features or the largest index (at least 1))
    y : ndarray
        int64 when every label is a whole number within int64, else the labels' texts (so that
        ``1e19`` and ``10000000000000000001`` stay two classes), as
        :func:`perceptrons.io.labels.typed_labels` types them.
    label_name : None

    Raises
    ------
    PerceptronsError
        The file is empty, not LIBSVM text (the message names its line and byte), or a
        truncated gzip stream.
    """
    path = check_path(path, "path", "read_libsvm")
    import scipy.sparse as sp

    limit = -1 if n_features is None else int(n_features)
    base = 0 if check_bool(zero_based, "zero_based") else 1
    info = np.zeros(INFO_SIZE, np.int64)
    y = indptr = indices = values = None
    text = np.empty(0, np.uint8)
    label_texts = []
    rows = nnz = inexact = width = texts = 0
    budget = LoadBudget(path)
    for chunk in _chunks(path, _READ_BYTES):
        # labels and row starts 8 bytes each, an index and a value 4 each, the label texts
        budget.check(16 * (rows + chunk.newlines) + 8 * (nnz + chunk.colons) + texts, f"{path}, line {chunk.line}")
        if y is None:  # sized for the whole file from its first chunk; untouched pages cost nothing
            scale = max(1.0, chunk.size / chunk.n) * 1.05 if chunk.size else 1.0
            y = _capacity(np.float64, chunk.newlines + 1, scale)
            indptr = _capacity(np.int64, chunk.newlines + 2, scale)
            indptr[0] = 0
            indices = _capacity(np.int32, chunk.colons, scale)
            values = _capacity(np.float32, chunk.colons, scale)
        _reserve(y, rows + chunk.newlines + 1)
        _reserve(indptr, rows + chunk.newlines + 2)
        _reserve(indices, nnz + chunk.colons)
        _reserve(values, nnz + chunk.colons)
        if text.shape[0] < chunk.n + 1:
            text = np.empty(chunk.n + 1, np.uint8)
        parse_libsvm(chunk.buf, chunk.n, chunk.first, (limit, base), y, indptr, indices, values, text, rows, nnz, info)
        if info[STATUS]:
            raise _error(path, chunk, info, n_features, base=base)
        rows += int(info[ROWS])
        nnz += int(info[NNZ])
        inexact += int(info[INEXACT_LABELS])
        width = max(width, int(info[MAX_SEEN]))
        label_texts.append(text[: info[TEXT]].tobytes())
        texts += int(info[TEXT])
    del text
    for a, size in ((y, rows), (indptr, rows + 1), (indices, nnz), (values, nnz)):
        a.resize(size, refcheck=False)  # shrinks in place
    # as scikit-learn's reader did: at least one column, even when no row has a feature
    shape = (rows, max(width, 1) if n_features is None else n_features)
    X = sp.csr_matrix((values, indices, indptr), shape=shape)
    if inexact == 0:  # every label an integer within ±2^53: its double is exact
        labels = y.astype(np.int64)
    else:  # some label's text matters (0.5, 1e19): type them from their texts
        del y
        labels = typed_labels(b"".join(label_texts).decode("ascii").split("\n")[:-1])
    return X, labels, None


#: glibc serves requests of 32 MiB or more with mmap, and then grows and shrinks them with mremap
#: (pages moved, not copied); smaller ones may come from the heap, where realloc copies
_MMAP_BYTES = 32 << 20


def _capacity(dtype, first, scale):
    """An uninitialised output for about ``first * scale`` elements, served by mmap."""
    itemsize = np.dtype(dtype).itemsize
    return np.empty(max(int(first * scale), _MMAP_BYTES // itemsize + 1), dtype)


def _reserve(a, size):
    """Grow ``a`` in place to at least ``size`` elements (no view of it may exist).

    Only what the next chunk can need is added: numpy zero-fills the new elements, so any
    slack would be resident memory.
    """
    if a.shape[0] < size:
        a.resize(size, refcheck=False)


class _Chunk:
    """``buf[:n]``: complete lines starting at file ``line`` and ``byte`` (decompressed for gzip)."""

    __slots__ = ("buf", "n", "first", "line", "byte", "gz", "colons", "newlines", "size")

    def __init__(self, buf, n, first, line, byte, gz, colons, newlines, size):
        self.buf, self.n, self.first, self.line, self.byte = buf, n, first, line, byte
        self.gz, self.colons, self.newlines = gz, colons, newlines
        self.size = size  # bytes in the file (0 for gzip: unknown until read)


def _chunks(path, block_bytes):
    """:func:`perceptrons.io.chunks.line_chunks` with what the parser and its messages need:
    the file line each chunk starts at, and upper bounds of its rows and entries.
    """
    gz = is_gzip(path)
    size = 0 if gz else os.path.getsize(path)
    line, empty = 1, True
    for buf, n, byte in line_chunks(path, block_bytes):
        colons, newlines = count_bounds(buf, n)
        yield _Chunk(buf, n, byte == 0, line, byte, gz, int(colons), int(newlines), size)
        line += int(newlines)
        empty = False
    if empty:
        raise PerceptronsError(f"{path}: the file is empty; expected LIBSVM lines 'label index:value ...'")


#: bytes before an error searched for the carriage return that ran two lines together
MAX_CR_LOOKBACK = 1 << 16


class IndexZero(PerceptronsError):
    """A LIBSVM file read 1-based holds feature index 0: it was written 0-based (a reader that
    may read it so, ``zero_based=True``, catches this one).
    """


def _error(path, chunk, info, n_features, width_is="the model's", base=1):
    """The PerceptronsError for the parser's error code in ``info``."""
    code, a, b = int(info[P.STATUS]), int(info[P.ERR_A]), int(info[P.ERR_B])
    at = int(info[P.ERR_BYTE])
    line = chunk.line + int(info[P.ERR_LINE]) - 1
    byte = chunk.byte + at
    where = f"{path}, line {line} (byte {byte}{' of the decompressed stream' if chunk.gz else ''})"
    token = _TOKEN.match(bytes(chunk.buf[at : min(chunk.n, at + 400)])).group()
    start = bytes(chunk.buf[max(0, at - MAX_CR_LOOKBACK) : at]).rfind(b"\n") + 1 + max(0, at - MAX_CR_LOOKBACK)
    if b"\r" in bytes(chunk.buf[start:at]):  # the parser reads a lone CR as a space: the lines ran together
        return PerceptronsError(
            f"{where}: a carriage return not followed by a line feed (classic Mac line ends) ran this line "
            "into the next; expected lines ending in \\n or \\r\\n"
        )
    if b"\x00" in token:
        return PerceptronsError(f"{where}: a NUL byte; expected text")
    try:
        seen = token.decode("utf-8")
    except UnicodeDecodeError as exc:
        return PerceptronsError(f"{where}: byte {token[exc.start]:#04x} is not UTF-8 text; expected LIBSVM text")
    shown = seen[:40]
    value = seen.partition(":")[2][:40]
    if code in (P.LABEL_BAD, P.LABEL_NONFINITE):
        check_label(where, seen)  # NA, nan, inf: the messages every reader gives
        what = "not a number" if code == P.LABEL_BAD else "not finite"
        return PerceptronsError(f"{where}: label {shown!r} is {what}; expected a finite number first on the line")
    rest = bytes(chunk.buf[at : min(chunk.n, at + 400)]).partition(b"\n")[0]
    if code == P.TOKEN_BAD and b"|" in rest:  # read as LIBSVM by its name (.txt) or by --format
        return PerceptronsError(
            f"{where}: {shown!r} is not 'index:value'; this line reads as Vowpal Wabbit text "
            "('label | features'): give --format vw"
        )
    messages = {
        P.TOKEN_BAD: f"{shown!r} is not 'index:value'; expected a positive integer index, ':' and a number",
        P.QID_BAD: f"{shown!r} is not 'qid:<integer>'; expected a query id of digits",
        P.INDEX_ZERO: "feature index 0 < 1; expected LIBSVM indices, which start at 1 (a file of 0-based indices, "
        "as scikit-learn's dump_svmlight_file writes by default, is read with zero_based=True, and by train "
        "in memory; or write it with zero_based=False)",
        P.INDEX_TOO_LARGE: f"feature index {seen.partition(':')[0][:40]} is too large; "
        f"expected at most {MAX_LIBSVM_INDEX} (2^31 - 1)",
        P.INDEX_ORDER: f"feature index {a} {'repeats' if a == b else f'comes after index {b}'}; "
        "expected increasing indices, each once",
        P.INDEX_BEYOND: f"feature index {a} exceeds {width_is} {n_features} features; expected at most "
        f"{None if n_features is None else n_features - 1 + base}",
        P.VALUE_NONFINITE: f"value {value!r} of feature {a} is not finite; expected a finite number",
        P.VALUE_FLOAT32: f"value {value!r} of feature {a} is beyond float32's range (±3.4e38); expected a smaller number",
    }
    return (IndexZero if code == P.INDEX_ZERO else PerceptronsError)(f"{where}: {messages[code]}")
