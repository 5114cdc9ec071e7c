"""The compiled kernels.  Importing the package ties numba's cache of each of them to all the
sources a kernel compiles in, not to its own file alone (:mod:`perceptrons._compile.numba_cache`)."""

from perceptrons._compile.numba_cache import install

install()
