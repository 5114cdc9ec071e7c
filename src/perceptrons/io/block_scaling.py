"""Column scalers learned from blocks of rows, and applied to them: a streamed fit's scaling.

A streamed fit (:mod:`perceptrons.stream`) may train a scikit-learn ``Pipeline`` whose steps
before the estimator are column scalers (``MaxAbsScaler``, ``StandardScaler``): each is fitted
by its own ``partial_fit``, block by block in one pass over the epoch cache, and every epoch then
divides each block's columns by the fitted scales, after subtracting their means where the
scaler centres (dense rows only: centring would fill in every zero of sparse rows).  A first step may be a
``SimpleImputer(strategy="mean")`` of dense rows: the stream keeps a missing number as NaN
(``keep_missing``), the imputer is fitted on each column's mean over every row, summed block by
block, and every epoch fills the block's NaN with it before the scalers see the rows, as the
in-memory column pipeline imputes before it scales.  Next may come a
:class:`~perceptrons.column_scaler.ColumnStandardScaler` of hashed rows, fitted on the whole width
in a pass of its own, which standardises the values stored in each column of numbers and so
keeps a block's sparsity pattern.

Sparse blocks are scaled on the columns their rows use, when those are few.  A hashed source is as wide as its hash
space (2**28 columns at the top), and a scaler's ``partial_fit`` on a block that wide makes
several arrays of that width per block (scikit-learn's column minima and maxima go through a CSC
copy with one pointer a column): 21 GB of peak memory for six rows at 2**28 columns.  The
statistics of a column depend on that column's values alone, so each scaler is fitted on the
blocks narrowed to the columns some row uses (their order kept), and its fitted arrays are then
widened: a column no row uses has no value but zeros, so its mean, variance and largest |x| are
0 and its scale 1, as a fit on the whole width gives them.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._jit.scaling import scaled_values

#: the pipeline steps a streamed fit learns block by block (``partial_fit``): column scalers
COLUMN_SCALERS = ("MaxAbsScaler", "StandardScaler")
#: the step that fills a missing number of dense rows with its column's mean, first if at all
IMPUTER = "SimpleImputer"
#: the step that standardises the columns of numbers of hashed rows, after the imputer if any
COLUMN_SCALER = "ColumnStandardScaler"
#: a fitted scaler's arrays of one value a column, and what a column no row uses holds in each
_PER_COLUMN = {"max_abs_": 0.0, "mean_": 0.0, "var_": 0.0, "scale_": 1.0}


def pipeline_parts(estimator):
    """``(transformers, final estimator)`` of a Pipeline, or ``([], estimator)``.

    The transformers are checked to learn from blocks and to keep sparse rows sparse.

    Parameters
    ----------
    estimator : estimator or sklearn.pipeline.Pipeline

    Returns
    -------
    steps : list of (str, transformer)
        The Pipeline's steps before its estimator, ``None`` and ``"passthrough"`` left out.
    final : estimator
    """
    if type(estimator).__name__ != "Pipeline":
        return [], estimator
    steps = [(name, step) for name, step in estimator.steps[:-1] if step not in (None, "passthrough")]
    for k, (_, step) in enumerate(steps):
        name = type(step).__name__
        if name == IMPUTER and k == 0:
            _check_imputer(step)
            continue
        if name == COLUMN_SCALER and k == int(imputes(steps)):
            continue
        # scalers of columns only: a block's scaled rows keep its sparsity pattern, which the
        # epochs rely on (the block's own index arrays)
        if name not in COLUMN_SCALERS:
            raise PerceptronsError(
                f"{name} cannot be fitted from a stream; the steps before the estimator can be "
                "SimpleImputer(strategy='mean') first, then ColumnStandardScaler, then MaxAbsScaler and "
                "StandardScaler(with_mean=False), which learn block by block"
            )
    return steps, estimator.steps[-1][1]


def check_centring(steps, sparse):
    """Refuse a scaler that centres (``StandardScaler(with_mean=True)``) sparse rows: centring
    makes them dense, and a block's scaled rows keep its sparsity pattern.
    """
    for _, step in steps:
        # (a ColumnStandardScaler centres only the values rows store)
        if sparse and getattr(step, "with_mean", False) and type(step).__name__ != COLUMN_SCALER:
            raise PerceptronsError(
                f"{type(step).__name__}(with_mean=True) cannot scale sparse rows: centring makes them dense; "
                "use with_mean=False or MaxAbsScaler"
            )


def imputes(steps):
    """Whether the steps of :func:`pipeline_parts` start with an imputer (the stream then keeps missing numbers)."""
    return bool(steps) and type(steps[0][1]).__name__ == IMPUTER


def takes_missing(model):
    """Whether a fitted model fills in missing numbers itself: a Pipeline whose first step is an
    imputer, or a column transformer (the in-memory column pipeline, which imputes every column
    of numbers); rows with NaN are refused for any other.
    """
    if type(model).__name__ != "Pipeline" or not model.steps:
        return False
    return type(model.steps[0][1]).__name__ in (IMPUTER, "ColumnTransformer")


def _check_imputer(step):
    mv = step.missing_values
    if not (
        step.strategy == "mean"
        and isinstance(mv, float)
        and mv != mv
        and not step.add_indicator
        and step.keep_empty_features
    ):
        raise PerceptronsError(
            "SimpleImputer: a stream imputes with SimpleImputer(strategy='mean', keep_empty_features=True) and NaN "
            "for missing values, without add_indicator (a column of no value keeps its place, filled with 0)"
        )


def _fitted_imputer(step, blocks, n_features, sparse):
    """``step`` (a SimpleImputer) fitted on each column's mean over every row of ``blocks``
    (:func:`column_sums`, one pass; :func:`mean_imputer`).
    """
    if sparse:
        raise PerceptronsError("SimpleImputer applies to dense rows; hashed and sparse rows leave a missing number out")
    sums, counts = np.zeros(n_features), np.zeros(n_features)
    for block in blocks():
        s, c = column_sums(block)
        sums += s
        counts += c
    return mean_imputer(step, sums, counts)


def column_sums(block):
    """``(sums, counts)`` of each column's values that are not NaN in a dense block, float64."""
    given = ~np.isnan(block.X)
    return np.where(given, block.X, 0.0).sum(axis=0, dtype=np.float64), given.sum(axis=0).astype(np.float64)


def mean_imputer(step, sums, counts):
    """A fresh copy of the SimpleImputer ``step`` fitted on the column means ``sums / counts``
    (blocks' or shards', merged exactly).  It is fitted on one row of those means, whose mean is
    each of them, so that it keeps scikit-learn's own state: a column of no value (count 0)
    gets 0, as ``keep_empty_features`` has it.

    Parameters
    ----------
    step : sklearn.impute.SimpleImputer
    sums, counts : ndarray of shape (n_features,)

    Returns
    -------
    sklearn.impute.SimpleImputer
    """
    from sklearn.base import clone

    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts  # 0 / 0 = NaN: a column of no value
    return clone(step).fit(means[None, :])


def fit_scalers(steps, blocks, n_features, sparse):
    """Fresh copies of the ``(name, scaler)`` steps, each fitted on the blocks as the ones
    before it transform them.

    One pass over the blocks a scaler (``partial_fit`` block by block gives the whole data's
    statistics), and one more first for sparse blocks, to find the columns their rows use.
    Fresh copies, so that a second attempt (a damaged cache rebuilt) starts from nothing.

    Parameters
    ----------
    steps : list of (str, transformer)
        From :func:`pipeline_parts`.
    blocks : callable
        ``blocks()`` iterates over the rows once more, as :class:`~perceptrons.io.blocks.Block`.
    n_features : int
        The rows' width.
    sparse : bool
        Whether the blocks are CSR rows.

    Returns
    -------
    list of transformer
        Fitted, each ``n_features`` wide.
    """
    from sklearn.base import clone

    check_centring(steps, sparse)
    if sparse and [type(step).__name__ for _, step in steps] == ["MaxAbsScaler"]:
        return [_max_abs_scaler(steps[0][1], blocks, n_features)]
    fitted = [_fitted_imputer(steps[0][1], blocks, n_features, sparse)] if imputes(steps) else []
    steps = steps[len(fitted) :]
    if steps and type(steps[0][1]).__name__ == COLUMN_SCALER:
        # on the whole width: its columns are the table's, which narrowing would renumber
        columns = clone(steps.pop(0)[1])
        for block in blocks():
            columns.partial_fit(_narrowed(block, None, fitted, n_features))
        fitted.append(columns)
    whole = len(fitted)  # the steps fitted on the whole width, before the narrowed ones
    cols = _used_columns(blocks(), n_features) if sparse and steps else None
    if cols is not None and cols.shape[0] > n_features // 4:
        # most columns used: narrowing would save little and cost a search per value (a third of
        # a streamed fit of 1M Zipf columns went to it)
        cols = None
    for _, step in steps:
        step = clone(step)
        for block in blocks():
            step.partial_fit(_narrowed(block, cols, fitted, n_features))
        fitted.append(step)
    return fitted if cols is None else fitted[:whole] + [_widened(step, cols, n_features) for step in fitted[whole:]]


def _max_abs_scaler(step, blocks, n_features):
    """``step`` (a MaxAbsScaler) fitted on sparse blocks in one compiled pass a block: the
    largest |x| of each column (:func:`max_abs_scaler` makes the scaler of them).
    """
    from perceptrons._jit.scaling import max_abs_columns

    top = np.zeros(n_features)
    rows = 0
    dtype = np.float32  # scikit-learn's arrays take the values' type (binary values: float32 ones)
    for block in blocks():
        max_abs_columns(block.data, block.indices, top)
        rows += block.n_rows
        dtype = dtype if block.data is None else block.data.dtype
    return max_abs_scaler(step, top, rows, dtype)


def max_abs_scaler(step, top, rows, dtype):
    """A fresh copy of the MaxAbsScaler ``step``, fitted: columns whose largest |x| is ``top``,
    over ``rows`` rows of values of ``dtype``, its arrays as its own fit sets them (a scale below
    10 ε is 1, as its ``_handle_zeros_in_scale`` makes it), through the public attributes only.

    Parameters
    ----------
    step : sklearn.preprocessing.MaxAbsScaler
    top : ndarray of shape (n_features,)
        Each column's largest |x| (maxima merge exactly: shards and blocks give the whole's).
    rows : int
    dtype : numpy dtype
        The values' type, which scikit-learn's arrays take.

    Returns
    -------
    sklearn.preprocessing.MaxAbsScaler
    """
    from sklearn.base import clone

    dtype = np.dtype(dtype)
    top = np.asarray(top).astype(dtype)  # exact: a largest |x| is one of the values
    step = clone(step).fit(np.zeros((1, 1)))  # the fitted mark; every statistic is set below
    step.max_abs_ = top
    step.scale_ = np.where(top < 10 * np.finfo(dtype).eps, np.ones(1, dtype), top)
    step.n_samples_seen_ = int(rows)
    step.n_features_in_ = top.shape[0]
    return step


def standard_scaler(step, mean, var, rows):
    """A fresh copy of the StandardScaler ``step``, fitted: columns of means ``mean`` and
    variances ``var`` over ``rows`` rows (shards' statistics, merged), its arrays as its own fit
    sets them, through the public attributes only; a column of equal values is divided by 1
    (:func:`~perceptrons.column_scaler.divisors`).

    Parameters
    ----------
    step : sklearn.preprocessing.StandardScaler
    mean, var : ndarray of shape (n_features,)
    rows : int

    Returns
    -------
    sklearn.preprocessing.StandardScaler
    """
    from sklearn.base import clone

    from perceptrons.column_scaler import divisors

    step = clone(step).fit(np.zeros((1, 1)))  # the fitted mark; every statistic is set below
    step.mean_ = np.asarray(mean, dtype=np.float64)
    step.var_ = np.asarray(var, dtype=np.float64)
    step.scale_ = divisors(step.var_)
    step.n_samples_seen_ = int(rows)
    step.n_features_in_ = step.mean_.shape[0]
    return step


def _used_columns(blocks, n_features):
    """The sorted indices of the columns that some row of ``blocks`` holds a value in."""
    used = np.zeros(n_features, dtype=bool)  # one byte a column: 256 MB at 2**28
    for block in blocks:
        used[block.indices] = True
    return np.flatnonzero(used)


def _narrowed(block, cols, fitted, n_features):
    """A block's rows as a matrix of the ``cols`` columns (all of them when None), transformed
    by the ``fitted`` scalers (fitted on those columns).
    """
    import scipy.sparse as sp

    if not block.sparse:
        X = block.X
        for step in fitted:
            X = step.transform(X)
        return X
    data = np.ones(block.indices.shape[0], np.float32) if block.data is None else block.data
    columns = [step for step in fitted if type(step).__name__ == COLUMN_SCALER]
    for step in columns:  # on the whole width's columns (sparse rows have no imputer)
        data = step.scaled(block.indices, data)
    if cols is None:
        X = sp.csr_matrix((data, block.indices, block.indptr), shape=(block.n_rows, n_features))
    else:
        narrow = np.searchsorted(cols, block.indices).astype(block.indices.dtype)  # each index is in cols
        X = sp.csr_matrix((data, narrow, block.indptr), shape=(block.n_rows, cols.shape[0]))
    for step in fitted[len(columns) :]:
        X = step.transform(X)
    return X


def _widened(step, cols, n_features):
    """``step``, fitted on the ``cols`` columns, made ``n_features`` wide: the other columns get
    what a fit on them gives (zeros: largest |x|, mean and variance 0, scale 1).
    """
    for name, fill in _PER_COLUMN.items():
        narrow = getattr(step, name, None)
        if narrow is not None:
            wide = np.full(n_features, fill, dtype=narrow.dtype)
            wide[cols] = narrow
            setattr(step, name, wide)
    seen = np.asarray(step.n_samples_seen_)
    if seen.ndim:  # one count a column (missing values): a column no row uses saw every row as 0
        wide = np.full(n_features, int(seen.max()), dtype=seen.dtype)
        wide[cols] = seen
        step.n_samples_seen_ = wide
    step.n_features_in_ = n_features
    return step


def scales_nothing(steps):
    """Whether the fitted scalers leave every value as it is (each column's scale 1: binary
    features, or columns already scaled), so that the epochs can read the blocks as they are;
    never so behind an imputer, which fills the blocks' missing numbers.
    """
    return all(
        hasattr(step, "scale_")
        and (step.scale_ is None or np.all(step.scale_ == 1))
        and (_mean_of(step) is None or np.all(_mean_of(step) == 0))
        for step in steps
    )


def _mean_of(step):
    """The column means a fitted scaler subtracts (a centring ``StandardScaler``), or None."""
    return step.mean_ if getattr(step, "with_mean", False) else None


def column_max_abs(block):
    """Each column's largest |x| in a block (sparse: one compiled pass), float64; a missing
    number (NaN) is left out.
    """
    if not block.sparse:
        if not block.n_rows:
            return np.zeros(block.X.shape[1])
        return np.max(np.abs(block.X), axis=0, initial=0.0, where=~np.isnan(block.X)).astype(np.float64)
    from perceptrons._jit.scaling import max_abs_columns

    top = np.zeros(block.n_features)
    max_abs_columns(block.data, block.indices, top)
    return top


class BlockScaling:
    """The operands of blocks after fitted column scalers, in the weights' type.

    Each scaler divides column j by its ``scale_[j]``, after subtracting its ``mean_[j]`` when it
    centres (dense rows only, :func:`check_centring`).  Its ``transform`` builds and checks a
    scipy matrix of every block in every epoch: a 5-epoch streamed fit of 300,000 rows of 15
    float values took 2.3x the unscaled fit's time so, and takes 1.8x with the division done
    here, as the scalers do it (sparse values times the reciprocal of their column's scale,
    dense rows divided by it; the same floats, tested).  A CSR block keeps its sparsity
    pattern, so its index arrays are the block's own.

    Parameters
    ----------
    steps : list of transformer
        Fitted steps, in order: an imputer first, if any, then column scalers.
    w_dtype : numpy dtype
        The weights' type, which the operand's values take.
    """

    def __init__(self, steps, w_dtype):
        # an imputer (first, if at all): each column's mean, for its missing numbers
        self.fill = steps[0].statistics_ if steps and type(steps[0]).__name__ == IMPUTER else None
        steps = steps[1:] if self.fill is not None else steps
        # a ColumnStandardScaler (next, if at all), which standardises its columns' values
        self.columns = steps[0] if steps and type(steps[0]).__name__ == COLUMN_SCALER else None
        steps = steps[1:] if self.columns is not None else steps
        # (the column means a centring scaler subtracts, or None; its scales, or None) a step
        self.steps = [(_mean_of(step), step.scale_) for step in steps]
        # the reciprocals once, not a whole-width array a block (2 GB at 2**28 columns)
        self.reciprocals = [1.0 / scale for _, scale in self.steps if scale is not None]
        self.w_dtype = w_dtype

    def operand(self, block):
        """The operand of ``block``'s scaled rows: ``X``, or ``(data, indices, indptr)``."""
        if not block.sparse:
            X = block.X
            if self.fill is not None:
                gaps = np.isnan(X)
                if gaps.any():
                    X = np.where(gaps, self.fill, X)
            if self.columns is not None:
                X = self.columns.transform(X)  # a copy: the block's rows are the cache's
            for mean, scale in self.steps:
                X = X if mean is None else X - mean
                X = X if scale is None else X / scale
            return np.ascontiguousarray(X, dtype=self.w_dtype)
        # the values' type as scikit-learn keeps it (float32 for the stream's values, each product
        # rounded to it), then the weights'
        # a new array, which the scaling below writes into (the block's values are the cache's);
        # the column scaler makes one of its own, so the block's values are not copied for it first
        if block.data is None:
            data = np.ones(block.indices.shape[0], np.float32)
        else:
            data = block.data if self.columns is not None else block.data.copy()
        if self.columns is not None:
            data = self.columns.scaled(block.indices, data)
        for reciprocal in self.reciprocals:
            scaled_values(data, block.indices, reciprocal, data)
        return (np.ascontiguousarray(data, dtype=self.w_dtype), block.indices, block.indptr)
