"""Data checks before any array reaches compiled code: the index arrays of a sparse input, then
scikit-learn's own ``validate_data``.

scipy builds a ``csr_matrix((data, indices, indptr))`` without looking at the index values, and
neither scikit-learn's ``check_array`` nor scipy's own C++ loops (``X @ w``, ``tocsr``) check
them either: a column index past the last column makes them, and our loops, read or write
outside their arrays.  Every estimator therefore passes its input through
:func:`check_sparse_indices` first (through :func:`validate_data`).
"""

import numpy as np
import scipy.sparse as sp

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.labels import sorted_labels


def check_sparse_indices(X, name="X"):
    """Refuse a sparse ``X`` whose index arrays do not describe a matrix of its shape.

    CSR and CSC: ``indptr`` has one entry per row (column) plus one, starts at 0, never
    decreases and ends within ``indices`` and ``data``; every index lies in [0, the other
    dimension).  COO: as many rows as columns as values, each in range.  BSR is checked through
    its block structure.  Other formats hold Python or dense structures and are left alone.

    Raises
    ------
    PerceptronsError
        One line naming the array, the first bad position and the value seen.
    """
    if not sp.issparse(X):
        return
    fmt = X.format
    if fmt in ("csr", "csc", "bsr"):
        n_major, n_minor = X.shape if fmt != "csc" else X.shape[::-1]
        if fmt == "bsr":
            r, c = X.blocksize
            n_major, n_minor = n_major // r, n_minor // c
        _check_compressed(name, fmt, X.indptr, X.indices, X.data, n_major, n_minor)
    elif fmt == "coo":
        row, col = X.coords if hasattr(X, "coords") else (X.row, X.col)
        if not row.shape == col.shape == X.data.shape:
            raise PerceptronsError(
                f"{name} (COO): row, col and data have different lengths "
                f"({row.shape[0]}, {col.shape[0]}, {X.data.shape[0]})"
            )
        _check_range(name, "COO", "row", row, X.shape[0])
        _check_range(name, "COO", "column", col, X.shape[1])


def _check_compressed(name, fmt, indptr, indices, data, n_major, n_minor):
    what = {"csr": "column", "csc": "row", "bsr": "block column"}[fmt]
    label = fmt.upper()
    if indptr.ndim != 1 or indptr.shape[0] != n_major + 1:
        raise PerceptronsError(
            f"{name} ({label}): indptr has {indptr.shape[0]} entries; expected {n_major + 1} "
            f"(one per {'column' if fmt == 'csc' else 'row'}{' of blocks' if fmt == 'bsr' else ''} plus one)"
        )
    if indptr[0] != 0:
        raise PerceptronsError(f"{name} ({label}): indptr starts at {indptr[0]}; expected 0")
    steps = np.diff(indptr)
    if steps.size and steps.min() < 0:
        k = int(np.argmax(steps < 0))
        raise PerceptronsError(
            f"{name} ({label}): indptr decreases at entry {k + 1} ({indptr[k]} then {indptr[k + 1]}); "
            "expected non-decreasing offsets"
        )
    nnz = int(indptr[-1])
    if nnz > indices.shape[0] or nnz > data.shape[0]:
        raise PerceptronsError(
            f"{name} ({label}): indptr ends at {nnz} but indices has {indices.shape[0]} entries and "
            f"data {data.shape[0]}; expected at least {nnz} of each"
        )
    _check_range(name, label, what, indices[:nnz], n_minor)


def _check_range(name, label, what, index, size):
    if index.size == 0:
        return
    low, high = index.min(), index.max()
    if low >= 0 and high < size:
        return
    k = int(np.argmax((index < 0) | (index >= size)))
    raise PerceptronsError(
        f"{name} ({label}): {what} index {index[k]} at stored entry {k} is outside [0, {size}) "
        f"(the matrix has {size} {what}s)"
    )


def validate_data(estimator, X="no_validation", y="no_validation", **kwargs):
    """scikit-learn's ``validate_data``, with the index arrays of a sparse ``X`` checked first,
    and labels of an object ``y`` by :func:`sorted_labels`.

    A hand-built sparse matrix with an index past its shape would send scipy's conversions and
    every compiled loop outside their arrays (a crash, or silently wrong weights), so the check
    runs before scikit-learn touches ``X`` (see :mod:`perceptrons._core.data`).
    """
    from sklearn.utils.validation import validate_data as sklearn_validate_data

    from perceptrons._core.data import check_sparse_indices

    check_sparse_indices(X)
    _check_frame_columns(X)
    if y is not None and not isinstance(y, str):
        labels = np.asarray(y)
        if labels.dtype == object:  # None, NaN or unorderable labels named as labels, not "Input"
            sorted_labels(labels)
    # its finiteness check sums X first: finite features above ~1e154 of both signs sum to
    # inf - inf, a RuntimeWarning for valid input (it then checks value by value)
    with np.errstate(over="ignore", invalid="ignore"):
        out = sklearn_validate_data(estimator, X, y, **kwargs)
    if isinstance(out, tuple):
        return (summed_duplicates(out[0]), *out[1:])
    return out if isinstance(X, str) else summed_duplicates(out)


def _check_frame_columns(X):
    """Refuse a DataFrame column that holds no numbers by its name, before scikit-learn's
    conversion says only "could not convert string to float: 'q'" of some column."""
    dtypes = getattr(X, "dtypes", None)
    if dtypes is None or not hasattr(X, "columns"):
        return
    for name, dtype in zip(X.columns, dtypes):
        kind = getattr(dtype, "kind", "O")
        if kind in "biuf":
            continue
        if kind == "O" or str(dtype) in ("category", "string", "str"):
            values = X[name].to_numpy(dtype=object)
            bad = next((v for v in values if isinstance(v, str)), None)
            if bad is None:
                continue  # objects or categories that are numbers (or None): scikit-learn converts them
            raise PerceptronsError(
                f"X column {name!r} holds text ({dtype}, e.g. {bad!r}); expected numbers: encode it first "
                "(sklearn.preprocessing.OneHotEncoder in a Pipeline, or the command line's train, which does)"
            )


def summed_duplicates(X):
    """A CSR or CSC ``X`` with its duplicate entries summed and its indices sorted (a copy), when
    it has any; else ``X`` itself.

    scipy keeps the entries of a hand-built matrix as given, and its products add duplicates up,
    so a prediction is right either way.  But a learner that steps by ``‖x‖²`` or a variance
    (passive-aggressive, ALMA, ROMMA, the second-order learners) would sum the squares of the
    parts, not the square of their sum, and learn another model from the same matrix.
    """
    if sp.issparse(X) and X.format in ("csr", "csc") and not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def linear_rows(estimator, X, y="no_validation", reset=False, finite=True):
    """``X`` (and ``y``, when given) checked by :func:`validate_data` and converted as the linear
    family's compiled loops take them: CSR, or a C-ordered array, of float32 or float64.

    Parameters
    ----------
    estimator : fitted or fitting estimator
        ``reset`` sets its ``n_features_in_`` from ``X``; else ``X`` must have that many columns.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
        Not given: ``X`` alone, for prediction.  None: refused, as a fit needs labels.
    reset, finite : bool
        Refuse NaN and infinity in ``X`` when ``finite``.

    Returns
    -------
    X, or (X, y)

    Raises
    ------
    PerceptronsError
        ``y`` None, or ``X`` without a sample when ``y`` is given.
    """
    options = dict(
        reset=reset, accept_sparse="csr", accept_large_sparse=True, dtype=[np.float64, np.float32], order="C"
    )
    if isinstance(y, str) and y == "no_validation":
        return validate_data(estimator, X, **options)
    if y is None:
        raise PerceptronsError(f"{type(estimator).__name__} requires y to be passed, but the target y is None")
    X, y = validate_data(estimator, X, y, ensure_all_finite=finite, **options)
    if X.shape[0] == 0:
        raise PerceptronsError("X is empty: 0 samples")
    return X, y


def check_warm_width(X, n_features, owner):
    """Refuse a warm fit on another number of columns than ``n_features``, before X is converted
    or anything fitted changes (validate_data would say it too, but as a plain ValueError)."""
    shape = getattr(X, "shape", None)
    if shape is not None:
        d = shape[1] if len(shape) == 2 else None
    else:  # a list of rows: the first row's length; ragged rows are validate_data's to refuse
        try:
            d = len(X[0])
        except (TypeError, IndexError, KeyError):
            d = None
    if d is not None and d != n_features:
        raise PerceptronsError(
            f"warm_start can only be used where X has the same number of features as in the "
            f"previous call to fit: X has {d} features, but {owner} was fitted "
            f"with n_features_in_={n_features}; set warm_start=False to start afresh"
        )
