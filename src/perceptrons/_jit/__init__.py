"""The compiled kernels.  Importing the package ties numba's cache of each of them to all the
sources a kernel compiles in, not to its own file alone (:mod:`perceptrons._kernel_cache`)."""

from perceptrons._kernel_cache import install

install()
