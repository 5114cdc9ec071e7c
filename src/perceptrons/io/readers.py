"""Data-file readers: CSV/TSV with a header, LIBSVM/SVMlight text, and ``.npz``.

The format is chosen by extension (``.csv``, ``.tsv``, ``.txt``/``.svm``/``.libsvm`` or no
known extension → LIBSVM, ``.npz``) unless ``fmt`` says otherwise.  Every error names the file
and, where it has one, the line, the value seen and what was expected.
"""

import os
from importlib import import_module

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import available_bytes
from perceptrons._core.params import check_path
from perceptrons.io.atomic import cleanup_on_signals, signals_deferred
from perceptrons.io.labels import is_float
from perceptrons.io.spool import copy_bounded

FORMATS = ("csv", "tsv", "libsvm", "npz", "vw", "parquet")
_BY_EXTENSION = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".npz": "npz",
    ".svm": "libsvm",
    ".libsvm": "libsvm",
    ".svmlight": "libsvm",
    ".txt": "libsvm",
    ".t": "libsvm",
    ".vw": "vw",
    ".parquet": "parquet",
    ".pq": "parquet",
}

#: format -> "module:function"; each reader takes (path, label=, n_features=, require_labels=) and returns
#: (X, y, label name)
READERS = {
    "csv": "perceptrons.io.delimited:read_csv",
    "tsv": "perceptrons.io.delimited:read_tsv",
    "libsvm": "perceptrons.io.libsvm:read_libsvm",
    "npz": "perceptrons.io.npz:read_npz",
    "vw": "perceptrons.io.vw:read_vw",
    "parquet": "perceptrons.io.parquet_rows:read_parquet",
}
#: bytes in memory per byte of file, at most, once read (LIBSVM: int32 + float32 per "i:v " of ≥ 4
#: bytes; CSV: a float64 per number of ≥ 2 bytes); a file this large that does not fit is refused
_MEMORY_PER_BYTE = {"libsvm": 2.0, "vw": 2.0, "csv": 4.0, "tsv": 4.0}


def guess_format(path):
    """The format a file's extension names, ``.gz`` looked through; for ``.txt`` or an extension
    we do not know, what its first line looks like: a header of names separated by commas,
    semicolons or tabs is CSV or TSV, anything else LIBSVM (its data sets are often ``.txt``).
    """
    name = os.fspath(path)
    if name.lower().endswith(".gz"):
        name = name[:-3]
    ext = os.path.splitext(name)[1].lower()
    fmt = _BY_EXTENSION.get(ext)
    if fmt is not None and ext != ".txt":
        return fmt
    return _sniff_text(path)


def _sniff_text(path):
    """``"csv"``/``"tsv"`` when the first line of ``path`` is a header of names, else ``"libsvm"``
    (an unreadable file too: its reader says why).
    """
    from perceptrons.io.chunks import GZIP_ERRORS, opened

    if os.path.exists(path) and not (os.path.isfile(path) or os.path.isdir(path)):
        # a pipe or a FIFO: the line read here would be gone for its reader, which read on from
        # further in (a quarter of the rows lost without a word), or blocked opening it again
        raise PerceptronsError(
            f"{path}: a pipe or device, not a file, and its name tells no format; give --format "
            f"(one of {', '.join(FORMATS)})"
        )
    try:
        with opened(path) as f:
            # a header in another encoding is a header still (its reader decodes it as told)
            line = f.readline(1 << 16).decode("utf-8", "replace").lstrip("\ufeff").strip()
    except (PerceptronsError, *GZIP_ERRORS):
        return "libsvm"
    fields = line.split()
    if not fields or is_float(fields[0]) or line.startswith("|") or " |" in line:  # a label; VW's namespaces
        return "libsvm"
    if "\t" in line:
        return "tsv"
    return "csv" if any(mark in line for mark in ",;|") else "libsvm"


def read_data(
    path,
    label=None,
    fmt=None,
    n_features=None,
    return_label_name=False,
    require_labels=True,
    return_weight=False,
    encoding="utf-8",
    zero_based=False,
):
    """Read ``(X, y)`` from a data file.

    Parameters
    ----------
    path : str or path-like
        ``"-"`` reads standard input; ``fmt`` must then be given.
    label : str, optional
        CSV/TSV: name of the label column (default: the last column).  When ``n_features`` is
        given and the file has exactly that many columns and no column named ``label``, the file
        holds features only and y is None.
    fmt : {"csv", "tsv", "libsvm", "npz"}, optional
        Overrides the choice by extension.
    n_features : int, optional
        Width expected by a model: LIBSVM pads X to it (a test file may not mention the last columns).

    return_label_name : bool
        Also return the name of the label column (None for formats without a header).
    require_labels : bool, default True
        False reads rows to predict, whose labels may be missing: a Vowpal Wabbit example
        without one gets NaN; a CSV/TSV/Parquet label column is read unchecked, an empty cell
        the empty string.  LIBSVM and ``.npz`` store a label in every row.
    return_weight : bool, default False
        Also return the rows' weights: a Vowpal Wabbit file's importance weights, the weights
        a streamed or distributed fit of the same file uses.
    encoding : str, default "utf-8"
        A CSV/TSV file's text encoding (:func:`perceptrons.io.encodings.check_encoding`).
    zero_based : bool, default False
        A LIBSVM file's indices start at 0, not 1 (:func:`perceptrons.io.libsvm.read_libsvm`).

    Returns
    -------
    X : ndarray of shape (n, d) float64, or CSR matrix for LIBSVM
    y : ndarray of shape (n,)
    label_name : str or None, only with ``return_label_name``
    weight : ndarray of shape (n,) or None, only with ``return_weight``
        None when the format has no weights or every weight is 1.
    """
    path = check_path(path, "path", "read_data")
    options = (n_features, return_label_name, require_labels, return_weight, encoding, zero_based)
    if path == "-":
        if fmt is None:
            raise PerceptronsError(
                f"-: standard input has no file extension to tell its format; give --format (one of {', '.join(FORMATS)})"
            )
        return _read_spooled("standard input", None, fmt, lambda tmp: read_data(tmp, label, fmt, *options))
    fmt = fmt or guess_format(path)
    if fmt not in READERS:
        raise PerceptronsError(f"--format must be one of {list(FORMATS)}; got {fmt!r}")
    _check_file(path)
    if not os.path.isfile(path):  # a pipe, a device: read once, into a file the readers can measure and seek
        return _read_spooled(path, path, fmt, lambda tmp: read_data(tmp, label, fmt, *options))
    check_fits_in_memory(path, fmt)
    module, function = READERS[fmt].split(":")
    reader = getattr(import_module(module), function)
    weight = None
    if return_weight and fmt == "vw":
        X, y, label_name, weight = reader(
            path, label=label, n_features=n_features, require_labels=require_labels, return_weight=True
        )
    elif fmt in ("csv", "tsv"):
        X, y, label_name = reader(
            path, label=label, n_features=n_features, require_labels=require_labels, encoding=encoding
        )
    elif fmt == "libsvm":
        X, y, label_name = reader(
            path, label=label, n_features=n_features, require_labels=require_labels, zero_based=zero_based
        )
    else:
        X, y, label_name = reader(path, label=label, n_features=n_features, require_labels=require_labels)
    if X.shape[0] == 0:
        raise PerceptronsError(f"{path}: no data rows")
    out = (X, y, label_name) if return_label_name else (X, y)
    return (*out, weight) if return_weight else out


def check_fits_in_memory(path, fmt):
    """Refuse, before reading, a text file whose arrays would not fit in the available memory."""
    factor = _MEMORY_PER_BYTE.get(fmt)
    if factor is None:
        return
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        if f.read(2) == b"\x1f\x8b":
            factor *= 2  # gzip inflates at least so; what it really holds is counted as it is read (LoadBudget)
    need = size * factor
    free = available_bytes()
    if free is not None and need > free:
        raise PerceptronsError(
            f"{path}: {size / 1e9:.1f} GB of {fmt} would need up to {need / 1e9:.1f} GB in memory, more than the "
            f"{free / 1e9:.1f} GB available; use --stream to train and predict block by block"
        )


def read_table(
    path,
    label=None,
    fmt=None,
    names=None,
    kinds=None,
    require_labels=True,
    wanted_by=None,
    encoding="utf-8",
    drop=(),
):
    """A CSV/TSV/Parquet file (or standard input, ``"-"``, with ``fmt``) as a
    :class:`~perceptrons.io.table.Table`: columns of numbers or text, missing cells kept; see
    :func:`perceptrons.io.table.read_table` for ``names``, ``kinds``, ``require_labels``,
    ``encoding`` (a CSV/TSV file's; Parquet stores UTF-8) and ``drop``.
    """
    from perceptrons.io.table import read_table as read

    path = check_path(path, "path", "read_table")
    if path == "-" and fmt is None:
        raise PerceptronsError("-: standard input has no file extension to tell its format; give --format (csv or tsv)")
    from perceptrons.io.table import read_parquet_table

    if path != "-":
        _check_file(path)  # a missing file or a workbook, said before its format is guessed
    fmt = fmt or guess_format(path)
    if fmt not in ("csv", "tsv", "parquet"):
        raise PerceptronsError(f"{path}: a table is read from CSV, TSV or Parquet; this file is {fmt}")

    def again(where):
        if fmt == "parquet":
            return read_parquet_table(where, label, names, kinds, require_labels, wanted_by, drop)
        delimiter = "\t" if fmt == "tsv" else ","
        return read(where, label, delimiter, names, kinds, require_labels, wanted_by, encoding, drop)

    if path == "-":
        return _read_spooled("standard input", None, fmt, again)
    if not os.path.isfile(path):
        return _read_spooled(path, path, fmt, again)
    check_fits_in_memory(path, fmt)  # Parquet: its uncompressed size is checked by its reader
    return again(path)


#: the first bytes of a spreadsheet workbook: a zip (xlsx, ods, numbers) or an OLE2 file (xls)
_WORKBOOK_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")


def _check_file(path):
    if not os.path.exists(path):
        raise PerceptronsError(f"{path}: no such file")
    if os.path.isdir(path):
        raise PerceptronsError(f"{path}: is a directory, expected a data file")
    if os.path.splitext(os.fspath(path))[1].lower() in (".xlsx", ".xlsm", ".xls", ".ods", ".numbers"):
        with open(path, "rb") as f:
            if f.read(4) in _WORKBOOK_MAGIC:
                raise PerceptronsError(
                    f'{path}: a spreadsheet workbook; expected a data file such as CSV (save the sheet as "CSV UTF-8")'
                )


def _read_spooled(name, path, fmt, again):
    """``again(file)`` of standard input (``path`` None) or of a pipe or device ``path``, spooled
    to a temporary file first, since the readers need a real file (``.npz`` is a zip read by
    seeking, the CSV reader and the readers of text check the file's size first, and a pipe
    read to sniff its format is gone).  Errors name ``name``, not the temporary file.
    """
    import sys
    import tempfile

    if path is None and sys.stdin is None:
        raise PerceptronsError("-: standard input is closed")
    with cleanup_on_signals():  # SIGTERM while reading a large input must not leave the spool file
        tmp = None
        try:
            with signals_deferred():
                fd, tmp = tempfile.mkstemp(prefix="perceptrons-input-")
            with os.fdopen(fd, "wb") as f:
                try:
                    if path is None:
                        _spool(name, getattr(sys.stdin, "buffer", sys.stdin), f, fmt, tmp)
                    else:
                        with open(path, "rb") as src:
                            _spool(name, src, f, fmt, tmp)
                except OSError as exc:
                    raise PerceptronsError(f"{name}: cannot read: {exc.strerror or exc}") from None
            try:
                return again(tmp)
            except PerceptronsError as exc:
                raise PerceptronsError(str(exc).replace(tmp, name)) from None
        finally:
            if tmp is not None:
                os.unlink(tmp)


def _spool(name, src, dst, fmt, tmp):
    """Copy ``src`` to ``dst``, refusing more bytes than the memory or the disk holds (the
    arrays read from it must fit in memory).
    """
    import shutil

    limits = [available_bytes(), shutil.disk_usage(os.path.dirname(tmp)).free]
    copy_bounded(
        name,
        src,
        dst,
        text=fmt in _MEMORY_PER_BYTE,
        limit=min(x for x in limits if x is not None),
        hint="more than this machine can hold in memory or on disk; give a regular file and use --stream",
    )
