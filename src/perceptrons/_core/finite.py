"""Finiteness: inputs with NaN or infinity, and scores or weights that overflow or lose their
features to underflow, each refused with the one-line message that names the cause and the fix."""

import numpy as np

from perceptrons._core.errors import PerceptronsError

#: the remedy for scores that overflow although every input value is finite
SCALE_FEATURES = "scale the features, e.g. with sklearn.preprocessing.StandardScaler"


def overflow_error(subject, top, what="features", fix=SCALE_FEATURES):
    """The error for a finite input whose score (or weight) overflowed: ``subject``, the largest
    input value ``top`` (of ``what``) and the remedy — never "contains NaN or infinity"."""
    return PerceptronsError(f"{subject} overflowed to infinity or NaN ({what} up to {top:.3g}); {fix}")


def largest_magnitude(values):
    """max |v| over ``values`` (0 for none), without the copy ``np.abs`` would make."""
    values = np.asarray(values)
    return max(float(values.max(initial=0.0)), -float(values.min(initial=0.0)))


def _all_below(values, bound, chunk=1 << 14):
    """Whether every ``|v| < bound``, stopping at the first chunk that holds one at or above it:
    a fitted model's first weights answer it, where a full pass would double the cost of a
    small ``partial_fit`` call on a million features."""
    flat = np.ravel(values)
    for start in range(0, flat.size, chunk):
        part = flat[start : start + chunk]
        if (part >= bound).any() or (part <= -bound).any():
            return False
    return True


def underflow_error(weights, dtype, top_feature):
    """The error for a fitted model whose scores lost their features, else None.

    Every product w_j·x_j of a score is below the smallest normal number of ``dtype`` (the type
    the products are computed in) when the largest weight times the largest feature is: the
    scores are then the intercept alone (or 0), and the fit a constant model.  Features below
    ~1e-154 do this (the weights are sums of them).  ``top_feature`` is a callable giving the
    largest ``|x|`` of the training rows; it costs a pass over them, so it is called only when
    the weights are below the square root of that smallest number, as they then are.
    """
    tiny = float(np.finfo(dtype).smallest_normal)
    if not _all_below(weights, np.sqrt(tiny)):
        return None
    top = largest_magnitude(weights)
    if top == 0:
        return None
    feature = float(top_feature())
    if feature * top >= tiny:
        return None
    return PerceptronsError(
        f"the weights (up to {top:.3g}) times the features (up to {feature:.3g}) are below the "
        f"smallest normal {np.dtype(dtype)} ({tiny:.3g}): every score lost its features; {SCALE_FEATURES}"
    )


def finite_scores(scores, weights, first_row=0, X=None):
    """``scores`` if every one is finite, else the error naming the first row that is not: the
    model's ``weights`` (a model file's are untrusted: finite, but as large as a float64 holds)
    times finite features overflowed, and its labels would be an argmax over inf and NaN.
    ``scores[0]`` is the score of row ``first_row`` (a block of a larger X); with the rows
    ``X``, the message gives their largest value too (the cause may be theirs)."""
    if np.isfinite(scores).all():
        return scores
    row = first_row + int(np.flatnonzero(~np.isfinite(scores).reshape(scores.shape[0], -1).all(axis=1))[0])
    raise score_overflow(row, weights, X)


def score_overflow(row, weights, X=None):
    """The error :func:`finite_scores` raises, for a loop that found the row itself."""
    top = largest_magnitude(weights)
    what, fix = "model weights", "the model does not fit this data"
    if X is not None:
        values = X.data if hasattr(X, "tocsr") else np.asarray(X)
        features = largest_magnitude(values)
        what, fix = (
            f"features up to {features:.3g}, model weights",
            "the model does not fit this data; scale the features",
        )
    return overflow_error(f"the score of row {row}", top, what=what, fix=fix)


def assert_finite(X, name="X"):
    """Raise when X (dense or sparse) holds NaN or infinity."""
    import scipy.sparse as sp  # here, not at import: tagging never needs scipy

    values = X.data if sp.issparse(X) else X
    if not np.isfinite(values.sum()) and not np.isfinite(values).all():
        raise PerceptronsError(f"Input {name} contains NaN or infinity; expected finite values")
