"""Byte strings interned in one buffer: each distinct string gets the next id, found again by
its MurmurHash3 in an open-addressing table.  The CoNLL-U pass interns forms and tags with it,
the word-attribute pass the attribute strings of a vocabulary.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit.murmur import murmur3_32


@njit(**dict(NJIT_STRICT, inline="always"))
def _probe(query, a, b, table, data, starts, ends):
    """The slot of ``table`` that holds the string ``query[a:b]``, or the empty slot (−1) where
    it would go: open addressing over MurmurHash3, the strings ``data[starts[k]:ends[k]]``.
    Inlined into both callers (a call per string would cost the CoNLL-U pass its speed)."""
    mask = np.uint64(table.shape[0] - 1)
    slot = np.uint64(murmur3_32(query, a, b, 0)) & mask
    while True:
        k = table[slot]
        if k == -1:
            return slot
        if ends[k] - starts[k] == b - a:
            same = True
            s = starts[k]
            for i in range(b - a):
                if data[s + i] != query[a + i]:
                    same = False
                    break
            if same:
                return slot
        slot = (slot + np.uint64(1)) & mask


@njit(**NJIT_STRICT)
def intern(data, a, b, table, starts, ends, n):
    """The id of the string ``data[a:b]`` among the ``n`` distinct ones so far, adding it if new.

    ``table`` is open addressing over the strings' MurmurHash3 (capacity a power of two above
    twice the most strings there can be), ``starts``/``ends`` the span of each
    string's first occurrence.  Returns (id, new count).
    """
    slot = _probe(data, a, b, table, data, starts, ends)
    k = table[slot]
    if k != -1:
        return k, n
    table[slot] = n
    starts[n] = a
    ends[n] = b
    return n, n + 1


@njit(**NJIT_STRICT)
def hash_strings(data, starts, ends, table):
    """Put the distinct strings ``data[starts[k]:ends[k]]`` into ``table`` (open addressing over
    their MurmurHash3, empty slots −1, a power of two above twice their number) as ids k."""
    mask = np.uint64(table.shape[0] - 1)
    for k in range(starts.shape[0]):
        slot = np.uint64(murmur3_32(data, starts[k], ends[k], 0)) & mask
        while table[slot] != -1:
            slot = (slot + np.uint64(1)) & mask
        table[slot] = k


@njit(**NJIT_STRICT)
def find(query, a, b, table, data, starts, ends):
    """The id of the string ``query[a:b]`` in a table of :func:`hash_strings`, −1 if absent."""
    return table[_probe(query, a, b, table, data, starts, ends)]
