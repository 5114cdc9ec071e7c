"""Model files: a zip of ``.npy`` arrays plus one JSON metadata record; never a pickle.

Layout (``numpy.savez`` container, read back with ``allow_pickle=False``):

* ``__meta__`` — UTF-8 JSON as a uint8 array: ``format`` (this module's format name),
  ``format_version``, ``library_version``, ``estimator`` (a registry name), ``params``, the
  estimator's own metadata under ``state``, and ``sha256`` over the metadata and every array;
* every other entry — one plain numeric or unicode array.

Files are written to a temporary file in the destination directory and renamed over the
target, so a crash or an error never leaves a half-written model or destroys an existing one.
"""

import hashlib
import io
import json
import os
import tempfile
import zipfile

import numpy as np

from perceptrons._validation import PerceptronsError

FORMAT = "perceptrons-model"
FORMAT_VERSION = 1


def _digest(meta, arrays):
    h = hashlib.sha256(json.dumps(meta, sort_keys=True).encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(name.encode())
        h.update(str(a.dtype.str).encode())
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def atomic_write_bytes(path, payload):
    """Write ``payload`` to ``path`` via a temporary file in the same directory and a rename."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise PerceptronsError(f"{path}: the directory {directory!r} does not exist")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_model(path, meta, arrays):
    """Write ``meta`` (JSON-able dict) and ``arrays`` (name -> ndarray) atomically to ``path``."""
    for name, a in arrays.items():
        a = np.asarray(a)
        if a.dtype.hasobject:
            raise PerceptronsError(
                f"model array {name!r} holds Python objects ({a.dtype}); only numbers and strings can be stored"
            )
        if name == "__meta__":
            raise PerceptronsError("'__meta__' is reserved in model files")
    meta = dict(meta, format=FORMAT, format_version=FORMAT_VERSION)
    meta["sha256"] = _digest(meta, arrays)
    buf = io.BytesIO()
    blob = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    np.savez(buf, __meta__=blob, **{k: np.asarray(v) for k, v in arrays.items()})
    atomic_write_bytes(path, buf.getvalue())


def read_model(path):
    """Return (meta, arrays) from a model file, refusing anything that is not one of ours."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise PerceptronsError(f"{path}: no such model file")
    try:
        with np.load(path, allow_pickle=False) as z:
            if "__meta__" not in z.files:
                raise PerceptronsError(f"{path}: not a perceptrons model file (no metadata record)")
            meta = json.loads(bytes(z["__meta__"]).decode("utf-8"))
            arrays = {k: z[k] for k in z.files if k != "__meta__"}
    except PerceptronsError:
        raise
    except (zipfile.BadZipFile, EOFError, OSError, ValueError, KeyError, UnicodeDecodeError) as exc:
        raise PerceptronsError(
            f"{path}: not a readable perceptrons model file (truncated or corrupted: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
        ) from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise PerceptronsError(f"{path}: not a perceptrons model file (format {meta.get('format')!r})")
    version = meta.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise PerceptronsError(
            f"{path}: model format version {version!r} is newer than this library reads "
            f"({FORMAT_VERSION}); upgrade perceptrons"
        )
    stored = meta.pop("sha256", None)
    if stored != _digest(meta, arrays):
        raise PerceptronsError(f"{path}: model file checksum does not match its contents (tampered or corrupted)")
    return meta, arrays
