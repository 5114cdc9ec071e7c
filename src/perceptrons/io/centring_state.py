"""A :class:`~perceptrons.column_centring.ColumnCentring` in a model file, as validated arrays.

Stored as :mod:`perceptrons.io.pipeline_state` stores scikit-learn's transformers: the width
(JSON) and the fitted arrays ``columns_``, ``mean_`` and ``n_samples_seen_``, never a pickle.
The class is ours, so reading sets its fitted attributes directly, once each is checked.
"""

import numpy as np

from perceptrons.io.model_state import INTS

#: the class a model file holds, by name (the Pipeline reader dispatches on it)
CENTRING = "ColumnCentring"


def centring_state(obj, _=None):
    """``(meta, arrays)`` of a fitted ColumnCentring."""
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(obj)
    meta = {"class": CENTRING, "n_features": int(obj.n_features_in_)}
    arrays = {
        "columns_": np.asarray(obj.columns_, dtype=np.int64),
        "mean_": np.asarray(obj.mean_, dtype=np.float64),
        "n_samples_seen_": np.asarray(obj.n_samples_seen_, dtype=np.int64),
    }
    return meta, arrays


def restore_centring(state, _=None, max_width=1 << 28):
    """The ColumnCentring stored by :func:`centring_state`, every field checked through ``state``
    (a :class:`~perceptrons.io.model_state.ModelState`): distinct columns in increasing order
    within the width, one finite mean and one count of values each.
    """
    from perceptrons.column_centring import ColumnCentring

    n = state.int("n_features", lo=1, hi=max_width + 1)
    cols = state.array("columns_", INTS, (None,), lo=0, hi=n)
    state.require(bool(np.all(cols[1:] > cols[:-1])), "columns_", "expected distinct columns in increasing order")
    k = cols.shape[0]
    obj = ColumnCentring(columns=cols.tolist())
    obj.columns_ = cols.astype(np.int64)
    obj.mean_ = state.array("mean_", ("float64",), (k,))
    obj.n_samples_seen_ = state.array("n_samples_seen_", ("int64",), (k,), lo=0)
    obj.n_features_in_ = n
    return obj
