"""``save_model`` / ``load_model``: estimators to and from safe model files.

Each estimator turns its fitted state into plain arrays plus JSON-able metadata
(``_to_state()`` → ``(meta, arrays)``) and back (``_from_state(meta, arrays)`` on an instance
built from the stored parameters).  :mod:`perceptrons.io.model_file` reads and writes only that;
the registry below maps the stored name to a class, so ``io/`` imports no estimator.
"""

from importlib import import_module

from perceptrons import __version__
from perceptrons._validation import PerceptronsError
from perceptrons.io.model_file import read_model, write_model

#: stored estimator name -> "module:Class"
REGISTRY = {
    "Perceptron": "perceptrons.linear.perceptron:Perceptron",
    "PocketPerceptron": "perceptrons.linear.pocket:PocketPerceptron",
    "AveragedPerceptron": "perceptrons.linear.averaged:AveragedPerceptron",
    "VotedPerceptron": "perceptrons.linear.voted:VotedPerceptron",
    "KernelPerceptron": "perceptrons.kernel.perceptron:KernelPerceptron",
    "SequencePerceptron": "perceptrons.structured.sequence:SequencePerceptron",
    "Tagger": "perceptrons.structured.tagging:Tagger",
}


def _json_params(est):
    params = {}
    for k, v in est.get_params(deep=False).items():
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


def _restore_params(params):
    out = {}
    for k, v in params.items():
        if isinstance(v, dict) and "__dict__" in v:
            v = {kk: vv for kk, vv in v["__dict__"]}
        out[k] = v
    return out


def save_model(estimator, path, info=None):
    """Write a fitted estimator to ``path`` (atomically; an existing file survives any error).

    ``info`` is an optional JSON-able dict stored beside the model (the CLI keeps the label
    column's name there); ``load_model(path, with_info=True)`` returns it.
    """
    name = type(estimator).__name__
    if name not in REGISTRY:
        raise PerceptronsError(f"{name} cannot be saved: it is not a perceptrons estimator")
    state_meta, arrays = estimator._to_state()
    meta = {
        "library_version": __version__,
        "estimator": name,
        "params": _json_params(estimator),
        "state": state_meta,
        "info": info or {},
    }
    write_model(path, meta, arrays)


def load_model(path, expect=None, with_info=False):
    """Read a model file; ``expect`` (a class name or tuple of names) refuses other kinds.

    Returns the estimator, or ``(estimator, info)`` with ``with_info=True``.
    """
    meta, arrays = read_model(path)
    name = meta.get("estimator")
    if name not in REGISTRY:
        raise PerceptronsError(f"{path}: unknown estimator {name!r} in model file; known: {sorted(REGISTRY)}")
    if expect is not None and name not in ((expect,) if isinstance(expect, str) else tuple(expect)):
        raise PerceptronsError(f"{path}: holds a {name}, but a {expect if isinstance(expect, str) else ' or '.join(expect)} is needed here")
    module, cls = REGISTRY[name].split(":")
    klass = getattr(import_module(module), cls)
    try:
        est = klass(**_restore_params(meta.get("params", {})))._from_state(meta.get("state", {}), arrays)
    except (KeyError, TypeError, ValueError) as exc:
        raise PerceptronsError(f"{path}: model file is inconsistent ({type(exc).__name__}: {exc})") from None
    return (est, meta.get("info", {})) if with_info else est
