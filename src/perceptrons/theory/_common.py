"""Input checks and the augmented (bias-folded) view shared by the theory functions.

Every theorem here speaks of the vectors the PLA actually updates with: with
``fit_intercept=True`` that is ``z = (x, 1)`` (the θ trick of Gormley's notes), so a radius,
a margin and a mistake count all refer to the same points.
"""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from perceptrons._core.data import check_sparse_indices
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import largest_magnitude
from perceptrons._core.labels import check_classes
from perceptrons._core.memory import densify
from perceptrons._core.params import Interval, Kind, Options, check_param

#: the theory functions' budgets and sizes: a positive int (scikit-learn's words, via check_param)
POSITIVE_INT = (Interval(Integral, 1, None),)
#: a step budget of a compiled loop: a positive int64
BUDGET = (Interval(Integral, 1, 2**62),)
#: their seeds, as ``np.random.default_rng`` takes them
SEED = (None, Interval(Integral, 0, None), Kind(np.random.Generator, "a numpy Generator"))

#: appended to a solver failure: badly scaled data is the usual cause
SCALE_HINT = (
    "the data may be badly scaled: rescale the features (e.g. to [-1, 1] or unit variance) "
    "and remove duplicate or near-duplicate points"
)


def check_X(X, name="X"):
    """A finite 2-D float64 array (sparse input is densified: the theory solvers are dense)."""
    if sp.issparse(X):
        check_sparse_indices(X, name)
        # the solvers here are dense; beside X they hold its augmented rows (x, 1) and a scaled
        # copy for the radius, so three dense copies are counted
        X = densify(X.astype(np.float64), name, copies=3, why="the theory's solvers are dense")
    try:
        X = np.asarray(X)
        if X.dtype.kind == "c":  # a cast would drop the imaginary parts with a mere warning
            raise TypeError(f"complex values ({X.dtype}); expected real numbers")
        X = X.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        raise PerceptronsError(f"{name} must be numeric: {exc}") from None
    if X.ndim == 1:
        raise PerceptronsError(
            f"{name} must be 2-D (n_samples, n_features); got a 1-D array of shape {X.shape}: "
            "reshape(-1, 1) for one feature"
        )
    if X.ndim != 2:
        raise PerceptronsError(f"{name} must be 2-D (n_samples, n_features); got shape {X.shape}")
    if X.shape[0] == 0:
        raise PerceptronsError(f"{name} is empty: 0 samples")
    if not np.all(np.isfinite(X)):
        row, col = np.argwhere(~np.isfinite(X))[0]
        raise PerceptronsError(
            f"{name} contains {float(X[row, col])} at row {row}, column {col}; every value must be finite"
        )
    return X


def norm_of(v):
    """‖v‖ of a vector without overflow: the norm of the one row ``v`` (:func:`radius_of`)."""
    return radius_of(np.asarray(v, dtype=np.float64).reshape(1, -1))


def radius_of(Z):
    """max ‖zᵢ‖ over the rows of ``Z``, computed on rows scaled by their largest entry, so that
    finite data of any size give a finite radius (the squares of 1e160 overflow)."""
    top = largest_magnitude(Z)
    if top == 0.0:
        return 0.0
    scaled = Z / top
    return top * float(np.sqrt(np.max(np.einsum("ij,ij->i", scaled, scaled))))


def signed_labels(y, n):
    """``(classes, s)`` with s ∈ {−1, +1}; ``classes[1]`` (the larger label) is +1."""
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise PerceptronsError(f"y must have one label per sample: expected shape ({n},), got {y.shape}")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise PerceptronsError("y contains NaN or inf; labels must be finite")
    classes = check_classes(y)
    if classes.shape[0] != 2:
        raise PerceptronsError(
            f"y must contain exactly two classes for a binary separator; got {classes.shape[0]}: "
            f"{classes[:5].tolist()}{' ...' if classes.shape[0] > 5 else ''}"
        )
    s = np.where(y == classes[1], 1.0, -1.0)
    return classes, s


def augment(X, fit_intercept):
    """``(x, 1)`` rows when the bias is folded in, else ``X`` itself. Shape (n, d + fit_intercept)."""
    if not fit_intercept:
        return X
    return np.hstack([X, np.ones((X.shape[0], 1))])


def check_Xy(X, y, fit_intercept):
    """Validated ``(X, classes, s, Z)`` with ``Z = s[:, None] · augment(X)`` (signed rows)."""
    X = check_X(X)
    classes, s = signed_labels(y, X.shape[0])
    Z = augment(X, fit_intercept) * s[:, None]
    return X, classes, s, Z


def check_option(value, name, options):
    """One of ``options``, refused in the estimators' words."""
    return check_param(value, name, (Options(*options),))


def squared_ratio(a, b):
    """(a/b)², inf where it passes the float range: Python's ``**`` raises OverflowError there
    (a Novikoff bound on rows of 1e-180 with the bias folded in is 1e364)."""
    q = a / b
    return q * q


def check_vector(v, name, size, min_size=1):
    """``v`` as ``size`` (None: at least ``min_size``) finite float64 numbers (a separator, a
    direction, a centre), else one line."""
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        arr = None
    # one row or one column is a vector; a matrix (a multiclass coef_, say) is not one to flatten
    if arr is not None and sum(n > 1 for n in arr.shape) > 1:
        raise PerceptronsError(f"{name} must be one vector; got an array of shape {arr.shape}")
    arr = None if arr is None else arr.ravel()
    count = arr is not None and (arr.shape[0] == size if size is not None else arr.shape[0] >= min_size)
    if not count or not np.all(np.isfinite(arr)):
        many = size if size is not None else f"{min_size} or more"
        raise PerceptronsError(f"{name} must be {many} finite numbers. Got {_short(v)} instead.")
    return arr


def check_scalar(value, name):
    """A finite real number (a bias; a 1-element array such as ``intercept_`` too), else one line."""
    if np.ndim(value) and np.size(value) == 1:
        value = np.asarray(value).ravel()[0]
    return float(check_param(value, name, (Interval(Real, None, None),)))


def _short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
