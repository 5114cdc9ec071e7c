"""``save_model`` / ``load_model``: estimators to and from safe model files.

Each estimator turns its fitted state into plain arrays plus JSON-able metadata
(``_to_state()`` → ``(meta, arrays)``) and back (``_from_state(meta, arrays)`` on an instance
built from the stored parameters).  :mod:`perceptrons.io.model_file` reads and writes only that;
the registry (:mod:`perceptrons._core.registry`) maps the stored name to a class, so ``io/``
imports no estimator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from perceptrons import __version__
from perceptrons._core.errors import PerceptronsError, shown
from perceptrons._core.params import Kind, check_bool, check_param, check_path, validate_params
from perceptrons._core.registry import ESTIMATORS, estimator_class
from perceptrons.io.calibration_state import CALIBRATED
from perceptrons.io.conllu_format import COLUMNS
from perceptrons.io.model_file import read_model, write_model
from perceptrons.io.model_state import ModelState

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence
    from typing import Any

    from sklearn.base import BaseEstimator


def _json_params(est):
    params = {}
    for k, v in est.get_params(deep=False).items():
        kind = getattr(getattr(v, "dtype", None), "kind", None)  # a numpy number: np.int64(30) from np.arange
        if kind is not None and kind in "biuf" and getattr(v, "shape", None) == ():
            v = v.item()
        if v is None or isinstance(v, (bool, int, float, str)):
            params[k] = v
        elif isinstance(v, dict):
            params[k] = {"__dict__": [[kk.item() if hasattr(kk, "item") else kk, vv] for kk, vv in v.items()]}
        elif callable(v):
            raise PerceptronsError(
                f"parameter {k!r} of {type(est).__name__} is a Python callable; "
                "model files store data only — use a named option instead"
            )
        else:
            raise PerceptronsError(f"parameter {k!r}={v!r} cannot be stored in a model file")
    return params


def _restore_params(path, klass, params):
    """Stored parameters, checked: known names only, JSON scalars or a stored dict, and then the
    estimator's own constraints (a model file must not smuggle in a value ``fit`` would refuse).
    """
    names = set(klass._get_param_names())
    out = {}
    for k, v in params.items():
        if k not in names:
            raise PerceptronsError(f"{path}: model field params.{k}: not a parameter of {klass.__name__}")
        if isinstance(v, dict):
            pairs = v.get("__dict__") if list(v) == ["__dict__"] else None
            if not isinstance(pairs, list) or not all(
                isinstance(p, list)
                and len(p) == 2
                and isinstance(p[0], (str, int, float, bool))
                and type(p[1]) in (int, float)
                and 0 <= p[1] < 1e300
                for p in pairs
            ):
                raise PerceptronsError(
                    f"{path}: model field params.{k}: expected a stored dict of label: weight pairs, weights ≥ 0"
                )
            v = {kk: float(vv) for kk, vv in pairs}
        elif isinstance(v, list):
            raise PerceptronsError(
                f"{path}: model field params.{k}: expected a number, string, bool or null, got a list"
            )
        out[k] = v
    est = klass(**out)
    try:
        validate_params(est, klass._parameter_constraints)
        if hasattr(est, "_validate"):
            est._validate()
    except PerceptronsError as exc:
        raise PerceptronsError(f"{path}: model field params: {exc}") from None
    return est


def save_model(estimator: BaseEstimator, path: str | os.PathLike[str], info: dict[str, Any] | None = None) -> None:
    """Write a fitted estimator to ``path`` (atomically; an existing file survives any error).

    ``info`` is an optional JSON-able dict stored beside the model (the CLI keeps the label
    column's name there); ``load_model(path, with_info=True)`` returns it.

    Parameters
    ----------
    estimator : estimator of ``perceptrons.__all__``
        Fitted.
    path : str or path-like
        The model file to write (a zip of ``.npy`` arrays and one JSON record, never a pickle).
    info : dict, optional
        JSON-able; its ``label_column``, if any, must be a str or None.
    """
    path = check_path(path, "path", "save_model")
    check_param(info, "info", (None, Kind(dict, "a dict")), "save_model")
    if info is not None and not _info_ok(info):  # as load_model would refuse it
        raise PerceptronsError(
            f"The 'info' parameter of save_model must be {INFO_EXPECTED}. Got {shown(info)} instead."
        )
    if type(estimator).__name__ == "Pipeline":
        from perceptrons.io.pipeline_state import pipeline_state

        record, arrays = {"estimator": "Pipeline", "params": {}}, {}
        record["state"], arrays = pipeline_state(estimator, _record)
        if not _ends_in_ours(estimator):
            raise PerceptronsError("a Pipeline is saved when its last step is a perceptrons estimator")
    elif type(estimator).__name__ == CALIBRATED:
        from perceptrons.io.calibration_state import calibrated_state

        record = {"estimator": CALIBRATED, "params": {}}
        record["state"], arrays = calibrated_state(estimator, _record)
    else:
        record, arrays = _record(estimator)
    meta = {"library_version": __version__, **record, "info": info or {}}
    write_model(path, meta, arrays)


#: what a model's ``info`` must be, when saved and when loaded
INFO_EXPECTED = f"an object whose label_column is a string or null, and tag_column one of {sorted(COLUMNS)} or absent"


def _info_ok(info):
    tag = info.get("tag_column") if isinstance(info, dict) else None
    return (
        isinstance(info, dict)
        and isinstance(info.get("label_column"), (str, type(None)))
        and (tag is None or (isinstance(tag, str) and tag in COLUMNS))
    )


def _ends_in_ours(pipeline):
    """Whether a Pipeline's last step is an estimator of ours, or one calibrated (as deep as nested)."""
    last = pipeline.steps[-1][1]
    if type(last).__name__ == "Pipeline":
        return _ends_in_ours(last)
    return _ours(last)


def _ours(est):
    """Whether ``est`` is an estimator of ours, or scikit-learn's calibration of one."""
    if type(est).__name__ == CALIBRATED and hasattr(est, "calibrated_classifiers_"):
        inner = est.calibrated_classifiers_[0].estimator
        return type(getattr(inner, "estimator", inner)).__name__ in ESTIMATORS
    return type(est).__name__ in ESTIMATORS


def _record(estimator):
    """``(meta, arrays)`` of one of our estimators: its name, parameters and fitted state."""
    name = type(estimator).__name__
    if name not in ESTIMATORS:
        raise PerceptronsError(f"{name} cannot be saved: it is not a perceptrons estimator")
    state_meta, arrays = estimator._to_state()
    return {"estimator": name, "params": _json_params(estimator), "state": state_meta}, arrays


def _check_name(path, name, expect):
    if name not in ESTIMATORS:
        raise PerceptronsError(f"{path}: unknown estimator {name!r} in model file; known: {sorted(ESTIMATORS)}")
    if expect is not None and name not in expect:
        raise PerceptronsError(f"{path}: holds a {name}, but a {' or '.join(expect)} is needed here")


def _restore(state, expect=None):
    """The estimator of a record written by :func:`_record`, every field checked through ``state``."""
    path = state.source
    name = state.str("estimator", max_len=64)
    _check_name(path, name, expect)
    params = state.raw("params")
    state.require(isinstance(params, dict), "params", "expected a JSON object")
    est = _restore_params(path, estimator_class(name), params)
    est._from_state(state.sub("state", ""))
    return est


def load_model(path: str | os.PathLike[str], expect: str | Sequence[str] | None = None, with_info: bool = False) -> Any:
    """Read a model file; ``expect`` (a class name or tuple of names) refuses other kinds.

    Every field is checked before it is used (see :mod:`perceptrons.io.model_state`): the file
    is untrusted input, and its checksum can be recomputed by whoever edited it.

    Parameters
    ----------
    path : str or path-like
        A file written by :func:`save_model`.
    expect : str or tuple of str, optional
        Class names to accept; a model of another kind is refused with an error naming both.
    with_info : bool, default=False
        Also return the ``info`` dict saved with the model.

    Returns
    -------
    estimator or (estimator, dict)
        The fitted estimator, or ``(estimator, info)`` with ``with_info=True``.
    """
    path = check_path(path, "path", "load_model")
    names = (expect,) if isinstance(expect, str) else expect
    if not (expect is None or (isinstance(names, (tuple, list)) and all(isinstance(e, str) for e in names))):
        raise PerceptronsError(
            f"The 'expect' parameter of load_model must be None, a class name or a tuple of them. Got {expect!r} instead."
        )
    with_info = check_bool(with_info, "with_info")
    meta, arrays = read_model(path)
    top = ModelState(path, meta, arrays)
    top.str("format")
    top.int("format_version", lo=1)
    name = top.str("estimator", max_len=64)
    if name not in ("Pipeline", CALIBRATED):
        _check_name(path, name, names)
    top.str("library_version", max_len=64)
    info = top.raw("info")
    top.require(_info_ok(info), "info", f"expected {INFO_EXPECTED}")
    if name == "Pipeline":
        from perceptrons.io.pipeline_state import restore_pipeline

        top.require(top.raw("params") == {}, "params", "expected an empty object for a Pipeline")
        est = restore_pipeline(top.sub("state", ""), lambda record: _restore(record, names))
        top.require(
            type(est).__name__ == "Pipeline" and _ends_in_ours(est),
            "state",
            "expected a Pipeline that ends in an estimator of ours",
        )
    elif name == CALIBRATED:
        from perceptrons.io.calibration_state import restore_calibrated

        top.require(top.raw("params") == {}, "params", "expected an empty object for a CalibratedClassifierCV")
        est = restore_calibrated(top.sub("state", ""), lambda record: _restore(record, names))
    else:
        est = _restore(top, names)
    top.finish()
    return (est, info) if with_info else est
