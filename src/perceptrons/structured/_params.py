"""``get_params`` / ``set_params`` for the tagger's classes, without importing scikit-learn.

Importing ``sklearn.base`` costs 1.0–1.5 s here (it pulls in scipy.stats and pandas), more than
tagging a 25,000-token file takes.  :class:`~perceptrons.Tagger` and the sequence model it trains
need from scikit-learn only what this mixin gives: parameters read from ``__init__``'s keyword
arguments, which is what ``sklearn.base.clone``, ``GridSearchCV`` and the model files use.  The
public :class:`~perceptrons.SequencePerceptron` still derives from ``BaseEstimator``.
"""

from __future__ import annotations

import inspect
from typing import Any


class ParamsMixin:
    """scikit-learn's parameter protocol: ``__init__`` keywords stored as attributes."""

    @classmethod
    def _get_param_names(cls):
        """The keyword parameters of ``__init__``, sorted (as scikit-learn lists them)."""
        init = cls.__init__
        if init is object.__init__:
            return []
        params = inspect.signature(init).parameters.values()
        return sorted(p.name for p in params if p.name != "self" and p.kind != p.VAR_KEYWORD)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Parameters of this estimator.

        Parameters
        ----------
        deep : bool, default=True
            Also the parameters of parameters that are estimators (none here).

        Returns
        -------
        dict
            Parameter name → value.
        """
        out = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{name}__{k}", v) for k, v in value.get_params().items())
            out[name] = value
        return out

    def set_params(self, **params: Any) -> ParamsMixin:
        """Set parameters (unknown names raise ``ValueError``, as in scikit-learn).

        Parameters
        ----------
        **params : dict
            Parameter name → new value.

        Returns
        -------
        self
        """
        valid = self._get_param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for estimator {self}. Valid parameters are: {valid!r}.")
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        # only the parameters that differ from their defaults, as scikit-learn prints them
        defaults = {
            p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values() if p.name != "self"
        }
        changed = [
            f"{k}={v!r}"
            for k, v in self.get_params(deep=False).items()
            if not (k in defaults and type(defaults[k]) is type(v) and defaults[k] == v)
        ]
        return f"{type(self).__name__}({', '.join(changed)})"
