"""One ``.npy`` member of a zip archive (a model file, a ``.npz`` data set), checked before it is loaded.

The header is parsed first and its shape × itemsize compared with the bytes the member holds,
so a header that declares a huge array is refused before anything is allocated; the array is
then read once, straight into a fresh writable array.  What an archive may hold beyond that
(which dtypes, compressed members or not) is its reader's policy, passed in as ``check``.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError


def _first_line(exc):
    lines = str(exc).strip().splitlines()
    return lines[0][:160] if lines else type(exc).__name__


def _header(source, name, f):
    """(shape, fortran, dtype) of the member open as ``f``, positioned after its header."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = fmt.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = fmt.read_array_header_2_0(f)
        else:  # 3.0 only adds UTF-8 field names, for structured dtypes, which are refused anyway
            raise PerceptronsError(
                f"{source}: array {name!r} has .npy format version {version[0]}.{version[1]}; expected 1.0 or 2.0"
            )
    except PerceptronsError:
        raise
    except (ValueError, SyntaxError, TypeError, EOFError, OverflowError) as exc:
        raise PerceptronsError(f"{source}: array {name!r} has a bad .npy header ({_first_line(exc)})") from None
    if not isinstance(shape, tuple) or not all(type(n) is int and n >= 0 for n in shape) or len(shape) > 32:
        raise PerceptronsError(f"{source}: array {name!r} declares the shape {shape!r}")
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None or dtype.itemsize == 0:
        raise PerceptronsError(
            f"{source}: array {name!r} has dtype {dtype}; expected plain numbers or text "
            "(Python objects are never unpickled)"
        )
    return shape, fortran, dtype


def read_npy(source, zf, info, check=None):
    """The array in member ``info`` of the open ``zipfile.ZipFile`` ``zf``.

    ``check(name, shape, dtype)``, called once the header is read and before the array is
    allocated, raises :class:`PerceptronsError` for what the caller does not accept.
    """
    name = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
    with zf.open(info) as f:
        shape, fortran, dtype = _header(source, name, f)
        count = 1
        for n in shape:
            count *= n
        body = info.file_size - f.tell()
        if count * dtype.itemsize != body:
            raise PerceptronsError(
                f"{source}: array {name!r} declares shape {shape} of {dtype} ({count * dtype.itemsize:,} bytes) "
                f"but its member holds {body:,} bytes; the file is corrupted"
            )
        if check is not None:
            check(name, shape, dtype)
        out = np.empty(shape[::-1] if fortran else shape, dtype=dtype)
        if count and f.readinto(out.reshape(-1).view(np.uint8)) != body:
            raise PerceptronsError(f"{source}: array {name!r} is truncated")
        if f.read(1):  # also makes zipfile check the member's CRC at its end
            raise PerceptronsError(f"{source}: array {name!r} is longer than its header says")
    return np.ascontiguousarray(out.T) if fortran else out
