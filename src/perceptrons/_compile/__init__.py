"""The compile plumbing: numba's flags, the ahead-of-time build, the source stamps and numba's
disk cache of machine code.  Importing this package imports nothing."""
