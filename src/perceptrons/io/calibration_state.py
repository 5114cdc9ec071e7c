"""scikit-learn's ``CalibratedClassifierCV`` around an estimator of ours, in a model file.

A perceptron's decision values are not probabilities; Platt's sigmoid (Platt 1999) or an
isotonic map (Zadrozny & Elkan 2002), fitted on decision values the model did not train on,
turns them into probabilities.  scikit-learn's ``CalibratedClassifierCV`` does that fit; this
module stores the result as arrays and JSON, never a pickle, as
:mod:`perceptrons.io.pipeline_state` stores transformers.

What is stored: the method, the parameters, our estimator (through the caller's function) and
each calibrator's fitted numbers: a sigmoid's ``a_`` and ``b_``, an isotonic map's thresholds
``X_thresholds_`` and ``y_thresholds_``.  One calibrated model is stored, as
``ensemble=False`` or a ``FrozenEstimator`` fits it; an ensemble (one model per fold) is refused.

Reading sets no private attribute of scikit-learn.  The calibrated model is rebuilt by
``CalibratedClassifierCV(FrozenEstimator(ours)).fit`` on a few synthetic rows; each isotonic
map is then fitted again on its own stored thresholds, which gives back exactly those thresholds
(the fit of a non-decreasing sequence is itself) and is checked; a sigmoid gets ``a_`` and
``b_``.  Finally the parameters are set back to the stored ones (``set_params``), so that
``fit`` on the loaded object trains our estimator again as the original did (or, for a
``FrozenEstimator``, calibrates it again without training it).
"""

import warnings

import numpy as np

from perceptrons._core.errors import PerceptronsError

#: the class a model file holds, by name (the Pipeline reader and the loader dispatch on it)
CALIBRATED = "CalibratedClassifierCV"
#: the calibration methods a model file stores
METHODS = ("sigmoid", "isotonic")
#: thresholds an isotonic map may hold (one per distinct decision value, at most)
MAX_THRESHOLDS = 1 << 26


def _refuse(why):
    raise PerceptronsError(f"CalibratedClassifierCV cannot be saved in a model file: {why}")


def calibrated_state(obj, inner_state):
    """``(meta, arrays)`` of a fitted ``CalibratedClassifierCV``; ``inner_state(estimator)`` stores
    the calibrated estimator (ours).

    Raises
    ------
    PerceptronsError
        Unfitted; a method other than :data:`METHODS`; an ensemble of several calibrated models;
        a cross-validation splitter object (only a number of folds or None is stored).
    """
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(obj)
    if obj.method not in METHODS:
        _refuse(f"method={obj.method!r}; expected one of {list(METHODS)}")
    if len(obj.calibrated_classifiers_) != 1:
        _refuse(
            f"it holds {len(obj.calibrated_classifiers_)} calibrated models, one per fold (ensemble=True); "
            "fit it with ensemble=False, which keeps one"
        )
    if not (obj.cv is None or (isinstance(obj.cv, int) and not isinstance(obj.cv, bool))):
        _refuse(f"cv={obj.cv!r}; expected a number of folds or None")
    if hasattr(obj, "feature_names_in_"):
        _refuse("it was fitted on a table with column names; fit it on an array")
    calibrated = obj.calibrated_classifiers_[0]
    inner = calibrated.estimator
    frozen = type(obj.estimator).__name__ == "FrozenEstimator"  # calibrated, not trained, by fit
    if type(inner).__name__ == "FrozenEstimator":
        inner = inner.estimator
    meta_inner, arrays_inner = inner_state(inner)
    arrays = {f"estimator.{k}": v for k, v in arrays_inner.items()}
    meta = {
        "class": CALIBRATED,
        "method": obj.method,
        "params": {"cv": obj.cv, "ensemble": obj.ensemble, "frozen": frozen},
        "estimator": meta_inner,
        "n_calibrators": len(calibrated.calibrators),
    }
    for j, cal in enumerate(calibrated.calibrators):
        if obj.method == "sigmoid":
            arrays[f"calibrator{j}.ab"] = np.array([cal.a_, cal.b_], dtype=np.float64)
        else:
            if cal.out_of_bounds != "clip" or cal.increasing not in (True, "auto"):
                _refuse("its isotonic calibrators are not those scikit-learn fits (out_of_bounds='clip')")
            arrays[f"calibrator{j}.X"] = np.asarray(cal.X_thresholds_, dtype=np.float64)
            arrays[f"calibrator{j}.y"] = np.asarray(cal.y_thresholds_, dtype=np.float64)
    return meta, arrays


def restore_calibrated(state, restore_inner):
    """The ``CalibratedClassifierCV`` stored by :func:`calibrated_state`, every field checked;
    ``restore_inner(state)`` reads the estimator.
    """
    from sklearn.base import clone
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.frozen import FrozenEstimator

    state.str("class", choices=(CALIBRATED,))
    method = state.str("method", choices=METHODS)
    params = state.object("params")
    cv = params.raw("cv")
    params.require(
        cv is None or (type(cv) is int and 2 <= cv <= 1000), "cv", "expected a number of folds (2 to 1000) or null"
    )
    ensemble = params.raw("ensemble")
    params.require(ensemble in (True, False, "auto"), "ensemble", "expected true, false or 'auto'")
    frozen = params.bool("frozen")
    inner = restore_inner(state.sub("estimator", "estimator."))
    state.require(
        hasattr(inner, "decision_function") and hasattr(inner, "classes_"), "estimator", "expected a classifier"
    )
    classes = np.asarray(inner.classes_)
    k = 1 if classes.shape[0] == 2 else classes.shape[0]
    n = state.int("n_calibrators", lo=1, hi=1 << 20)
    state.require(n == k, "n_calibrators", f"expected {k} for {classes.shape[0]} classes")
    stored = [_calibrator_numbers(state, method, j) for j in range(n)]
    # five rows of each class, at the origin: the fit's stratified folds all find every class;
    # what the calibrators learn from them is replaced below
    width = int(inner.n_features_in_)
    X = np.zeros((5 * classes.shape[0], width))
    y = np.repeat(classes, 5)
    obj = CalibratedClassifierCV(FrozenEstimator(inner), method=method)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obj.fit(X, y)
    except (ValueError, TypeError) as exc:
        state.fail("estimator", f"the calibrated model cannot be rebuilt ({exc})")
    calibrators = obj.calibrated_classifiers_[0].calibrators
    state.require(len(calibrators) == n, "n_calibrators", "does not agree with the rebuilt model")
    for j, (cal, numbers) in enumerate(zip(calibrators, stored)):
        if method == "sigmoid":
            cal.a_, cal.b_ = float(numbers[0]), float(numbers[1])
        else:
            Xt, yt = numbers
            cal.fit(Xt, yt)
            state.require(
                np.array_equal(cal.X_thresholds_, Xt) and np.array_equal(cal.y_thresholds_, yt),
                f"calibrator{j}.X",
                "the isotonic map cannot be rebuilt from its thresholds",
            )
    obj.set_params(estimator=FrozenEstimator(inner) if frozen else clone(inner), cv=cv, ensemble=ensemble)
    return obj


def _calibrator_numbers(state, method, j):
    """A calibrator's stored numbers: a sigmoid's (a, b), or an isotonic map's thresholds
    (strictly increasing decision values, non-decreasing probabilities in [0, 1]).
    """
    if method == "sigmoid":
        return state.array(f"calibrator{j}.ab", ("float64",), (2,))
    Xt = state.array(f"calibrator{j}.X", ("float64",), (None,))
    state.require(
        0 < Xt.shape[0] <= MAX_THRESHOLDS and bool(np.all(np.diff(Xt) > 0)),
        f"calibrator{j}.X",
        f"expected 1 to {MAX_THRESHOLDS} strictly increasing thresholds",
    )
    yt = state.array(f"calibrator{j}.y", ("float64",), (Xt.shape[0],))
    state.require(
        bool(np.all(np.diff(yt) >= 0) and yt[0] >= 0 and yt[-1] <= 1),
        f"calibrator{j}.y",
        "expected non-decreasing probabilities in [0, 1]",
    )
    return Xt, yt
