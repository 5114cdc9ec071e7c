"""The kernels compiled ahead of time (:mod:`perceptrons._compile.aot_spec`), called when their
arguments fit, and numba's JIT otherwise.

:func:`loop` is the seam: the tagger's Python calls ``loop("tag_cached")(...)`` where it
called the JIT's dispatcher.  The compiled module is used only when it was built from the
sources and signatures of this very installation (its stamp, :func:`stamp`); a module left
behind by an older version, or missing because the install had no C compiler, means the JIT.
pycc's wrappers do not check what they are given (a float64 array passed for int64 would be
read as int64), so every call checks each argument against its slot first, in Python; an
argument that does not fit goes to the JIT, which compiles for whatever it is given.
"""

import functools
import hashlib
import importlib
import os
import threading
from pathlib import Path

import numpy as np

from perceptrons._compile.aot_spec import EXPORTS, parse
from perceptrons._compile.stamps import sources_digest

#: name of the compiled extension module, and the environment variable that turns it off
MODULE = "perceptrons._compile.prebuilt"
OFF = "PERCEPTRONS_NO_AOT"


@functools.cache
def stamp():
    """The stamp the compiled module must carry: the kernels' sources, the signatures and the
    build's own code, as a positive int64."""
    here = Path(__file__).parent
    spec = b"".join((here / name).read_bytes() for name in ("aot_spec.py", "aot_build.py"))
    digest = hashlib.sha256(sources_digest().encode() + b"\0" + spec).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@functools.cache
def compiled_module():
    """The compiled module, or None: not built, built from other sources, or turned off (by
    :data:`OFF`, or by ``NUMBA_DISABLE_JIT``, which asks for the kernels' Python bodies)."""
    if os.environ.get(OFF, "0") not in ("", "0") or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return None
    return built_module()


def built_module():
    """The compiled module if it is there and carries :func:`stamp`, whatever the environment
    asks (``make aot`` builds it only when it is not)."""
    try:
        module = importlib.import_module(MODULE)
    except ImportError:
        return None
    return module if module.stamp() == stamp() else None


#: held while a kernel's module is first imported: a tagger builds its word tables in two threads,
#: and two threads importing numba at once can each find the other's modules half made (numba's
#: ``caching`` and ``dispatcher`` import each other; importlib hands one thread the other's
#: partial module to break the lock cycle, and the import fails)
_IMPORTING = threading.Lock()


def jit(name):
    """numba's dispatcher of the kernel ``name``."""
    with _IMPORTING:
        return getattr(importlib.import_module(f"perceptrons._jit.{EXPORTS[name][0]}"), name)


@functools.cache
def loop(name):
    """The kernel ``name``: its compiled-ahead form behind the argument check when the module
    is there, else the JIT's dispatcher."""
    module = compiled_module()
    if module is None:
        return jit(name)
    return _Checked(name, getattr(module, name), parse(EXPORTS[name][1]))


class _Checked:
    """A compiled-ahead kernel called only with arguments of its slots' types."""

    __slots__ = ("name", "compiled", "fits")

    def __init__(self, name, compiled, slots):
        self.name, self.compiled, self.fits = name, compiled, _checker(slots)

    def __call__(self, *args):
        if self.fits(args):
            return self.compiled(*args)
        return jit(self.name)(*args)


# numpy's C-API flag bits (ndarray.flags.num): one int read instead of three flag attributes
C_CONTIGUOUS, ALIGNED, WRITEABLE = 0x0001, 0x0100, 0x0400
_INT64 = 2**63
_NOTHING = object()  # what a checker "last saw" before its first call: no argument is it


def _checker(slots):
    """A function of an argument tuple, true when every argument fits its slot.

    It is one expression generated from the slots: a loop over them took 18 µs a call for
    ``tag_cached``'s 20 arguments, against 13 µs for the kernel itself (a sentence tagged
    alone).  An argument that is the very object the last passing call had at its place is
    not tested again (most are the tagger's own tables, the same every call); the arrays here
    are the tagger's private ones, whose dtype, shape and flags nothing changes in place.
    """
    names = [f"a{i}" for i in range(len(slots))]
    constants = {
        "ndarray": np.ndarray,
        "int64": np.int64,
        "LOW": -_INT64,
        "HIGH": _INT64,
        "last": [(_NOTHING,) * len(slots)],
    }
    tests = [
        f"({name} is seen[{i}] or {_test(name, slot, constants)})" for i, (name, slot) in enumerate(zip(names, slots))
    ]
    text = (
        "def fits(args):\n"
        f"    if len(args) != {len(slots)}:\n        return False\n"
        f"    {', '.join(names)}{',' if len(names) == 1 else ''} = args\n"
        "    seen = last[0]\n"
        f"    if {' and '.join(tests)}:\n"
        "        last[0] = args  # one reference swap: a concurrent call sees either tuple, each checked\n"
        "        return True\n"
        "    return False\n"
    )
    exec(text, constants)  # text made here from the slots' fixed vocabulary
    return constants["fits"]


def _test(name, slot, constants):
    """The Python expression that ``name`` fits ``slot``; its dtypes go into ``constants``."""
    if slot.kind == "int":
        return f"((type({name}) is int and LOW <= {name} < HIGH) or type({name}) is int64)"
    if slot.kind == "none":
        return f"{name} is None"
    if slot.kind == "tuple":
        items = " and ".join(_test(f"{name}[{i}]", s, constants) for i, s in enumerate(slot.items))
        return f"(type({name}) is tuple and len({name}) == {len(slot.items)} and {items})"
    dtype = f"D_{slot.code}"
    constants[dtype] = np.dtype(slot.code)
    mask = C_CONTIGUOUS | ALIGNED | (WRITEABLE if slot.writable else 0)
    return (
        f"(isinstance({name}, ndarray) and ({name}.dtype is {dtype} or {name}.dtype == {dtype}) "
        f"and {name}.ndim == {slot.ndim} and {name}.flags.num & {mask} == {mask})"
    )


def _fits(value, slot):
    """Whether ``value`` fits ``slot`` (:data:`perceptrons._compile.aot_spec.Slot`), as a kernel's
    checker tests it (a fresh one, which has seen no call)."""
    return _checker((slot,))((value,))
