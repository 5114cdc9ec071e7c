"""Model files: a zip of ``.npy`` arrays plus one JSON metadata record; never a pickle.

Layout (``numpy.savez`` container, read back with ``allow_pickle=False``):

* ``__meta__`` — UTF-8 JSON as a uint8 array: ``format`` (this module's format name),
  ``format_version``, ``library_version``, ``estimator`` (a registry name), ``params``, the
  estimator's own metadata under ``state``, and ``sha256`` over the metadata and every array;
* every other entry — one plain numeric or unicode array.

Files are written to a temporary file in the destination directory and renamed over the
target (:mod:`perceptrons.io.atomic`), so a crash, an error or a signal never leaves a
half-written model or destroys an existing one.  Reading checks the container only; what the
fields mean is checked by :mod:`perceptrons.io.model_state` as the estimator reads them.
"""

import hashlib
import json
import os
import zipfile

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.atomic import atomic_output
from perceptrons.io.npy import _first_line, read_npy
from perceptrons.io.strict_json import strict_loads

FORMAT = "perceptrons-model"
FORMAT_VERSION = 1


def _digest(meta, arrays):
    h = hashlib.sha256(json.dumps(meta, sort_keys=True).encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(name.encode())
        h.update(str(a.dtype.str).encode())
        h.update(str(a.shape).encode())
        h.update(a.reshape(-1).view(np.uint8).data if a.size else b"")  # no copy of the bytes
    return h.hexdigest()


def write_model(path, meta, arrays):
    """Write ``meta`` (JSON-able dict) and ``arrays`` (name -> ndarray) atomically to ``path``."""
    arrays = {name: np.asarray(a) for name, a in arrays.items()}
    for name, a in arrays.items():
        if a.dtype.hasobject:
            raise PerceptronsError(
                f"model array {name!r} holds Python objects ({a.dtype}); only numbers and strings can be stored"
            )
        if name == "__meta__":
            raise PerceptronsError("'__meta__' is reserved in model files")
    # the reader takes little-endian arrays only: a big-endian one (labels a user fitted with,
    # say) is stored in the other byte order, same values
    arrays = {k: a.astype(a.dtype.newbyteorder("<")) if a.dtype.byteorder == ">" else a for k, a in arrays.items()}
    if len(arrays) + 1 > MAX_MEMBERS:  # and the record: refused as read_model would refuse it
        raise PerceptronsError(
            f"{os.fspath(path)}: a model of {len(arrays) + 1:,} arrays (at most {MAX_MEMBERS:,}); a table "
            "of this many text columns is more than a model file holds: hash them (--stream --hash-bits)"
        )
    meta = dict(meta, format=FORMAT, format_version=FORMAT_VERSION)
    _check_record(path, meta)
    meta["sha256"] = _digest(meta, arrays)
    blob = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    # into the output as numpy writes it, not into memory first: a hashed model's arrays can
    # be gigabytes, and a second copy of them in a buffer doubled the peak of the fit
    with atomic_output(path, "wb") as f:
        try:
            np.savez(f, __meta__=blob, **arrays)
        except OSError as exc:  # zipfile's seek or tell reach the file itself (a full disk: ENOSPC)
            raise PerceptronsError(f"{os.fspath(path)}: cannot write: {exc.strerror or exc}") from None


def _check_record(path, meta):
    """Refuse, before anything is written, a record :func:`read_model` would refuse: one that is
    no JSON (NaN, an object, a key that is no str), too long or nested too deep.
    """
    where = f"{os.fspath(path)}: cannot save the model"
    try:
        text = json.dumps(meta, allow_nan=False)
        same = strict_loads(text, MAX_META_DEPTH) == meta
    except (TypeError, ValueError) as exc:
        raise PerceptronsError(
            f"{where}: its record is not JSON ({str(exc).splitlines()[0][:120]}); info must hold JSON values only"
        ) from None
    if not same:  # {1: "x"} read back as {"1": "x"}, a tuple as a list
        raise PerceptronsError(
            f"{where}: its record would not read back the same; keys must be str, and lists not tuples"
        )
    if len(text.encode("utf-8")) > MAX_META_BYTES:
        raise PerceptronsError(
            f"{where}: its record is {len(text.encode('utf-8')):,} bytes (at most {MAX_META_BYTES:,})"
        )


#: a model holds a few tens of arrays (a tagger with clusters about 30), and a table's column
#: pipeline five a text column (a table of 10 text columns passed 64, and its model file, written,
#: could not be read): room for about 800; more is not ours
MAX_MEMBERS = 4096
#: the metadata record: JSON of parameters, counts and per-epoch histories
MAX_META_BYTES = 16 << 20
MAX_META_DEPTH = 16
#: dtypes an array of ours can have: booleans, integers, floats, text (class labels)
_KINDS = {"b": (1,), "i": (1, 2, 4, 8), "u": (1, 2, 4, 8), "f": (4, 8), "U": None}


def _fail(path, what):
    raise PerceptronsError(f"{path}: not a valid perceptrons model file: {what}")


def _our_dtype(path):
    """The dtypes a model file's arrays can have: what our writer writes, little-endian."""

    def check(name, shape, dtype):
        sizes = _KINDS.get(dtype.kind, ())
        if (sizes is not None and dtype.itemsize not in sizes) or dtype.byteorder == ">":
            _fail(path, f"array {name!r} has dtype {dtype.str!r}; expected bool, int, float or text")
        if len(shape) > 4:
            _fail(path, f"array {name!r} has {len(shape)} dimensions; expected at most 4")

    return check


def _check_text(path, name, a):
    """``a``, unless it is text holding a code above U+10FFFF: numpy stores any 32-bit code, and
    Python refuses to make a str of one (a ``SystemError`` wherever a label became a str).
    """
    if a.dtype.kind == "U" and a.dtype.itemsize and a.size:
        codes = np.ascontiguousarray(a).view(np.uint32)
        if int(codes.max()) > 0x10FFFF:
            _fail(path, f"array {name!r} holds the character code {int(codes.max()):#x}; expected Unicode text")
    return a


def _check_meta_text(path, raw):
    if len(raw) > MAX_META_BYTES:
        _fail(path, f"metadata record of {len(raw)} bytes (at most {MAX_META_BYTES})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        _fail(path, "metadata record is not UTF-8")
    try:
        meta = strict_loads(text, MAX_META_DEPTH)
    except ValueError as exc:
        reason = str(exc)
        _fail(
            path,
            f"metadata record {reason}"
            if reason.startswith("nested")
            else f"metadata record is not valid JSON ({_first_line(exc)})",
        )
    if not isinstance(meta, dict):
        _fail(path, f"metadata record is a JSON {type(meta).__name__}, expected an object")
    return meta


def read_model(path):
    """Return (meta, arrays) of a model file after checking its container and checksum.

    Only the container is checked here: at most ``MAX_MEMBERS`` stored (uncompressed) ``.npy``
    members with unique names, each read once; plain numeric or text dtypes; a metadata record
    that is a JSON object of bounded size and depth; the format name and version; the checksum.
    What the fields mean is checked by :class:`perceptrons.io.model_state.ModelState` as the
    estimator reads them.  The checksum is not a signature: anyone can recompute it, so it only
    catches accidents.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise PerceptronsError(f"{path}: no such model file")
    if not os.path.isfile(path):
        raise PerceptronsError(f"{path}: not a regular file, expected a model file")
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_MEMBERS:
                _fail(path, f"{len(infos)} members (at most {MAX_MEMBERS})")
            names = [i.filename for i in infos]
            if len(set(names)) != len(names):
                _fail(path, "two members have the same name")
            size = os.path.getsize(path)
            for info in infos:
                if not info.filename.endswith(".npy") or len(info.filename) > 204:
                    _fail(path, f"member {info.filename[:80]!r} is not an array")
                if info.compress_type != zipfile.ZIP_STORED or info.compress_size != info.file_size:
                    _fail(path, f"member {info.filename!r} is compressed; model files store arrays uncompressed")
                if info.file_size > size or info.flag_bits & 0x1:
                    _fail(path, f"member {info.filename!r} declares {info.file_size} bytes in a file of {size}")
            if "__meta__.npy" not in names:
                raise PerceptronsError(f"{path}: not a perceptrons model file (no metadata record)")
            arrays, check = {}, _our_dtype(path)
            for info in infos:
                arrays[info.filename[:-4]] = _check_text(path, info.filename[:-4], read_npy(path, zf, info, check))
    except PerceptronsError:
        raise
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        EOFError,
        OSError,
        ValueError,
        KeyError,
        UnicodeDecodeError,
        NotImplementedError,
        OverflowError,
    ) as exc:
        reason = _first_line(exc)
        raise PerceptronsError(
            f"{path}: not a readable perceptrons model file (truncated or corrupted: {reason})"
        ) from None
    blob = arrays.pop("__meta__")
    if blob.dtype != np.uint8 or blob.ndim != 1:
        _fail(path, f"metadata record is {blob.dtype} of shape {blob.shape}, expected uint8 bytes")
    meta = _check_meta_text(path, blob.tobytes())
    if meta.get("format") != FORMAT:
        raise PerceptronsError(f"{path}: not a perceptrons model file (format {str(meta.get('format'))[:40]!r})")
    version = meta.get("format_version")
    if type(version) is not int or version < 1:
        _fail(path, f"format_version {str(version)[:40]!r}, expected a positive int")
    if version > FORMAT_VERSION:
        raise PerceptronsError(
            f"{path}: model format version {version} is newer than this library reads "
            f"({FORMAT_VERSION}); upgrade perceptrons"
        )
    stored = meta.pop("sha256", None)
    if stored != _digest(meta, arrays):
        raise PerceptronsError(f"{path}: model file checksum does not match its contents (tampered or corrupted)")
    return meta, arrays
