"""CoNLL-U's columns (https://universaldependencies.org/format.html): their names, and which of
them a tagger can learn.  Read by the line reader (:mod:`perceptrons.io.conllu`) and the
compiled scan (:mod:`perceptrons.io.conllu_bytes`) alike, so neither imports the other for them.
"""

from perceptrons._core.errors import PerceptronsError

#: the ten columns, for messages
NAMES = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
#: the tag columns a tagger can learn, by name: their index among a token line's ten.  FEATS,
#: the morphological features ("Number=Sing|Person=3"), is learnt as one tag a token
COLUMNS = {"upos": 3, "xpos": 4, "feats": 5}
#: columns where "_" is a value (no features), not a missing tag: only a column of nothing but
#: "_" is refused
UNDERSCORE_IS_A_VALUE = frozenset({"feats"})


def tag_column(column):
    """The index of the tag column named ``column``, or the one-line refusal."""
    if not (isinstance(column, str) and column in COLUMNS):
        raise PerceptronsError(f"unknown tag column {column!r}; expected one of {sorted(COLUMNS)}")
    return COLUMNS[column]
