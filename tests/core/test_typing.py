"""The public API is typed (PEP 484 hints on every signature) and says so (PEP 561 ``py.typed``).

Held to it: every callable ``perceptrons`` exports, every public method of every registered
estimator (and of ``CircleLift``), and the public functions and result methods of the theory,
lifting, plotting and persistence modules.  A new public function or method without hints fails
here.  The hints are checked for presence, not evaluated: the modules write them as strings
(``from __future__ import annotations``) naming types imported only for type checkers.
"""

import ast
import importlib
import inspect
from importlib.resources import files
from pathlib import Path

import pytest

import perceptrons
from perceptrons._core.registry import ESTIMATORS, estimator_class

#: modules whose public functions (and the public methods of their public classes) are checked
MODULES = [
    "perceptrons.persistence",
    "perceptrons.lifting",
    "perceptrons.plotting",
    "perceptrons.linear.trace",
    "perceptrons.theory",
    "perceptrons.theory.analysis",
    "perceptrons.theory.bounds",
    "perceptrons.theory.lp",
    "perceptrons.theory.margins",
    "perceptrons.theory.separability",
    "perceptrons.theory.vc",
    "perceptrons.structured.nltk_api",
]

_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _missing(func):
    """Names of the parameters of ``func`` without a hint, plus "return" when it has none."""
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    if params and params[0].name in ("self", "cls"):
        params = params[1:]
    missing = [p.name for p in params if p.kind not in _VARIADIC and p.annotation is inspect.Parameter.empty]
    if sig.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def _ours(obj):
    return (getattr(obj, "__module__", None) or "").startswith("perceptrons")


def _methods(cls):
    """(qualified name, function) of the public methods (and ``__init__``) that ``cls`` defines or
    inherits from a perceptrons class; scikit-learn's own methods are its business."""
    seen = set()
    for klass in cls.__mro__:
        if not _ours(klass):
            continue
        for name, attr in vars(klass).items():
            if name in seen or (name.startswith("_") and name != "__init__"):
                continue
            seen.add(name)
            if isinstance(attr, (staticmethod, classmethod)):
                attr = attr.__func__
            elif isinstance(attr, property):
                attr = attr.fget
            elif not inspect.isfunction(attr):
                attr = getattr(cls, name)  # a descriptor such as scikit-learn's available_if
                if not callable(attr):
                    continue
            if _ours(attr):
                yield f"{cls.__name__}.{name}", attr


def _public_callables():
    """Every callable to check, as (name, function), deduplicated."""
    out = {}
    classes = {estimator_class(name) for name in ESTIMATORS}
    for name in perceptrons.__all__:
        obj = getattr(perceptrons, name)
        if inspect.isclass(obj):
            classes.add(obj)
        elif callable(obj):
            out[f"perceptrons.{name}"] = obj
    for modname in MODULES:
        mod = importlib.import_module(modname)
        exported = getattr(mod, "__all__", None)
        for name in exported or [n for n in vars(mod) if not n.startswith("_")]:
            obj = getattr(mod, name)
            # without __all__, the module's own definitions, not the names it imports
            if not _ours(obj) or (exported is None and getattr(obj, "__module__", None) != modname):
                continue
            if inspect.isclass(obj):
                classes.add(obj)
            elif inspect.isfunction(obj):
                out[f"{obj.__module__}.{obj.__qualname__}"] = obj
    for cls in classes:
        for qualname, func in _methods(cls):
            out[f"{cls.__module__}.{qualname}"] = func
    return sorted(out.items())


CALLABLES = _public_callables()


def test_the_registry_and_the_exports_are_covered():
    names = {name for name, _ in CALLABLES}
    for est in ESTIMATORS:
        assert any(f".{est}.fit" in n for n in names), est
    assert "perceptrons.structured.tagging.Tagger.tag_sents" in names
    assert "perceptrons.kernel.perceptron.KernelPerceptron.partial_fit" in names  # behind available_if
    assert {"perceptrons.save_model", "perceptrons.load_model", "perceptrons.trace_updates"} <= names


@pytest.mark.parametrize(("name", "func"), CALLABLES, ids=[name for name, _ in CALLABLES])
def test_public_signature_is_annotated(name, func):
    assert not _missing(func), f"{name}: no type hint for {_missing(func)}"


def test_type_checkers_see_every_lazy_name():
    """``perceptrons/__init__.py`` imports each lazy name under ``if TYPE_CHECKING:``, from the
    module ``_PUBLIC`` names, as ``X as X`` (an explicit re-export); a name added to the registry
    must be added there too, or ``from perceptrons import X`` is untyped."""
    tree = ast.parse(Path(perceptrons.__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    seen = {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom) and node.module.startswith("perceptrons"):
            for alias in node.names:
                assert alias.asname == alias.name, f"import {alias.name} as {alias.name}: an explicit re-export"
                seen[alias.name] = node.module
    assert seen == perceptrons._PUBLIC


def test_py_typed_is_shipped():
    marker = files("perceptrons") / "py.typed"
    assert marker.is_file()
