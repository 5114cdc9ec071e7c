"""The ground floor: errors, parameter and data checks, labels, operands, memory, the registry.

Importing this package imports nothing: each module is imported by name, and the light ones
(errors, params, registry) stay free of numba, scipy and scikit-learn.
"""
