"""perceptrons: the perceptron family as real software.

Public names are imported lazily so that ``perceptrons --help`` does not pay for numba,
scipy or scikit-learn.
"""

from importlib import import_module

__version__ = "0.1.0"

from perceptrons._core.registry import ESTIMATORS

#: public name -> module: the estimators of the registry, and the functions beside them
_PUBLIC = {
    **{name: entry.module for name, entry in ESTIMATORS.items()},
    "CircleLift": "perceptrons.lifting",
    "save_model": "perceptrons.persistence",
    "load_model": "perceptrons.persistence",
    "trace_updates": "perceptrons.linear.trace",
    "tokenize": "perceptrons.text.tokenizer",
    "sentences": "perceptrons.text.sentences",
    "pos_tag": "perceptrons.text.pos_tag",
    "pos_tag_sents": "perceptrons.text.pos_tag",
    "PerceptronsError": "perceptrons._core.errors",
}

__all__ = sorted(_PUBLIC) + ["__version__"]

# The names as type checkers see them (they read any ``TYPE_CHECKING`` as true); at run time
# this block is skipped, and ``typing`` is not imported for it.  tests/core/test_typing.py checks
# that it lists exactly the names of ``_PUBLIC``.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from perceptrons._core.errors import PerceptronsError as PerceptronsError
    from perceptrons.kernel.perceptron import KernelPerceptron as KernelPerceptron
    from perceptrons.lifting import CircleLift as CircleLift
    from perceptrons.linear.averaged import AveragedPerceptron as AveragedPerceptron
    from perceptrons.linear.perceptron import Perceptron as Perceptron
    from perceptrons.linear.pocket import PocketPerceptron as PocketPerceptron
    from perceptrons.linear.trace import trace_updates as trace_updates
    from perceptrons.linear.voted import VotedPerceptron as VotedPerceptron
    from perceptrons.online.alma import ALMA as ALMA
    from perceptrons.online.arow import AROW as AROW
    from perceptrons.online.confidence_weighted import ConfidenceWeighted as ConfidenceWeighted
    from perceptrons.online.passive_aggressive import PassiveAggressive as PassiveAggressive
    from perceptrons.online.romma import ROMMA as ROMMA
    from perceptrons.online.scw import SCW as SCW
    from perceptrons.online.second_order_perceptron import SecondOrderPerceptron as SecondOrderPerceptron
    from perceptrons.online.sklearn_pa import PassiveAggressiveClassifier as PassiveAggressiveClassifier
    from perceptrons.online.winnow import Winnow as Winnow
    from perceptrons.persistence import load_model as load_model
    from perceptrons.persistence import save_model as save_model
    from perceptrons.structured.sequence import SequencePerceptron as SequencePerceptron
    from perceptrons.structured.tagging import Tagger as Tagger
    from perceptrons.text.pos_tag import pos_tag as pos_tag
    from perceptrons.text.pos_tag import pos_tag_sents as pos_tag_sents
    from perceptrons.text.sentences import sentences as sentences
    from perceptrons.text.tokenizer import tokenize as tokenize


# Hints as strings, not ``from __future__ import annotations``: that statement imports the
# ``__future__`` module, a cost ``import perceptrons`` would pay for two hints.
def __getattr__(name: "str") -> "Any":
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'perceptrons' has no attribute {name!r}")


def __dir__() -> "list[str]":
    return __all__
