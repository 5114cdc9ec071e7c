"""Parameter checks in scikit-learn's words, and the parameter kinds every estimator shares.

Errors name the parameter (or file and line), the value seen and what was expected, in the
form scikit-learn uses: "The 'max_epochs' parameter of Perceptron must be an int in the range
[1, inf). Got 0 instead."
"""

import os
import warnings
from numbers import Integral

import numpy as np

from perceptrons._core.errors import PerceptronsTypeError, shown

#: worker processes a local cluster may start, a core: more only contend for it (and 10**30 of
#: them filled the memory before any start)
WORKERS_PER_CORE = 8


def max_workers():
    """The most local worker processes a fit may start: :data:`WORKERS_PER_CORE` a core (the
    ``--workers`` option's bound, and ``n_workers``'s)."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


class Interval:
    """Numbers of one kind (``Integral`` or ``Real``) in a closed/open range.

    NaN is never accepted, and neither is ±inf unless ``allow_inf=True``: an open end
    (``None``) means "no bound", not "infinity is a value" — ``gamma=inf`` or ``coef0=nan``
    would only surface later as NaN scores.
    """

    def __init__(self, kind, low, high, closed="both", allow_inf=False):
        self.kind, self.low, self.high, self.closed = kind, low, high, closed
        self.allow_inf = allow_inf

    def accepts(self, value):
        if isinstance(value, bool) or not isinstance(value, self.kind):
            return False
        if not isinstance(value, Integral) and (np.isnan(value) or (np.isinf(value) and not self.allow_inf)):
            return False
        lo_ok = self.low is None or (value >= self.low if self.closed in ("both", "left") else value > self.low)
        hi_ok = self.high is None or (value <= self.high if self.closed in ("both", "right") else value < self.high)
        return lo_ok and hi_ok

    def __str__(self):
        kind = "an int" if self.kind is Integral else "a float"
        left = "[" if self.closed in ("both", "left") and self.low is not None else "("
        right = "]" if self.closed in ("both", "right") and self.high is not None else ")"
        lo = "-inf" if self.low is None else self.low
        hi = "inf" if self.high is None else self.high
        return f"{kind} in the range {left}{lo}, {hi}{right}"


class Options:
    """One of a fixed set of values (usually strings)."""

    def __init__(self, *values):
        self.values = values

    def accepts(self, value):
        return any(value is v or (type(value) is type(v) and value == v) for v in self.values)

    def __str__(self):
        return "one of {" + ", ".join(repr(v) for v in self.values) + "}"


class Kind:
    """An instance of a type (``dict``, ``callable`` given as the builtin, ...)."""

    def __init__(self, what, label):
        self.what, self.label = what, label

    def accepts(self, value):
        if self.what is callable:
            return callable(value)
        return isinstance(value, self.what)

    def __str__(self):
        return self.label


RANDOM_STATE = (None, Interval(Integral, 0, 2**32 - 1), Kind(np.random.RandomState, "a RandomState"))


#: a fit's ``callback`` (and a streamed fit's ``progress``): checked before any work, not at the
#: end of the first epoch, where calling an int raised Python's own TypeError
CALLBACK = (None, Kind(callable, "a callable"))


#: a file's name.  Not an int: ``open(1)`` and ``os.path.isfile(1)`` take it as a file
#: descriptor, so ``read_corpus(True)`` read standard output and closed it.
PATH = Kind((str, os.PathLike), "a path (str or os.PathLike)")


def check_path(value, name, owner=None):
    """``value`` as a str path, if it is a str or path-like, else the :func:`check_param` error."""
    return os.fspath(check_param(value, name, (PATH,), owner))


def check_param(value, name, allowed, owner=None):
    """``value`` if one of ``allowed`` accepts it (``None`` in ``allowed``: the value None), else a
    :class:`PerceptronsError` in scikit-learn's words: "The 'max_epochs' parameter of Perceptron
    must be an int in the range [1, inf). Got 0 instead.".  It is a ``TypeError`` too, as
    scikit-learn's ``InvalidParameterError`` is, so code written to catch either still does."""
    if any((c is None and value is None) or (c is not None and c.accepts(value)) for c in allowed):
        return value
    texts = ["None" if c is None else str(c) for c in allowed]
    expected = texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]
    of = f" of {owner}" if owner else ""
    raise PerceptronsTypeError(f"The {name!r} parameter{of} must be {expected}. Got {shown(value)} instead.")


def check_bool(value, name):
    """``bool(value)`` for a bool (numpy's too), else the :func:`check_param` error."""
    return bool(check_param(value, name, (Kind((bool, np.bool_), "a bool"),)))


def validate_params(estimator, constraints):
    """Check each of ``estimator``'s parameters against ``constraints`` (name -> tuple of allowed).

    ``None`` in a tuple means the value ``None`` is allowed.
    """
    for name, allowed in constraints.items():
        check_param(getattr(estimator, name), name, allowed, type(estimator).__name__)


def seed_of(random_state):
    """The seed of ``numpy.random.default_rng`` for a ``random_state`` parameter: an int or None
    as given, or one int drawn from a ``RandomState`` (as scikit-learn's estimators accept)."""
    if isinstance(random_state, np.random.RandomState):
        return random_state.randint(0, 2**31 - 1)
    return random_state


def warn_not_converged(estimator, stopped, stacklevel):
    """The ConvergenceWarning of a linear fit that stopped at ``max_epochs`` with mistakes left
    (streamed and distributed fits; not after a callback ``stopped`` it), for a model that
    predicts with its last iterate only (``predicts_last_iterate``)."""

    from sklearn.exceptions import ConvergenceWarning

    if estimator.converged_ or stopped or not estimator.predicts_last_iterate:
        return
    warnings.warn(
        f"{type(estimator).__name__} made {estimator.mistakes_per_epoch_[-1]} mistakes in its last "
        f"epoch and stopped at max_epochs={estimator.max_epochs}: the data may not be linearly separable; "
        "AveragedPerceptron or PocketPerceptron give a good hypothesis on such data.",
        ConvergenceWarning,
        stacklevel=stacklevel + 1,
    )
