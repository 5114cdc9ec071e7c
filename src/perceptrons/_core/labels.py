"""Labels: sorted classes, their encoding as indices, and the per-example scale that sample and
class weights give."""

from numbers import Real

import numpy as np

from perceptrons._core.errors import PerceptronsError, PerceptronsTypeError


def check_same_classes(classes, fitted):
    """``partial_fit``'s ``classes`` after the first call must be the classes it started with."""
    if classes is None:
        return
    given = sorted_labels(classes, "classes")
    if not np.array_equal(given, fitted):
        raise PerceptronsError(f"classes {given.tolist()} differ from the classes of the first call {fitted.tolist()}")


def alike(values, y):
    """``values`` (predictions, classes) comparable with labels ``y``: as text when ``y`` is text
    and they are not.  A model of numeric classes scored on a file whose labels hold a word has
    that file's labels as text, its classes' labels spelled as ``str`` of the class
    (:func:`perceptrons.io.labels.as_classes`), so 1 meets "1" and the word counts as an error."""
    values = np.asarray(values)
    return values.astype(str) if np.asarray(y).dtype.kind == "U" and values.dtype.kind != "U" else values


def unseen_note(y, classes):
    """The note for labels of ``y`` that are not among a fitted model's ``classes``, or None:
    their rows count as errors, as scikit-learn's ``accuracy_score`` counts them (a class too
    rare to fall in a random training split is common).  Every evaluation, in memory or
    streamed, keeps this one rule.

    Parameters
    ----------
    y : ndarray
        Labels in the type of ``classes``.
    classes : ndarray
        The model's sorted classes.

    Returns
    -------
    str or None
    """
    y = np.asarray(y)
    known = np.isin(y, alike(classes, y))
    if known.all():
        return None
    unknown = sorted(set(y[~known].tolist()))
    shown = ", ".join(map(repr, unknown[:5])) + (f", … ({len(unknown)} in all)" if len(unknown) > 5 else "")
    rows = int((~known).sum())
    rows_count = "its row counts" if rows == 1 else f"their {rows:,} rows count"
    return f"labels not seen in training ({shown}): {rows_count} as errors"


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


def check_known(y, classes, what="labels"):
    """Every value of ``y`` is one of ``classes`` (fixed by the first call), or an error naming
    the first five that are not."""
    unknown = np.setdiff1d(sorted_labels(y), classes)
    if unknown.size:
        raise PerceptronsError(f"y contains {what} {unknown[:5].tolist()} that are not in classes {classes.tolist()}")


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
    if n_samples and total == 0.0:  # as an all-zero sample_weight: no example would move the weights
        raise PerceptronsError(
            "class_weight (times sample_weight) is zero for every example; at least one example must have weight > 0"
        )
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
