"""The kernel model's checks of its input: the rows and labels it trains on, and the rows it
scores, as dense float32/float64 arrays whose features the named kernels can take."""

import numpy as np
from sklearn.utils.multiclass import check_classification_targets

from perceptrons._core.data import validate_data
from perceptrons._core.errors import PerceptronsError
from perceptrons.kernel._support import dense
from perceptrons.kernel.kernels import check_feature_range

_AS_LOOPS_TAKE = dict(accept_sparse="csr", dtype=[np.float64, np.float32], order="C")


def training_rows(estimator, X, y, reset):
    """``(X, y)`` checked (``reset`` sets ``n_features_in_`` from ``X``) and ``X`` made dense.

    Raises
    ------
    PerceptronsError
        ``y`` None, features out of a named kernel's range, or labels that are not classes.
    """
    if y is None:
        raise PerceptronsError(f"{type(estimator).__name__} requires y to be passed, but the target y is None")
    X, y = validate_data(estimator, X, y, reset=reset, **_AS_LOOPS_TAKE)
    X = dense(X)
    if isinstance(estimator.kernel, str) and estimator.kernel != "precomputed":
        check_feature_range(X)
    check_classification_targets(y)
    return X, y


def scoring_rows(estimator, X):
    """``X`` checked against the fitted model's width and made dense; for a precomputed kernel
    a wrong width is named as the kernel matrix's."""
    try:
        return dense(validate_data(estimator, X, reset=False, **_AS_LOOPS_TAKE))
    except ValueError as exc:
        if estimator.kernel == "precomputed" and "is expecting" in str(exc):
            raise PerceptronsError(
                f"{exc} kernel='precomputed' needs the (n_test, n_train) kernel matrix at "
                f"predict: one column per training example ({estimator.n_features_in_})"
            ) from None
        raise
