"""Reading an epoch cache's header, trailer and footer, and checking every field of the footer."""

import zlib

import numpy as np

from perceptrons.io.cache._fingerprint import _fingerprint_problem
from perceptrons.io.cache._format import (
    _HEADER,
    _INT32_MAX,
    _INT64,
    _RECORD,
    _TAIL,
    _TRAILER,
    END_MAGIC,
    FORMAT,
    MAGIC,
    MAX_FOOTER_BYTES,
    MAX_FOOTER_DEPTH,
    VERSION,
)
from perceptrons.io.strict_json import strict_loads

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
    try:
        return strict_loads(text, MAX_FOOTER_DEPTH)
    except ValueError as exc:
        reason = str(exc)
        _fail(
            f"corrupted footer ({reason})"
            if reason.startswith("nested")
            else f"corrupted footer (not valid JSON: {reason[:80]})"
        )


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
