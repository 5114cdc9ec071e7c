"""The widths of a hashed feature space, read by the readers and by the command line's options.

A light module (no numpy): ``--help`` reads the bounds.
"""

#: the default width of the hashed feature space: 2**18 columns, Vowpal Wabbit's default too
DEFAULT_HASH_BITS = 18
#: the widest hashed space, 2**28 columns: a model is as wide as its hash space, and at 2**28
#: its weights and averaging sums already take 2 GiB in memory and in its file (at 2**30 a
#: model loaded back needs more memory than most machines have; 31 bits would overflow the
#: epoch cache's int32 column indices)
MAX_HASH_BITS = 28
