"""perceptrons: the perceptron family as real software.

Public names are imported lazily so that ``perceptrons --help`` does not pay for numba,
scipy or scikit-learn.
"""

from importlib import import_module

__version__ = "0.1.0"

from perceptrons._registry import ESTIMATORS

#: public name -> module: the estimators of the registry, and the functions beside them
_PUBLIC = {
    **{name: entry.module for name, entry in ESTIMATORS.items()},
    "CircleLift": "perceptrons.lifting",
    "save_model": "perceptrons.persistence",
    "load_model": "perceptrons.persistence",
    "trace_updates": "perceptrons.linear.trace",
}

__all__ = sorted(_PUBLIC) + ["__version__"]


def __getattr__(name):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'perceptrons' has no attribute {name!r}")


def __dir__():
    return __all__
