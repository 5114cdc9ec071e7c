"""Vowpal Wabbit text format: a streaming reader of hashed CSR blocks, and a LIBSVM converter.

A line is ``[label [importance [initial]]] [tag]|namespace[:scale] feature[:value] ... |namespace2 ...``;
the rules, and how feature names are hashed into ``2**hash_bits`` columns (our own convention,
not bit-compatible with VW's hashes), are in :mod:`perceptrons._jit.vw_parse`.

The file is read in chunks into one reusable buffer; the compiled parser takes every complete
line of a chunk at once and the unfinished last line is carried over to the next chunk (a line
longer than a chunk grows the buffer).  Memory stays within a few chunks whatever the file
size.  Plain text or gzip (recognised by its magic bytes ``1f 8b``, not by the name).

Errors are one line: ``data.vw, line 7 (byte 312): feature value 'nan'; expected a finite
number`` — the line counted from 1, the byte the 0-based offset of the token from the start
of the file (of the decompressed stream for gzip), so ``tail -c +313 data.vw`` starts at it.
"""

import dataclasses
import math
import os
import re
from numbers import Integral

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_path
from perceptrons._jit.vw_parse import parse_lines
from perceptrons.io.atomic import atomic_output
from perceptrons.io.blocks import Block, budgeted, joined_weight
from perceptrons.io.chunks import line_chunks
from perceptrons.io.hashing import DEFAULT_HASH_BITS, MAX_HASH_BITS
from perceptrons.io.libsvm import libsvm_blocks

_BOM = b"\xef\xbb\xbf"
#: bytes of LIBSVM → VW output gathered before one write

# what the parser's error codes (perceptrons._jit.vw_parse.E_*) saw and expected
_MESSAGES = {
    1: ("a NUL byte", "text"),
    2: ("no '|' on a line starting {tok}", "'label |namespace features'"),
    3: (
        "no label before '|' ({tok})",
        "a number first (only predictions read examples without one); a token touching '|' is a tag, "
        "so put a space before '|'",
    ),
    4: ("label {tok}", "a finite number"),
    5: ("importance weight {tok}", "a finite number >= 0"),
    6: ("{tok} after the label, importance and initial prediction", "'|' (a tag must touch '|' or start with \"'\")"),
    7: ("namespace scale {tok}", "'|namespace:scale' with a finite number"),
    8: ("feature value {tok}", "'name:value' with a finite number"),
    9: ("feature value {tok}", "a value finite in float32 once multiplied by the namespace scale"),
    10: ("feature {tok} without a name", "'name' or 'name:value'"),
    11: ("a row whose repeated features sum beyond the float32 range", "smaller values"),
    12: (
        "{tok} after the label and importance",
        "an initial prediction (a finite number) or '|' (a tag must touch '|' or start with \"'\")",
    ),
    13: ("a carriage return not followed by a line feed (classic Mac line ends)", "lines ending in \\n or \\r\\n"),
}


def check_hash_bits(hash_bits):
    """Return ``hash_bits`` as an int, or raise :class:`PerceptronsError`.

    Parameters
    ----------
    hash_bits : int
        Number of bits of the hashed feature index: the feature space has ``2**hash_bits``
        columns.  An integer in [1, 28] (see :data:`perceptrons.io.hashing.MAX_HASH_BITS`).

    Returns
    -------
    int
    """
    if isinstance(hash_bits, bool) or not isinstance(hash_bits, Integral) or not 1 <= hash_bits <= MAX_HASH_BITS:
        raise PerceptronsError(f"--hash-bits must be an integer in [1, {MAX_HASH_BITS}]; got {hash_bits!r}")
    return int(hash_bits)


def vw_blocks(path, hash_bits=DEFAULT_HASH_BITS, block_bytes=1 << 24, require_labels=True):
    """Stream a Vowpal Wabbit text file (plain or gzip) as CSR blocks of hashed features.

    Parameters
    ----------
    path : str or path-like
        The file; gzip is recognised by its first two bytes.
    hash_bits : int, default 18
        Feature names are hashed into ``2**hash_bits`` columns, in [1, 28].
    block_bytes : int, default 16 MiB
        Bytes read per chunk; a block holds the complete lines of one chunk.
    require_labels : bool, default True
        False reads VW's unlabeled examples (``|f a b``, lines to predict) with the label NaN;
        True refuses them, naming the line.

    Returns
    -------
    iterator of Block
        CSR blocks (:class:`perceptrons.io.blocks.Block`): ``indptr`` int64 from 0, ``indices``
        int32 sorted within each row, ``data`` float32 or None when every value of the block
        is 1; ``y`` float64 labels; ``weight`` float64 importances or None when all are 1;
        ``line`` the file line of the block's first row.  Blank lines yield no row.

    Raises
    ------
    PerceptronsError
        On a bad parameter (at once), or on the first bad line (when reached), naming the
        file, the line and the byte offset; on a truncated or corrupt gzip stream.
    """
    path = check_path(path, "path", "vw_blocks")
    bits = check_hash_bits(hash_bits)
    if isinstance(block_bytes, bool) or not isinstance(block_bytes, Integral) or block_bytes < 1:
        raise PerceptronsError(f"block_bytes must be a positive integer; got {block_bytes!r}")
    path = os.fspath(path)
    return _blocks(path, bits, int(block_bytes), bool(require_labels))


def _blocks(path, bits, chunk, require_labels):
    line = 1  # file line of the chunk's first byte
    for buf, end, offset in line_chunks(path, chunk):
        skip = len(_BOM) if offset == 0 and bytes(buf[: len(_BOM)]) == _BOM else 0
        # a UTF-8 byte-order mark (Windows editors write one) is no part of the first label
        block, lines = _parse(buf[skip:], end - skip, bits, path, offset + skip, line, require_labels)
        if block is not None:
            yield dataclasses.replace(block, end=offset + end, width=1 << bits)
        line += lines


def _parse(buf, end, bits, path, offset, line, require_labels):
    """The block of the lines in ``buf[:end]`` (None if all are blank) and the lines consumed."""
    indptr, indices, data, y, weight, ones, unit, first, lines, err = parse_lines(buf, end, bits, require_labels)
    if err[0]:
        code, at, start, stop = (int(v) for v in err)
        raise PerceptronsError(_message(path, line + at, offset + start, code, bytes(buf[start:stop])))
    if first < 0:
        return None, lines
    block = _block(y, indptr, indices, None if ones else data, None if unit else weight, path, line + first)
    return block, lines


def _block(y, indptr, indices, data, weight, path, line):

    return Block(y=y, indptr=indptr, indices=indices, data=data, weight=weight, path=path, line=line)


def _message(path, line, byte, code, token):
    seen, expected = _MESSAGES[code]
    text = token.decode("utf-8", errors="replace")
    tok = repr(text if len(text) <= 40 else text[:40] + "...")
    return f"{path}, line {line} (byte {byte}): {seen.format(tok=tok)}; expected {expected}"


def read_vw(path, label=None, n_features=None, hash_bits=None, require_labels=True, return_weight=False):
    """Read a whole Vowpal Wabbit text file (plain or gzip) into memory.

    Parameters
    ----------
    path : str or path-like
        The file.
    label : None
        Not used: a VW line carries its label first.  Anything but None is refused.
    n_features : int, optional
        The width a model expects; it must be ``2**hash_bits``.  When ``hash_bits`` is not
        given, it is taken from ``n_features`` (a power of two).
    hash_bits : int, optional
        Feature names are hashed into ``2**hash_bits`` columns, in [1, 28]; default 18, or
        ``log2(n_features)``.
    require_labels : bool, default True
        False reads unlabeled examples too, their label NaN (see :func:`vw_blocks`).
    return_weight : bool, default False
        Also return the importance weights, as a streamed fit uses them.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n, 2**hash_bits), float32
        Rows with sorted indices, repeated features summed.
    y : ndarray of shape (n,)
        int64 when every label is a whole number, else float64 (NaN for an unlabeled example).
    label_name : None
        VW files have no label column name.
    weight : ndarray of shape (n,) float64 or None, only with ``return_weight``
        The importance weights; None when every one is 1.

    Raises
    ------
    PerceptronsError
        On a bad parameter, a bad line (see :func:`vw_blocks`) or a file without examples.
    """
    path = check_path(path, "path", "read_vw")
    import scipy.sparse as sp

    if label is not None:
        raise PerceptronsError(f"{path}: --label names a CSV column; a Vowpal Wabbit line carries its label first")
    bits = _bits_for(hash_bits, n_features)
    blocks = budgeted(path, vw_blocks(path, bits, require_labels=require_labels))
    if not blocks:
        raise PerceptronsError(f"{path}: no examples; expected Vowpal Wabbit lines 'label |namespace features'")
    indptr = [np.zeros(1, np.int64)]
    for b in blocks:
        indptr.append(b.indptr[1:] + indptr[-1][-1])
    data = [np.ones(b.indices.shape[0], np.float32) if b.data is None else b.data for b in blocks]
    n = sum(b.n_rows for b in blocks)
    X = sp.csr_matrix(
        (np.concatenate(data), np.concatenate([b.indices for b in blocks]), np.concatenate(indptr)),
        shape=(n, 1 << bits),
    )
    y = _labels(np.concatenate([b.y for b in blocks]))
    if not return_weight:
        return X, y, None

    return X, y, None, joined_weight(blocks)


def _bits_for(hash_bits, n_features):
    if n_features is None:
        return check_hash_bits(DEFAULT_HASH_BITS if hash_bits is None else hash_bits)
    if hash_bits is None:
        if isinstance(n_features, Integral) and n_features >= 2 and n_features & (n_features - 1) == 0:
            return check_hash_bits(int(n_features).bit_length() - 1)
        raise PerceptronsError(
            f"a model of {n_features} features cannot read hashed Vowpal Wabbit features; expected 2**hash_bits features"
        )
    bits = check_hash_bits(hash_bits)
    if n_features != 1 << bits:
        raise PerceptronsError(
            f"the model has {n_features} features but --hash-bits {bits} gives {1 << bits}; expected the same hash bits as in training"
        )
    return bits


def _labels(y):
    """int64 labels when every one is a whole number within int64 (classes), else float64."""
    if y.size and np.all(y == np.floor(y)) and np.all(np.abs(y) < 2.0**63):
        return y.astype(np.int64)
    return y


# ----------------------------------------------------------------------------- LIBSVM → VW
def libsvm_to_vw(src, dst):
    """Convert a LIBSVM/SVMlight text file to Vowpal Wabbit text, streaming.

    Every ``index:value`` becomes the feature ``index:value`` of namespace ``f``
    (``1 |f 3:1 17:0.5``).  When the file holds exactly two distinct labels they become -1
    (the smaller) and +1 (the larger), as VW's binary losses expect; other labels are kept as
    they are.  Comments (``# ...``), blank lines and ``qid:`` tokens are dropped.  The output
    is written atomically (:func:`perceptrons.io.atomic.atomic_output`).

    Parameters
    ----------
    src : str or path-like
        LIBSVM text, plain or gzip.
    dst : str or path-like
        The VW file to write.

    Returns
    -------
    int
        Number of examples written.

    Raises
    ------
    PerceptronsError
        When ``src`` cannot be read or a line is not ``label index:value ...``.
    """
    dst = check_path(dst, "dst", "libsvm_to_vw")
    src = check_path(src, "src", "libsvm_to_vw")
    mapping = _binary_mapping(src)  # a first pass of the compiled parser: it also checks every line
    count = 0
    with atomic_output(dst, "wb") as out:
        for text, rows in _vw_chunks(src, mapping):
            out.write(text)
            count += rows
    return count


# a data line: its label, the space after it, the rest; for chunks without comments or qid tokens,
# where a line converts by inserting "|f " after its label (an "index:value" is a VW feature as is)
_LINE = re.compile(rb"^[ \t]*(\S+)[ \t]+(?=\S)|^[ \t]*(\S+)[ \t]*$", re.MULTILINE)


def _vw_chunks(src, mapping):
    """(VW text, rows) of each chunk of the LIBSVM file ``src``."""
    line = 1
    for buf, n, _ in line_chunks(src, 1 << 22):
        chunk = bytes(buf[:n])
        if b"#" in chunk or b"qid:" in chunk or b"\r" in chunk:  # the careful way, line by line
            rows = [
                b"%s |f %s\n" % (mapping.get(float(label), label), b" ".join(tokens))
                for _, label, tokens in _libsvm_rows(chunk.split(b"\n"), src, line)
            ]
            yield b"".join(rows), len(rows)
        else:  # every line was checked by the compiled parser already (_binary_mapping)
            rows = 0

            def convert(m):
                nonlocal rows
                rows += 1
                label = m.group(1) or m.group(2)
                label = mapping.get(float(label), label) if mapping else label
                return b"%s |f " % label if m.group(1) else b"%s |f" % label

            text = _LINE.sub(convert, chunk)
            yield (text if text.endswith(b"\n") or not text else text + b"\n"), rows
        line += chunk.count(b"\n")


def _libsvm_rows(lines, src, first_line=1):
    """(line number, label, feature tokens) of every data line among ``lines``."""
    for lineno, raw in enumerate(lines, first_line):
        parts = raw.split(b"#", 1)[0].split()
        if not parts:
            continue
        tokens = [t for t in parts[1:] if not t.startswith(b"qid:")]
        for t in tokens:
            idx, sep, val = t.partition(b":")
            if not (sep and idx.isdigit() and _is_number(val)):
                raise PerceptronsError(
                    f"{src}, line {lineno}: {t[:40].decode('utf-8', 'replace')!r}; expected 'index:value'"
                )
        if not _is_number(parts[0]):
            raise PerceptronsError(
                f"{src}, line {lineno}: label {parts[0][:40].decode('utf-8', 'replace')!r}; expected a number"
            )
        yield lineno, parts[0], tokens


def _is_number(text):
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _binary_mapping(src):
    """{label value: b"-1" or b"1"} when the file has exactly two label values (``1`` and
    ``+1`` are one); else {}.  Labels are read by the compiled parser, block by block.
    """
    values = set()
    for block in libsvm_blocks(src):
        values.update(np.unique(block.y).tolist())
        if len(values) > 2:
            return {}
    if len(values) != 2:
        return {}
    low, high = sorted(values)
    return {low: b"-1", high: b"1"}
