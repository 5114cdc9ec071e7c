"""``.npz`` data sets (arrays ``X`` and ``y``), every header checked before its array is read."""

import os

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import available_bytes
from perceptrons._core.params import check_path
from perceptrons.io.labels import MISSING_LABELS, check_label
from perceptrons.io.npy import read_npy

#: a deflated member expands at most ~1032 times; a member claiming more is not what numpy wrote
_MAX_DEFLATE_RATIO = 1100


def _plausible_member(path, info):
    """Refuse a member numpy.savez / savez_compressed would not write, before it is read."""
    import zipfile

    name = info.filename[:-4]
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise PerceptronsError(
            f"{path}: array {name!r} uses zip compression method {info.compress_type}; "
            "expected numpy.savez or numpy.savez_compressed output"
        )
    if info.flag_bits & 0x1:
        raise PerceptronsError(f"{path}: array {name!r} is encrypted")
    limit = (
        info.compress_size
        if info.compress_type == zipfile.ZIP_STORED
        else info.compress_size * _MAX_DEFLATE_RATIO + 1024
    )
    if info.compress_size > os.path.getsize(path) or info.file_size > limit:
        raise PerceptronsError(
            f"{path}: array {name!r} claims {info.file_size:,} bytes stored in {info.compress_size:,}; "
            "the archive is corrupted"
        )


def _check_npz_array(path):
    """The dtype and shape rules of X and y, applied to each header before its array is read."""

    def check(name, shape, dtype):
        need = int(np.prod(shape, dtype=object)) * dtype.itemsize
        avail = available_bytes()
        if avail is not None and need > avail:
            raise PerceptronsError(
                f"{path}: array {name!r} declares shape {shape} of {dtype} ({need / 2**20:,.0f} MiB), "
                f"more than this machine has available ({avail / 2**20:,.0f} MiB)"
            )
        if name == "X":
            if len(shape) != 2:
                raise PerceptronsError(f"{path}: X must be 2-D and y 1-D of the same length; got X of shape {shape}")
            if dtype.kind not in "biuf":
                what = "complex numbers" if dtype.kind == "c" else f"dtype {dtype}"
                raise PerceptronsError(f"{path}: X holds {what}; expected real numbers")
            if shape[1] == 0:
                raise PerceptronsError(f"{path}: X has 0 columns; expected at least one feature")
        else:
            if len(shape) != 1:
                raise PerceptronsError(f"{path}: X must be 2-D and y 1-D of the same length; got y of shape {shape}")
            if dtype.kind == "S":
                raise PerceptronsError(f"{path}: y holds bytes ({dtype}); expected integers or text (str) labels")
            if dtype.kind not in "biufU":
                raise PerceptronsError(f"{path}: y has dtype {dtype}; expected integer, float or text labels")

    return check


def read_npz(path, label=None, n_features=None, require_labels=True):
    """Arrays ``X`` (2-D, real numbers) and ``y`` (1-D class labels) of a ``numpy.savez`` archive.

    ``label`` is accepted like the other readers' and unused.  Without ``require_labels`` (rows
    to predict) the archive may hold ``X`` alone, and y is then None.

    Each header is checked before its array is loaded (:func:`perceptrons.io.npy.read_npy`); X must be
    finite with at least one column, and y integers, integral floats or text, without NaN,
    empty or bytes labels.
    """
    path = check_path(path, "path", "read_npz")
    import zipfile
    import zlib

    with open(path, "rb") as f:
        magic = f.read(6)
    if magic == b"\x93NUMPY":
        raise PerceptronsError(
            f"{path}: is a .npy file (one array); expected a .npz archive with arrays 'X' and 'y' "
            "(numpy.savez(path, X=X, y=y))"
        )
    if not magic.startswith(b"PK"):
        raise PerceptronsError(
            f"{path}: not a .npz archive (no zip signature); expected arrays 'X' and 'y' saved with numpy.savez"
        )
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            wanted = ("X", "y") if require_labels or "y.npy" in names else ("X",)
            missing = [k for k in wanted if k + ".npy" not in names]
            if missing:
                found = sorted(n.removesuffix(".npy") for n in names)[:10]
                raise PerceptronsError(
                    f"{path}: missing array(s) {missing}; expected arrays 'X' and 'y' "
                    f"(numpy.savez(path, X=X, y=y)); found {found}"
                )
            infos = [zf.getinfo(k + ".npy") for k in wanted]
            for info in infos:
                _plausible_member(path, info)
            check = _check_npz_array(path)
            X, y = [read_npy(path, zf, info, check) for info in infos] + [None] * (2 - len(wanted))
            if y is not None and X.shape[0] != y.shape[0]:
                raise PerceptronsError(
                    f"{path}: X must be 2-D and y 1-D of the same length; got {X.shape} and {y.shape}"
                )
    except PerceptronsError:
        raise
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        ValueError,
        OSError,
        EOFError,
        SyntaxError,
        TypeError,
        OverflowError,
        NotImplementedError,
        RuntimeError,
        KeyError,
        zlib.error,
    ) as exc:
        reason = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise PerceptronsError(f"{path}: not a readable .npz file ({reason})") from None
    if X.size and not np.all(np.isfinite(X)):
        row = int(np.flatnonzero(~np.isfinite(X).all(axis=1))[0])
        raise PerceptronsError(f"{path}: X row {row + 1} (1-based) holds NaN or inf; expected finite numbers")
    return X, (None if y is None else _check_npz_labels(path, y)), None


def _check_npz_labels(path, y):
    if y.dtype.kind == "f":
        bad = ~np.isfinite(y)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise PerceptronsError(
                f"{path}: y[{i}] (row {i + 1}) is {float(y[i])}; expected a class label, not NaN or inf"
            )
        frac = (y != np.round(y)) | (np.abs(y) >= 2.0**63)
        if frac.any():
            i = int(np.flatnonzero(frac)[0])
            what = "not an integer" if y[i] != np.round(y[i]) else "beyond the int64 range"
            raise PerceptronsError(
                f"{path}: y[{i}] (row {i + 1}) is {float(y[i])!r}, {what}; float class labels must be "
                "whole numbers within int64 (store other labels as text)"
            )
    elif y.dtype.kind == "U":
        for i, t in enumerate(y.tolist()):
            if t.strip().lower() in MISSING_LABELS:
                check_label(f"{path}: y[{i}] (row {i + 1})", t)
    return y
