"""A :class:`~perceptrons.column_scaler.ColumnStandardScaler` in a model file, as validated arrays.

Stored as :mod:`perceptrons.io.pipeline_state` stores scikit-learn's transformers: its
parameters and width (JSON) and the fitted arrays ``columns_``, ``mean_``, ``var_`` and
``n_samples_seen_``, never a pickle.  The class is ours, so reading sets its fitted attributes
directly, once each is checked.
"""

import numpy as np

from perceptrons.io.model_state import INTS

#: the class a model file holds, by name (the Pipeline reader dispatches on it)
COLUMN_SCALER = "ColumnStandardScaler"


def column_scaler_state(obj, _=None):
    """``(meta, arrays)`` of a fitted ColumnStandardScaler."""
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(obj)
    meta = {
        "class": COLUMN_SCALER,
        "n_features": int(obj.n_features_in_),
        "n_rows_seen": int(obj.n_rows_seen_),
        "with_mean": bool(obj.with_mean),
        "with_std": bool(obj.with_std),
    }
    arrays = {
        "columns_": np.asarray(obj.columns_, dtype=np.int64),
        "mean_": np.asarray(obj.mean_, dtype=np.float64),
        "var_": np.asarray(obj.var_, dtype=np.float64),
        "n_samples_seen_": np.asarray(obj.n_samples_seen_, dtype=np.int64),
    }
    return meta, arrays


def restore_column_scaler(state, _=None, max_width=1 << 28):
    """The ColumnStandardScaler stored by :func:`column_scaler_state`, every field checked through
    ``state`` (a :class:`~perceptrons.io.model_state.ModelState`): distinct columns in increasing
    order within the width, one finite mean, one finite variance of at least 0 and one count of
    values each, no more values than rows.
    """
    from perceptrons.column_scaler import ColumnStandardScaler, divisors

    n = state.int("n_features", lo=1, hi=max_width + 1)
    rows = state.int("n_rows_seen", lo=0, hi=1 << 62)
    cols = state.array("columns_", INTS, (None,), lo=0, hi=n)
    state.require(bool(np.all(cols[1:] > cols[:-1])), "columns_", "expected distinct columns in increasing order")
    k = cols.shape[0]
    obj = ColumnStandardScaler(
        columns=cols.tolist(), with_mean=state.bool("with_mean"), with_std=state.bool("with_std")
    )
    obj.columns_ = cols.astype(np.int64)
    obj.mean_ = state.array("mean_", ("float64",), (k,))
    obj.var_ = state.array("var_", ("float64",), (k,), lo=0)
    obj.n_samples_seen_ = state.array("n_samples_seen_", ("int64",), (k,), lo=0, hi=rows + 1)
    obj.n_rows_seen_ = rows
    obj.scale_ = divisors(obj.var_) if obj.with_std else None
    obj.n_features_in_ = n
    return obj
