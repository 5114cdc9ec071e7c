"""The epoch cache's layout: magic bytes, version, struct layouts, record flags, limits, padding."""

import struct

import numpy as np

FORMAT = "perceptrons-epoch-cache"
VERSION = 1
MAGIC = b"\x89PCACHE\n"  # the high byte and the newline catch text-mode transfers, as PNG's do
END_MAGIC = b"PCACHEOK"

_HEADER = struct.Struct("<8sII")
_RECORD = struct.Struct("<qqII")
_TAIL = struct.Struct("<II")
_TRAILER = struct.Struct("<QII8s")

_CSR, _VALUES, _INDPTR64, _WEIGHTS = 1, 2, 4, 8
_ALL_FLAGS = _CSR | _VALUES | _INDPTR64 | _WEIGHTS

#: the footer is a few bytes per block and per label; more is not a footer of ours
MAX_FOOTER_BYTES = 64 << 20
#: footer -> fingerprint -> sources -> one source: the deepest nesting the writer produces
MAX_FOOTER_DEPTH = 4
_INT32_MAX = 2**31 - 1
_INT64 = (-(2**63), 2**63 - 1)


def _pad(nbytes):
    return -nbytes % 8


def _no_infinity(a):
    """Whether no value of the float array ``a`` is infinite: dense rows keep a missing number as
    NaN, which the imputing step of a streamed fit fills before any compiled loop reads it."""
    with np.errstate(all="ignore"):
        return bool(np.isfinite(np.nansum(a)) or not np.isinf(a).any())


def _finite(a):
    """Whether every value of the float array ``a`` is finite, at the cost of one sum when so."""
    with np.errstate(all="ignore"):
        # NaN and ±inf propagate into the sum, so a finite sum proves the values finite; a sum
        # that overflowed although the values are finite takes the exact (slower) check
        return bool(np.isfinite(a.sum()) or np.isfinite(a).all())
