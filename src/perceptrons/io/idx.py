"""The IDX format of the MNIST files (LeCun et al.), plain or gzipped.

A file is a magic number (two zero bytes, a type code, the number of dimensions), one
big-endian uint32 per dimension, then the values in C order.
"""

import gzip
import math
import zlib

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_path

_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path):
    """Read an IDX file (``.gz`` is decompressed) into an ndarray of its stored shape."""
    path = check_path(path, "path", "read_idx")
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            blob = f.read()
    except (OSError, EOFError, zlib.error) as exc:
        raise PerceptronsError(f"{path}: cannot read IDX data ({exc})") from None
    if len(blob) < 4 or blob[0] != 0 or blob[1] != 0 or blob[2] not in _TYPES:
        raise PerceptronsError(f"{path}: not an IDX file (bad magic number)")
    ndim = blob[3]
    header = 4 + 4 * ndim
    if len(blob) < header:
        raise PerceptronsError(
            f"{path}: IDX header of {ndim} dimensions needs {header} bytes; the file has {len(blob)}"
        )
    shape = tuple(int(v) for v in np.frombuffer(blob[4:header], dtype=">u4"))
    dtype = np.dtype(_TYPES[blob[2]])
    expected = math.prod(shape) * dtype.itemsize  # Python integers: a product of huge sizes cannot wrap
    if len(blob) - header != expected:
        raise PerceptronsError(
            f"{path}: IDX payload is {len(blob) - header} bytes, expected {expected} for shape {shape}"
        )
    values = np.frombuffer(blob, dtype=dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))
    if dtype.kind == "f" and not np.isfinite(values).all():
        raise PerceptronsError(f"{path}: IDX values include NaN or infinity; expected finite numbers")
    return values


def load_mnist(images, labels):
    """``(X, y)`` from an MNIST image and label file: X float64 (n, 784) scaled to [0, 1], y int64."""
    X = read_idx(images)
    y = read_idx(labels)
    if X.shape[0] != y.shape[0]:
        raise PerceptronsError(f"{images}: {X.shape[0]} images but {labels}: {y.shape[0]} labels")
    return X.reshape(X.shape[0], -1).astype(np.float64) / 255.0, y.astype(np.int64)
