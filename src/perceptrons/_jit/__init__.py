"""The compiled kernels.  Importing the package ties numba's cache of each of them to all the
sources a kernel compiles in, not to its own file alone (:mod:`perceptrons._compile.numba_cache`).

A kernel takes at most 12 arguments: arrays that belong together come as one tuple (a model's
weights, a pocket, a cache's tables).  An array of such a tuple that the kernel writes is taken
by index, one name a statement (``stop = weights[5]``), never unpacked (``W, …, stop =
weights``; nor ``a, b = t[0], t[1]``, which unpacks a tuple too).  numba's alias analysis does
not follow an unpacked element back to the argument (it skips ``exhaust_iter``), so once an
overload is inlined its dead-code pass may drop a write, at a computed index, to an array that
nothing reads afterwards: it dropped the stop-transition update of the structured perceptron.
"""

from perceptrons._compile.numba_cache import install

install()
