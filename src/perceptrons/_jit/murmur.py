"""MurmurHash3, x86 32-bit variant, over a slice of a ``uint8`` buffer.

The same function as scikit-learn's ``sklearn.utils.murmurhash3_32(key, seed)`` on the bytes
``buf[start:end]`` (Austin Appleby's public-domain reference, little-endian block reads), so
that feature indices can be checked against an independent implementation.

All arithmetic is done in ``uint64`` on values below 2**32 and masked back to 32 bits: a
product of two 32-bit numbers fits in 64 bits, so nothing wraps and numba never promotes a
mixed signed/unsigned expression to float64 (which it does for int64 with uint64).

The hash is built from two scalar steps, :func:`murmur_round` (one 4-byte block) and
:func:`murmur_finish` (the tail bytes, the length, the final mix), so that a parser can hash a
name while it scans it.  They take no array and are inlined at numba's level: a compiled call
that takes an array updates the array's reference count twice (atomic instructions), which per
feature name cost a parser a third of its speed.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT

_M32 = np.uint64(0xFFFFFFFF)
_C1 = np.uint64(0xCC9E2D51)
_C2 = np.uint64(0x1B873593)
_INLINE = dict(NJIT, inline="always")


@njit(**_INLINE)
def _rotl(x, r):
    return ((x << np.uint64(r)) | (x >> np.uint64(32 - r))) & _M32


@njit(**_INLINE)
def _mix_k(k):
    k = (k * _C1) & _M32
    k = _rotl(k, 15)
    return (k * _C2) & _M32


@njit(**_INLINE)
def murmur_round(h, k):
    """The state ``h`` after the 4-byte block ``k`` (little-endian, as uint64 < 2**32)."""
    h ^= _mix_k(k)
    h = _rotl(h, 13)
    return (h * np.uint64(5) + np.uint64(0xE6546B64)) & _M32


@njit(**_INLINE)
def murmur_finish(h, k, n):
    """The hash (int64 in [0, 2**32)) of ``n`` bytes from the state ``h`` and the ``n % 4`` tail
    bytes packed little-endian in ``k`` (0 when there are none: the mix of 0 is 0, so no branch).
    """
    h ^= _mix_k(k)
    h ^= np.uint64(n) & _M32
    # fmix32: every input bit reaches every output bit
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EBCA6B)) & _M32
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2AE35)) & _M32
    h ^= h >> np.uint64(16)
    return np.int64(h)


@njit(**_INLINE)
def murmur3_32(buf, start, end, seed):
    """Unsigned 32-bit MurmurHash3 of ``buf[start:end]`` with ``seed`` (0 ≤ seed < 2**32), as int64.

    Inlined into compiled callers, for the reason above: called per word by the CoNLL-U pass
    (:mod:`perceptrons._jit.conllu_scan`), the call itself doubled the pass's time.
    """
    h = np.uint64(seed) & _M32
    i = start
    while i + 4 <= end:
        k = (
            np.uint64(buf[i])
            | (np.uint64(buf[i + 1]) << np.uint64(8))
            | (np.uint64(buf[i + 2]) << np.uint64(16))
            | (np.uint64(buf[i + 3]) << np.uint64(24))
        )
        h = murmur_round(h, k)
        i += 4
    k = np.uint64(0)
    shift = np.uint64(0)
    while i < end:
        k |= np.uint64(buf[i]) << shift
        shift += np.uint64(8)
        i += 1
    return murmur_finish(h, k, end - start)


@njit(**NJIT)
def murmur3_32_signed(buf, start, end, seed):
    """The same hash read as a signed 32-bit integer (scikit-learn's default ``positive=False``)."""
    h = murmur3_32(buf, start, end, seed)
    return h - 4294967296 if h >= 2147483648 else h
