"""What identifies the source of an epoch cache, and the check of a fingerprint's structure."""

import hashlib
import os
import re
import stat

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_path
from perceptrons.io.cache._format import _INT64

#: bytes hashed at each end of a source file by :func:`fingerprint`
SAMPLE_BYTES = 1 << 20
#: the revision of the rules by which the readers accept rows, an option of every epoch cache's
#: fingerprint: a cache written under other rules is stale, since rows its reader accepted may
#: be refused now.  Raised to 2 when a streamed CSV's numbers-or-text rule came to be checked on
#: every block, not on the first only; to 3 when it came to read numbers as spreadsheets write
#: them (``$1,234``, ``45%``, a decimal comma), marks of no value, and dates and decimals as numbers;
#: to 4 when a column of hexadecimal came to be read as text, true and false as 1 and 0, and
#: every file of a source with the first file's kinds.
READ_RULES = 4
_SOURCE_FIELDS = {"path": str, "size": int, "mtime_ns": int, "head_sha256": str, "tail_sha256": str}
_HEX64 = re.compile(r"[0-9a-f]{64}")


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
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    if not isinstance(paths, (list, tuple)):
        check_path(paths, "paths", "fingerprint")  # the error: neither a path nor a sequence of them
    paths = [check_path(p, "paths", "fingerprint") for p in paths]
    result = {"sources": [_source_print(os.fsdecode(p)) for p in paths], "options": dict(options or {})}
    problem = _fingerprint_problem(result)
    if problem:
        raise PerceptronsError(f"fingerprint: {problem}")
    return result


def file_identity(st):
    """What tells a file from its edited or replaced self, from its ``os.stat`` result: device,
    inode, size and time written.  A reader that reads a file again checks it against this."""
    return st.st_dev, st.st_ino, *file_stamp(st)


def file_stamp(st):
    """The part of :func:`file_identity` that every machine sharing a file sees alike: its size
    and time written (device and inode numbers are each machine's own)."""
    return st.st_size, st.st_mtime_ns


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
