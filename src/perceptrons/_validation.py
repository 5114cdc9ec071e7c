"""Input checks, label encoding and the one-line error messages every estimator shares.

Errors name the parameter (or file and line), the value seen and what was expected, in the
form scikit-learn uses: "The 'max_epochs' parameter of Perceptron must be an int in the range
[1, inf). Got 0 instead."
"""

import os
from numbers import Integral, Real

import numpy as np


class PerceptronsError(ValueError):
    """Bad input or a bad parameter. The message is one line, fit to show a user as is."""


class PerceptronsTypeError(PerceptronsError, TypeError):
    """Input of the wrong kind, such as a str where a list of words is expected.

    A ``TypeError`` as NLTK raises for it (``nltk.pos_tag("a string")``), and still a
    :class:`PerceptronsError`, so code catching either works.
    """


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


# ----------------------------------------------------------------------------- parameters
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
    must be an int in the range [1, inf). Got 0 instead."."""
    if any((c is None and value is None) or (c is not None and c.accepts(value)) for c in allowed):
        return value
    texts = ["None" if c is None else str(c) for c in allowed]
    expected = texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]
    of = f" of {owner}" if owner else ""
    raise PerceptronsError(f"The {name!r} parameter{of} must be {expected}. Got {shown(value)} instead.")


def shown(value, limit=80):
    """``repr(value)`` on one line, cut to ``limit`` characters: an array's repr spans lines,
    and a refusal is one line."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


def check_same_classes(classes, fitted):
    """``partial_fit``'s ``classes`` after the first call must be the classes it started with."""
    if classes is None:
        return
    given = sorted_labels(classes, "classes")
    if not np.array_equal(given, fitted):
        raise PerceptronsError(f"classes {given.tolist()} differ from the classes of the first call {fitted.tolist()}")


# ----------------------------------------------------------------------------- labels
def encode_labels(y, classes):
    """Map labels to indices into ``classes`` (sorted); unknown labels are an error."""
    y = np.asarray(y)
    idx = np.searchsorted(classes, y)
    idx = np.clip(idx, 0, len(classes) - 1)
    bad = classes[idx] != y
    if np.any(bad):
        unknown = np.unique(y[bad])[:5]
        raise PerceptronsError(
            f"y contains labels {unknown.tolist()} that are not in classes {classes.tolist()}; "
            "pass every label in `classes` on the first call to partial_fit"
        )
    return idx.astype(np.int64)


def sorted_labels(labels, what="y"):
    """The sorted distinct values of ``labels``, in the machine's byte order.

    Labels that cannot be ordered together (None beside numbers, str beside int in an object
    array) and missing ones (NaN, None) are refused naming ``what``.  The byte order is the
    machine's, so that a model file written with these labels is read back (the reader takes
    native arrays only).
    """
    labels = np.asarray(labels)
    if labels.ndim != 1:  # a nested list of classes was flattened by np.unique, or 0-d taken
        raise PerceptronsError(f"{what}: expected a 1-d sequence of labels, got an array of shape {labels.shape}")
    if not labels.dtype.isnative:
        labels = labels.astype(labels.dtype.newbyteorder("="))
    if labels.dtype == object and all(isinstance(c, str) for c in labels.flat):
        labels = labels.astype(str)  # storable without pickle, sortable
    try:
        distinct = np.unique(labels)
    except TypeError:
        kinds = sorted({type(v).__name__ for v in labels.flat})
        raise PerceptronsTypeError(
            f"{what}: labels of types {', '.join(kinds)} cannot be ordered together; "
            "expected labels of one kind (all numbers or all strings)"
        ) from None
    missing = [v for v in distinct.tolist() if v is None or v != v]  # None, or NaN (not equal to itself)
    if missing:
        raise PerceptronsError(f"{what} contains a missing label ({missing[0]!r}); expected a label for every entry")
    return distinct


def check_classes(classes, what="y"):
    """The sorted distinct labels (:func:`sorted_labels`); at least two of them."""
    classes = sorted_labels(classes, what)
    if classes.shape[0] < 2:
        seen = f"1 class ({classes.tolist()[0]!r})" if classes.shape[0] else "no labels"
        raise PerceptronsError(f"{what} has {seen}; at least two classes are needed to learn a separator")
    return classes


def fit_labels(y):
    """(classes, indices) of the labels of a fit, in one O(n) pass for small-range integers.

    Integer labels are what large data sets carry; sorting them (np.unique) costs as much as a
    whole epoch of a 400k x 100 dense fit, a bincount a tenth of it.  Other labels go through
    scikit-learn's target check (it refuses continuous targets) and np.unique.
    """
    y = np.asarray(y)
    if y.dtype.kind in "iu" and y.size:
        lo, hi = int(y.min()), int(y.max())
        if hi - lo < 1 << 20:
            # y - lo in y's own dtype overflows for narrow ints (int8: 127 - (-128)); offsets are
            # taken in 64 bits, unsigned ones after subtracting within the dtype (y ≥ lo, no wrap)
            if y.dtype.kind == "u":
                shifted = (y - y.dtype.type(lo)).astype(np.intp)
            else:
                shifted = y.astype(np.int64, copy=False) - lo
            present = np.flatnonzero(np.bincount(shifted, minlength=hi - lo + 1))
            if y.dtype.kind == "u":
                values = present.astype(np.uint64) + np.uint64(lo)
            else:
                values = present.astype(np.int64) + lo
            classes = check_classes(values.astype(y.dtype))
            lookup = np.empty(hi - lo + 1, dtype=np.int64)
            lookup[present] = np.arange(present.shape[0])
            return classes, lookup[shifted]
    from sklearn.utils.multiclass import check_classification_targets

    classes = check_classes(y)  # first: its messages for labels that cannot be sorted or are missing
    check_classification_targets(y)
    return classes, encode_labels(y, classes)


# ----------------------------------------------------------------------------- weights
def sample_scale(sample_weight, class_weight, y_idx, classes, n_samples):
    """The factor each example's update is multiplied by: sample_weight × class_weight[y]."""
    if sample_weight is None:
        scale = np.ones(n_samples, dtype=np.float64)
    else:
        sw = np.asarray(sample_weight)
        if sw.dtype.kind not in "biuf" and sw.dtype != object:  # complex: a cast would drop a part
            what = "text" if sw.dtype.kind in "US" else f"an array of {sw.dtype}"
            raise PerceptronsError(f"sample_weight must be real numbers; got {what}")
        try:
            sw = sw.astype(np.float64)
        except (TypeError, ValueError):
            raise PerceptronsError("sample_weight must be real numbers; got values that are not numbers") from None
        if sw.ndim == 0:
            sw = np.full(n_samples, float(sw))
        if sw.ndim != 1 or sw.shape[0] != n_samples:
            raise PerceptronsError(
                f"sample_weight must have one entry per sample: expected shape ({n_samples},), got {sw.shape}"
            )
        if not np.all(np.isfinite(sw)) or np.any(sw < 0):
            bad = float(sw[~(np.isfinite(sw) & (sw >= 0))][0])
            raise PerceptronsError(f"sample_weight must be finite and non-negative; got {bad!r}")
        if n_samples and not np.any(sw > 0):
            raise PerceptronsError("sample_weight: all weights are zero; at least one example must have weight > 0")
        scale = sw.copy()
    # every weighted count (mistakes, the pocket's errors) stays below the sum: it must be a
    # number (an overflow here is reported below, not warned about)
    with np.errstate(over="ignore"):
        if class_weight is not None:
            scale *= class_weight_vector(class_weight, classes, y_idx)[y_idx]
        total = float(scale.sum())
    if not np.isfinite(total):
        raise PerceptronsError(
            f"sample_weight (times class_weight) sums to {total} (more than the largest float64, "
            f"~1.8e308): expected weights whose sum is finite; scale them down"
        )
    return scale


def class_weight_vector(class_weight, classes, y_idx):
    """Per-class factors; ``"balanced"`` is n / (n_classes · count), as in scikit-learn."""
    k = len(classes)
    if isinstance(class_weight, str):
        if class_weight != "balanced":
            raise PerceptronsError(
                f"The 'class_weight' parameter must be 'balanced', a dict or None. Got {class_weight!r} instead."
            )
        counts = np.bincount(y_idx, minlength=k).astype(np.float64)
        with np.errstate(divide="ignore"):
            cw = np.where(counts > 0, len(y_idx) / (k * np.maximum(counts, 1)), 1.0)
        return cw
    if not isinstance(class_weight, dict):
        raise PerceptronsError(
            f"The 'class_weight' parameter must be 'balanced', a dict or None. Got {class_weight!r} instead."
        )
    cw = np.ones(k, dtype=np.float64)
    known = {c.item() if hasattr(c, "item") else c: i for i, c in enumerate(classes)}
    for label, weight in class_weight.items():
        key = label.item() if hasattr(label, "item") else label
        if key not in known:
            raise PerceptronsError(
                f"class_weight names the class {label!r}, which is not in the data; classes are {classes.tolist()}"
            )
        if not isinstance(weight, Real) or not np.isfinite(weight) or weight < 0:
            raise PerceptronsError(f"class_weight[{label!r}] must be a finite number >= 0; got {weight!r}")
        cw[known[key]] = float(weight)
    return cw


def assert_finite(X, name="X"):
    """Raise when X (dense or sparse) holds NaN or infinity."""
    import scipy.sparse as sp  # here, not at import: tagging never needs scipy

    values = X.data if sp.issparse(X) else X
    if not np.isfinite(values.sum()) and not np.isfinite(values).all():
        raise PerceptronsError(f"Input {name} contains NaN or infinity; expected finite values")


# ----------------------------------------------------------------------------- operands of the compiled loops


def warn_not_converged(estimator, stacklevel):
    """The ConvergenceWarning of a linear fit that stopped at ``max_epochs`` with mistakes left
    (streamed and distributed fits; not after a callback stopped it)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    if estimator.converged_ or estimator._stopped_by_callback:
        return
    warnings.warn(
        f"{type(estimator).__name__} made {estimator.mistakes_per_epoch_[-1]} mistakes in its last "
        f"epoch and stopped at max_epochs={estimator.max_epochs}: the data may not be linearly separable.",
        ConvergenceWarning,
        stacklevel=stacklevel + 1,
    )


def validate_data(estimator, X="no_validation", y="no_validation", **kwargs):
    """scikit-learn's ``validate_data``, with the index arrays of a sparse ``X`` checked first,
    and labels of an object ``y`` by :func:`sorted_labels`.

    A hand-built sparse matrix with an index past its shape would send scipy's conversions and
    every compiled loop outside their arrays (a crash, or silently wrong weights), so the check
    runs before scikit-learn touches ``X`` (see :mod:`perceptrons._sparse_check`).
    """
    from sklearn.utils.validation import validate_data as sklearn_validate_data

    from perceptrons._sparse_check import check_sparse_indices

    check_sparse_indices(X)
    if y is not None and not isinstance(y, str):
        labels = np.asarray(y)
        if labels.dtype == object:  # None, NaN or unorderable labels named as labels, not "Input"
            sorted_labels(labels)
    # its finiteness check sums X first: finite features above ~1e154 of both signs sum to
    # inf - inf, a RuntimeWarning for valid input (it then checks value by value)
    with np.errstate(over="ignore", invalid="ignore"):
        return sklearn_validate_data(estimator, X, y, **kwargs)
