"""Reading an estimator's state out of an untrusted model file, one checked field at a time.

A model file's checksum is not a signature: anyone who edits a file can recompute it.  So an
estimator never reads its stored metadata or arrays directly.  It asks a :class:`ModelState`
for each field with what the field must be (JSON type and range; array dtype, shape, value
range, finiteness), and gets it only if it is so.  Every field is read through here, so no
field reaches compiled code unchecked, and fields left unread at the end are refused too: a
file holds exactly what its estimator wrote.  Any violation raises one
:class:`~perceptrons._core.errors.PerceptronsError` line naming the file and the field.
"""

import os

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import available_bytes

#: dtypes by role: weights and sums are floats; indices and counts are integers
FLOATS = ("float32", "float64")
INTS = ("int8", "int16", "int32", "int64")
#: a Python int stored in JSON is kept to the range numpy and the compiled loops handle
INT_MAX = 2**63 - 1


def _kind(value):
    if isinstance(value, bool):
        return "bool"
    return {int: "int", float: "float", str: "str", list: "list", dict: "object", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class ModelState:
    """Checked access to ``(meta, arrays)`` of one estimator in a model file.

    Parameters
    ----------
    source : str
        The file, named in every error.
    meta : dict
        The estimator's JSON metadata.
    arrays : dict of str to ndarray
        Its arrays (names without ``prefix``).
    prefix : str
        Shown before field names in errors (``"model."`` for a tagger's sequence model).
    """

    def __init__(self, source, meta, arrays, prefix=""):
        self.source, self.prefix = os.fspath(source), prefix
        if not isinstance(meta, dict):
            self._raise(prefix.rstrip(".") or "state", f"expected a JSON object, got {_kind(meta)}")
        self._meta, self._arrays = meta, arrays
        self._read_meta, self._read_arrays = set(), set()
        self._children = []

    # ------------------------------------------------------------------ errors
    def _raise(self, field, message):
        raise PerceptronsError(f"{self.source}: model field {self.prefix}{field!s}: {message}")

    def fail(self, field, message):
        """Refuse the file because of ``field`` (a metadata key or an array name)."""
        self._raise(field, message)

    def require(self, condition, field, message):
        """Refuse the file unless ``condition``."""
        if not condition:
            self._raise(field, message)

    # ------------------------------------------------------------------ metadata
    def has(self, key):
        """Whether the metadata holds ``key`` (for optional fields)."""
        return key in self._meta

    def _get(self, key):
        if key not in self._meta:
            self._raise(key, "missing")
        self._read_meta.add(key)
        return self._meta[key]

    def _check_int(self, field, v, lo, hi):
        if type(v) is not int:
            self._raise(field, f"expected an int, got {_kind(v)} {_short(v)}")
        hi = INT_MAX if hi is None else hi
        if not (lo is None or v >= lo) or v > hi:
            self._raise(field, f"expected an int in [{'-inf' if lo is None else lo}, {hi}], got {_short(v)}")
        return v

    def int(self, key, lo=0, hi=None, none=False):
        """A JSON integer in ``[lo, hi]`` (``None`` too if ``none``)."""
        v = self._get(key)
        return None if (none and v is None) else self._check_int(key, v, lo, hi)

    def float(self, key, lo=None, hi=None, none=False):
        """A finite JSON number in ``[lo, hi]`` (an int is accepted as a number)."""
        v = self._get(key)
        if none and v is None:
            return None
        if type(v) not in (int, float) or not np.isfinite(float(v)):
            self._raise(key, f"expected a finite number, got {_kind(v)} {_short(v)}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            self._raise(key, f"expected a number in [{lo}, {hi}], got {_short(v)}")
        return float(v)

    def bool(self, key):
        """A JSON ``true`` or ``false``."""
        v = self._get(key)
        if type(v) is not bool:
            self._raise(key, f"expected true or false, got {_kind(v)} {_short(v)}")
        return v

    def str(self, key, choices=None, none=False, max_len=4096):
        """A JSON string of at most ``max_len`` characters, one of ``choices`` if given."""
        v = self._get(key)
        if none and v is None:
            return None
        if type(v) is not str or len(v) > max_len:
            self._raise(key, f"expected a string, got {_kind(v)} {_short(v)}")
        if choices is not None and v not in choices:
            self._raise(key, f"expected one of {sorted(choices)}, got {_short(v)}")
        return v

    def list(self, key, item, length=None, none_items=False):
        """A JSON list whose items are ``item`` (``"int"``, ``"float"``, ``"str"``), of ``length``."""
        v = self._get(key)
        if type(v) is not list:
            self._raise(key, f"expected a list, got {_kind(v)} {_short(v)}")
        if length is not None and len(v) != length:
            self._raise(key, f"expected {length} items, got {len(v)}")
        for i, x in enumerate(v):
            if none_items and x is None:
                continue
            if item == "int":
                self._check_int(f"{key}[{i}]", x, 0, None)
            elif item == "float":
                if type(x) not in (int, float) or not np.isfinite(float(x)):
                    self._raise(f"{key}[{i}]", f"expected a finite number, got {_kind(x)} {_short(x)}")
            elif type(x) is not str:
                self._raise(f"{key}[{i}]", f"expected a string, got {_kind(x)} {_short(x)}")
        return list(v)

    def object(self, key):
        """A nested JSON object, as a checked view with the same source (fields prefixed ``key.``)."""
        v = self._get(key)
        return self._child(ModelState(self.source, v, {}, prefix=f"{self.prefix}{key}."))

    def _child(self, state):
        self._children.append(state)
        return state

    def raw(self, key):
        """The JSON value as stored; the caller checks it (with :meth:`require`)."""
        return self._get(key)

    # ------------------------------------------------------------------ arrays
    def array(self, name, dtypes, shape, lo=None, hi=None, finite=True, increasing=False):
        """An array whose dtype is one of ``dtypes`` and whose shape is ``shape``.

        ``shape`` holds ints, or None for a size not known in advance.  Integer arrays can be
        bounded to ``lo ≤ x < hi`` (so that they are safe as indices); float arrays are finite
        unless ``finite=False``; ``increasing`` asks for non-decreasing values.
        """
        if name not in self._arrays:
            self._raise(name, "missing array")
        self._read_arrays.add(name)
        a = self._arrays[name]
        if a.dtype.name not in dtypes:
            self._raise(name, f"expected dtype {' or '.join(dtypes)}, got {a.dtype}")
        if a.ndim != len(shape) or any(s is not None and s != n for s, n in zip(shape, a.shape)):
            want = "(" + ", ".join("*" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
            self._raise(name, f"expected shape {want}, got {a.shape}")
        if a.size and a.dtype.kind == "f" and finite and not np.isfinite(a).all():
            bad = int(np.flatnonzero(~np.isfinite(a.reshape(-1)))[0])
            self._raise(name, f"holds a non-finite value ({a.reshape(-1)[bad]}) at flat index {bad}")
        if a.size and (lo is not None or hi is not None):
            amin, amax = a.min(), a.max()
            if (lo is not None and amin < lo) or (hi is not None and amax >= hi):
                self._raise(name, f"values must lie in [{lo}, {hi}), got [{amin}, {amax}]")
        if increasing and a.size > 1 and np.any(np.diff(a) < 0):
            self._raise(name, "values must be non-decreasing")
        return np.ascontiguousarray(a)

    def labels(self, name, min_count=2):
        """Class labels: 1-D, sorted, distinct, finite, at least ``min_count``."""
        if name not in self._arrays:
            self._raise(name, "missing array")
        a = self._arrays[name]
        if a.dtype.kind not in "biufU" or a.ndim != 1:
            self._raise(name, f"expected a 1-D array of labels, got {a.dtype} of shape {a.shape}")
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            self._raise(name, "labels must be finite")
        if a.shape[0] < min_count:
            self._raise(name, f"expected at least {min_count} classes, got {a.shape[0]}")
        if a.shape[0] > 1 and not np.all(a[1:] > a[:-1]):
            self._raise(name, "labels must be sorted and distinct")
        self._read_arrays.add(name)
        return a

    def text(self, name):
        """A 1-D array of strings."""
        if name not in self._arrays:
            self._raise(name, "missing array")
        a = self._arrays[name]
        if a.dtype.kind != "U" or a.ndim != 1:
            self._raise(name, f"expected a 1-D array of text, got {a.dtype} of shape {a.shape}")
        self._read_arrays.add(name)
        return a

    def strings(self, blob_name, offsets_name):
        """Strings stored as UTF-8 bytes plus int64 offsets (n + 1,), decoded and checked."""
        blob = self.array(blob_name, ("uint8",), (None,))
        offsets = self.array(offsets_name, ("int64",), (None,), lo=0, hi=blob.shape[0] + 1, increasing=True)
        self.require(
            offsets.shape[0] >= 1 and offsets[0] == 0 and offsets[-1] == blob.shape[0],
            offsets_name,
            f"offsets must run from 0 to the {blob.shape[0]} bytes of {self.prefix}{blob_name}",
        )
        # one decode of the whole blob: a tagger's 100,000 strings decoded one by one took most
        # of its loading time.  Each string is UTF-8 exactly when the blob is and every offset
        # falls on the first byte of a character (never on a continuation byte).
        first = (blob & 0xC0) != 0x80
        inner = offsets[(offsets > 0) & (offsets < blob.shape[0])]
        self.require(bool(np.all(first[inner])), blob_name, "a string is not UTF-8 (an offset splits a character)")
        n = offsets.shape[0] - 1
        if not np.any(blob == 0):
            # a NUL after each string, then one split: 12 ms for a tagger's 135,000 strings,
            # against 52 ms for as many slices of the text (string k's NUL lands at
            # offsets[k + 1] + k, once the k NULs before it have moved it along).  NULs between
            # characters leave the bytes UTF-8 exactly when the blob is.
            cut = np.zeros(blob.shape[0] + n, dtype=bool)
            cut[offsets[1:] + np.arange(n)] = True
            spaced = np.zeros(cut.shape[0], dtype=np.uint8)
            spaced[~cut] = blob
            return self._utf8(spaced, blob_name).split("\x00")[:n]
        text = self._utf8(blob, blob_name)
        chars = np.zeros(blob.shape[0] + 1, dtype=np.int64)
        np.cumsum(first, out=chars[1:])
        bounds = chars[offsets].tolist()
        return [text[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    def _utf8(self, data, name):
        """The uint8 array ``data`` decoded as UTF-8; a failure names the array ``name``."""
        try:
            return data.tobytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            self._raise(name, f"a string is not UTF-8 ({exc.reason})")

    def sub(self, meta_key, array_prefix):
        """The nested state of a component (meta under ``meta_key``, arrays named ``prefix*``)."""
        v = self._get(meta_key)
        arrays = {k[len(array_prefix) :]: a for k, a in self._arrays.items() if k.startswith(array_prefix)}
        self._read_arrays.update(k for k in self._arrays if k.startswith(array_prefix))
        return self._child(ModelState(self.source, v, arrays, prefix=f"{self.prefix}{meta_key}."))

    def sub_item(self, meta_key, index, array_prefix):
        """Item ``index`` of the JSON list ``meta_key`` as a nested state (arrays named ``prefix*``)."""
        items = self._get(meta_key)
        if type(items) is not list or not 0 <= index < len(items):
            self._raise(meta_key, f"expected a list of at least {index + 1} items")
        arrays = {k[len(array_prefix) :]: a for k, a in self._arrays.items() if k.startswith(array_prefix)}
        self._read_arrays.update(k for k in self._arrays if k.startswith(array_prefix))
        return self._child(ModelState(self.source, items[index], arrays, prefix=f"{self.prefix}{meta_key}[{index}]."))

    def split(self, array_prefix, what):
        """Arrays named ``prefix*`` as a component read through its own state (meta empty)."""
        arrays = {k[len(array_prefix) :]: a for k, a in self._arrays.items() if k.startswith(array_prefix)}
        self._read_arrays.update(k for k in self._arrays if k.startswith(array_prefix))
        return self._child(ModelState(self.source, {}, arrays, prefix=f"{self.prefix}{what}."))

    def alloc(self, field, n_items, itemsize=8):
        """Refuse a dense allocation of ``n_items`` that the stored sizes imply but memory cannot hold."""
        need = int(n_items) * itemsize
        avail = available_bytes()
        if need > (1 << 46) or (avail is not None and need > avail):
            self._raise(field, f"sizes imply {need / 2**20:.0f} MiB, more than this machine has available")

    # ------------------------------------------------------------------ the end
    def finish(self):
        """Refuse fields the estimator did not read: a model file holds what its estimator wrote."""
        extra = sorted(set(self._meta) - self._read_meta)
        if extra:
            self._raise(extra[0], "unexpected field")
        extra = sorted(set(self._arrays) - self._read_arrays)
        if extra:
            self._raise(extra[0], "unexpected array")
        for child in self._children:
            child.finish()
