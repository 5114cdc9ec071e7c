"""Compile the kernels of :data:`perceptrons._compile.aot_spec.EXPORTS` ahead of time, with numba's
``pycc``, into one extension module: ``python -m perceptrons._compile.aot_build PATH`` (the install
runs it; ``setup.py``), or ``--if-stale`` (``make aot``).

Each kernel is exported through a wrapper of its own arity that calls the JIT's dispatcher, so
the kernel itself is compiled with its own flags (``perceptrons._compile.flags``), the flags its JIT
form has; pycc's are only the wrapper's.  The module also exports ``stamp()``, the
:func:`perceptrons._compile.aot.stamp` of the sources it was built from.  The code is built for the
generic CPU of the architecture, not the build machine's, so that it runs wherever the package
is copied.  numba's cache is pointed at an empty directory first: pycc links the kernels' LLVM
IR, which a kernel loaded from the cache does not have.
"""

import os
import sys
import tempfile
import warnings
from pathlib import Path


def _wrapper(kernel, n):
    """A function of ``n`` arguments that returns ``kernel(*args)`` (pycc needs a fixed arity)."""
    names = ", ".join(f"a{i}" for i in range(n))
    namespace = {"kernel": kernel}
    exec(f"def call({names}):\n    return kernel({names})\n", namespace)
    return namespace["call"]


def _numba_type(slot):
    """numba's type of a :data:`perceptrons._compile.aot_spec.Slot`."""
    import numpy as np
    from numba import from_dtype, types

    if slot.kind == "int":
        return types.int64
    if slot.kind == "none":
        return types.none
    if slot.kind == "tuple":
        return types.Tuple(tuple(_numba_type(s) for s in slot.items))
    dtype = from_dtype(np.dtype(slot.code))
    return types.Array(dtype, slot.ndim, "C", readonly=not slot.writable)


def build(path):
    """Write the extension module to ``path`` (its file name must be the one Python imports)."""
    from numba.pycc import CC, compiler

    class Flags(compiler.Flags):
        """pycc's flags, but its wrappers release the GIL as the JIT's ``nogil=True`` ones do
        (the tagger runs a large batch as two threads)."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    compiler.Flags = Flags  # this build process only; pycc makes its own Flags() per module

    from perceptrons._compile.aot import jit, stamp
    from perceptrons._compile.aot_spec import EXPORTS, parse

    path = Path(path)
    cc = CC(path.name.split(".")[0])
    cc.output_dir, cc.output_file = str(path.parent), path.name
    for name, (_, slots) in EXPORTS.items():
        args = tuple(_numba_type(s) for s in parse(slots))
        dispatcher = jit(name)
        dispatcher.compile(args)
        result = dispatcher.overloads[args].signature.return_type
        cc.export(name, result(*args))(_wrapper(dispatcher, len(args)))
    value = stamp()
    cc.export("stamp", "int64()")(_constant(value))
    cc.compile()


def _constant(value):
    """A function of no argument that returns the int ``value`` (pycc exports functions only)."""
    namespace = {}
    exec(f"def stamp():\n    return {value}\n", namespace)
    return namespace["stamp"]


def default_path():
    """Where the installed package imports the module from: beside :mod:`perceptrons._compile.aot`."""
    import sysconfig

    import perceptrons

    return Path(perceptrons.__file__).parent / "_compile" / f"prebuilt{sysconfig.get_config_var('EXT_SUFFIX')}"


def main(argv):
    """``PATH``: build there; ``--if-stale``: build beside the package unless the module there
    is current (``make aot`` after an edit of a kernel)."""
    if argv == ["--if-stale"]:
        from perceptrons._compile.aot import built_module

        if built_module() is not None:
            return
        argv = [str(default_path())]
    out = Path(argv[0]).resolve()
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory(dir=out.parent) as staging:
        os.environ["NUMBA_CACHE_DIR"] = cache  # read when numba is first imported, below
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc's pending deprecation
            build(Path(staging) / out.name)
        # renamed into place: a process that has the old module loaded keeps its own file
        os.replace(Path(staging) / out.name, out)


if __name__ == "__main__":
    main(sys.argv[1:])
