"""The table of pretrained models: a name → a file inside this package, its data and licence.

A name is looked up, never joined to a path, so no name reaches a file outside the package
(NLTK's tagger loader took a path and was open to traversal: CVE-2026-81726, nltk #3897).
The files load through :func:`perceptrons.load_model`, which checks every field as it checks any
model file.  ``make pretrained`` builds them from ``../shared/data`` (``tools/build_pretrained.py``).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from perceptrons._core.errors import PerceptronsError


@dataclass(frozen=True)
class Pretrained:
    """One packaged model: its file, what it was trained on, and the licence of its weights.

    Attributes
    ----------
    file : str
        File name inside ``perceptrons/pretrained``.
    language : str
        The language of the text it tags.
    trained_on : str
        The data its weights come from.
    licence : str
        The licence of the weights: a model derived from data carries the data's licence.
    """

    file: str
    language: str
    trained_on: str
    licence: str


#: name → model.  ``pos_tag``'s NLTK-style language codes map onto these names (``ALIASES``).
MODELS = {
    "en": Pretrained(
        file="en_ewt_upos.npz",
        language="English",
        trained_on=(
            "UD English EWT (train set; dev set for the number of epochs) and the Brown clusters of "
            "spacy-lookups-data 1.0.5 (Reddit comments, 2015)"
        ),
        licence="CC BY-SA 4.0 (UD English EWT); the clusters: MIT (spacy-lookups-data, Explosion)",
    ),
}

#: other spellings of a name: NLTK's ``pos_tag`` says ``lang="eng"``
ALIASES = {"eng": "en", "english": "en"}


def lookup(name: object) -> str:
    """The table's name for ``name`` (an alias resolved), or a one-line error listing the names.

    Parameters
    ----------
    name : str

    Returns
    -------
    str
        A key of :data:`MODELS`.
    """
    if not isinstance(name, str):
        raise PerceptronsError(
            f"a pretrained model's name is a str; got {type(name).__name__} (names: {', '.join(MODELS)})"
        )
    key = ALIASES.get(name.lower(), name.lower())
    if key not in MODELS:
        raise PerceptronsError(
            f"{name!r}: no such pretrained model; the names are {', '.join(sorted(MODELS))} "
            f"(or {', '.join(sorted(ALIASES))})"
        )
    return key


def model_file(name: str) -> AbstractContextManager[Path]:
    """A context manager giving the path of model ``name``'s file (extracted if the package is zipped).

    Parameters
    ----------
    name : str
        A name of :data:`MODELS` or :data:`ALIASES`.

    Returns
    -------
    context manager of pathlib.Path
    """
    entry = MODELS[lookup(name)]
    return resources.as_file(resources.files(__package__).joinpath(entry.file))
