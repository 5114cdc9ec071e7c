"""The kernels compiled ahead of time, and the one signature each is compiled for.

A command such as ``perceptrons tag predict`` spends most of its time starting numba: its
import, then its registries and BLAS probe at the first call from its cache, 1.3 s of a 1.9 s
run on a 2-core Xeon.  So the kernels that tagging calls are also compiled at install, with
numba's ``pycc``, into the extension module ``perceptrons._compile.prebuilt``, which needs numpy
only.  :mod:`perceptrons._compile.aot` calls them when the arguments have exactly these types, and the
JIT otherwise.

A slot is ``<numpy type code>:<ndim>`` for a C-contiguous aligned array of that dtype, which
the kernel may write, ``...r`` for one it only reads (writable arrays are accepted there too),
``int`` for a Python or numpy int64, ``none`` for None, ``(<slot>)*<n>`` for a tuple of n
alike, and ``(<slot>,<slot>,…)`` for a tuple of those (a kernel takes its tables grouped).
These are the types the tagger's calls have (``tests/compile/test_aot.py`` checks each against the
JIT's own signature after tagging EWT).
"""

from collections import namedtuple

#: kernel name -> (module in perceptrons._jit, argument slots)
EXPORTS = {
    "scan_conllu": ("conllu_scan", "u1:1r int i8:1 i8:1 i8:1 i8:1 i8:1 i8:1 (i8:1)*3 (i8:1)*3"),
    "hash_strings": ("intern", "u1:1r i8:1 i8:1 i8:1"),
    "hash_build": ("features", "i8:1 i8:1 int"),
    "key_filter": ("features", "i8:2 int"),
    "column_maxima": ("decode", "f8:2"),
    "word_emissions": ("word_cache", "i4:2 b1:1 i4:2 i8:1 i8:1 b1:1 b1:1 i8:1 f4:2 f8:3"),
    "cache_words": (
        "word_cache",
        "u1:1r i8:1 u1:1r i8:2 i8:2 (i8:1,i8:1,u1:1r,i8:1,i8:1) (i4:2,i4:1,int) (i4:2,i8:1,i8:1,b1:1,b1:1,i8:1) "
        "f4:2 (i4:2,b1:1,f8:3) int",
    ),
    "tag_cached": (
        "word_cache",
        "i8:1 i8:1 i8:1 (f8:3,i4:2,b1:1,i8:1) (i8:1,i8:2,int,i8:2,u8:1) f4:2 (f8:2,f8:1,none,f8:1,f8:1,none) i8:1",
    ),
}


#: one argument's type: kind is "array", "int", "none" or "tuple" (then ``items`` holds the
#: tuple's slots); ``code``, ``ndim`` and ``writable`` describe an array
Slot = namedtuple("Slot", "kind code ndim writable items")


def parse(slots):
    """The :class:`Slot` of each word of a signature string of :data:`EXPORTS`."""
    return tuple(_slot(word) for word in slots.split())


def _slot(word):
    if word in ("int", "none"):
        return Slot(word, None, 0, False, ())
    if word.startswith("(") and ")*" in word:
        inner, n = word[1:].split(")*")
        return Slot("tuple", None, 0, False, (_slot(inner),) * int(n))
    if word.startswith("("):
        return Slot("tuple", None, 0, False, tuple(_slot(item) for item in word[1:-1].split(",")))
    code, dims = word.split(":")
    return Slot("array", code, int(dims.rstrip("r")), not dims.endswith("r"), ())
