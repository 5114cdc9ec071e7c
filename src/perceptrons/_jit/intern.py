"""Byte strings interned in one buffer: each distinct string gets the next id, found again by
its MurmurHash3 in an open-addressing table.  The CoNLL-U pass interns forms and tags with it,
the word-attribute pass the attribute strings of a vocabulary.
"""

import numpy as np
from numba import njit

from perceptrons._config import NJIT_STRICT
from perceptrons._jit.murmur import murmur3_32


@njit(**NJIT_STRICT)
def intern(data, a, b, table, starts, ends, n):
    """The id of the string ``data[a:b]`` among the ``n`` distinct ones so far, adding it if new.

    ``table`` is open addressing over the strings' MurmurHash3 (capacity a power of two above
    twice the most strings there can be), ``starts``/``ends`` the span of each
    string's first occurrence.  Returns (id, new count).
    """
    mask = np.uint64(table.shape[0] - 1)
    slot = np.uint64(murmur3_32(data, a, b, 0)) & mask
    while True:
        k = table[slot]
        if k == -1:
            table[slot] = n
            starts[n] = a
            ends[n] = b
            return n, n + 1
        if ends[k] - starts[k] == b - a:
            same = True
            s = starts[k]
            for i in range(b - a):
                if data[s + i] != data[a + i]:
                    same = False
                    break
            if same:
                return k, n
        slot = (slot + np.uint64(1)) & mask
