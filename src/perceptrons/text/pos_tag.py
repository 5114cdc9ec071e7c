"""``pos_tag`` and ``pos_tag_sents``: NLTK's two calls, answered by the packaged tagger, from
words or from raw text.

NLTK's ``nltk.pos_tag(tokens, lang="eng")`` tags a list of words with its packaged English
model.  These take the same list, or a str of raw text, which they cut into sentences and words
(:func:`perceptrons.sentences`, :func:`perceptrons.tokenize`) as the model's treebank cuts them.
The model, :meth:`Tagger.pretrained <perceptrons.Tagger.pretrained>`, is loaded once a process
and shared: a fitted tagger may be used by several threads.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from perceptrons._core.errors import PerceptronsError, PerceptronsTypeError
from perceptrons.text.sentences import sentence_words
from perceptrons.text.tokenizer import tokenize

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from perceptrons.structured.tagging import Tagger


#: UD's 17 UPOS tags in NLTK's ``tagset="universal"``, the 12 tags of Petrov, Das & McDonald
#: (2012), "A universal part-of-speech tagset", LREC.  UD grew from those 12 and split some
#: (de Marneffe et al. 2021, "Universal Dependencies", Computational Linguistics 47(2), §3.1):
#: PROPN from NOUN, AUX from VERB, SCONJ from ADP (Penn's IN, subordinators included, is
#: ADP there), INTJ from X (Penn's UH is X there), CCONJ is CONJ, PART is PRT, PUNCT is ".".
#: SYM is "." too: Penn's ``$`` and ``#``, the symbols running text holds most, are "." there.
UNIVERSAL = {
    "ADJ": "ADJ",
    "ADP": "ADP",
    "ADV": "ADV",
    "AUX": "VERB",
    "CCONJ": "CONJ",
    "DET": "DET",
    "INTJ": "X",
    "NOUN": "NOUN",
    "NUM": "NUM",
    "PART": "PRT",
    "PRON": "PRON",
    "PROPN": "NOUN",
    "PUNCT": ".",
    "SCONJ": "ADP",
    "SYM": ".",
    "VERB": "VERB",
    "X": "X",
}
#: the ``tagset`` values: None keeps the model's own tags
TAGSETS = (None, "universal")


def _in_tagset(tagged: list[tuple[str, str]], tagset: str | None) -> list[tuple[str, str]]:
    """``tagged`` with each tag as ``tagset`` names it (see :data:`UNIVERSAL`)."""
    if tagset is None:
        return tagged
    return [(word, UNIVERSAL.get(tag, "X")) for word, tag in tagged]


def _check_tagset(tagset: object) -> None:
    if tagset not in TAGSETS:
        raise PerceptronsError(
            f"tagset={str(tagset)[:40]!r}: expected None (the model's UPOS tags) or 'universal' (NLTK's 12 tags)"
        )


@cache
def _loaded(name: str) -> Tagger:
    """The packaged tagger ``name``, read from its file the first time only."""
    from perceptrons.structured.tagging import Tagger

    return Tagger.pretrained(name)


def _model(lang: str) -> Tagger:
    from perceptrons.pretrained.catalogue import lookup

    return _loaded(lookup(lang))  # an alias and its name share one loaded model


def _words(tokens: object, what: str) -> list[str]:
    """A sentence given as words, checked: a list or tuple of str."""
    if not isinstance(tokens, (list, tuple)):
        raise PerceptronsTypeError(
            f"{what}: expected a str of text or a list of words (str), got {type(tokens).__name__}"
        )
    for i, word in enumerate(tokens):
        if not isinstance(word, str):
            raise PerceptronsTypeError(f"{what}[{i}]: expected a word (str), got {type(word).__name__}")
    return list(tokens)


def pos_tag(tokens: str | Sequence[str], lang: str = "en", *, tagset: str | None = None) -> list[tuple[str, str]]:
    """``[(word, tag), …]``: the Universal POS tag of each word, as ``nltk.pos_tag``.

    Parameters
    ----------
    tokens : str or list of str
        The words of a sentence (NLTK's input), or raw text: a str is cut into sentences and
        words first, so ``pos_tag("Hello")`` tags the word "Hello" where NLTK raises
        ``TypeError``.
    lang : str, default="en"
        A pretrained model's name (:data:`perceptrons.pretrained.catalogue.MODELS`); NLTK's
        ``"eng"`` is the same model.  Another name is refused with one line listing the names.
    tagset : {None, "universal"}, default=None
        None: the model's tags, UD's 17 UPOS tags (``NOUN``, ``VERB``, ``PROPN``, …).
        ``"universal"``: NLTK's ``tagset="universal"``, the 12 tags of Petrov, Das & McDonald
        (2012), mapped from UPOS by :data:`UNIVERSAL` (``PROPN`` → ``NOUN``, ``PART`` →
        ``PRT``, ``PUNCT`` → ``"."``, …).  NLTK's default, Penn Treebank tags, is not among
        them: the model is trained on UPOS.

    Returns
    -------
    list of (str, str)
        Every word of every sentence, in order, with its tag.

    Raises
    ------
    TypeError
        ``tokens`` neither a str nor a list or tuple of str (bytes and None included); also a
        :class:`~perceptrons._core.errors.PerceptronsError`.

    See Also
    --------
    pos_tag_sents : many sentences in one batch.

    Examples
    --------
    >>> from perceptrons import pos_tag
    >>> pos_tag("I don't e-mail.")
    [('I', 'PRON'), ('do', 'AUX'), ("n't", 'PART'), ('e-mail', 'VERB'), ('.', 'PUNCT')]
    >>> pos_tag(["They", "refuse", "to", "permit", "us"])[1]
    ('refuse', 'VERB')
    >>> pos_tag("I don't e-mail.", tagset="universal")[2]
    ("n't", 'PRT')
    """
    _check_tagset(tagset)
    if isinstance(tokens, str):
        tagger, cut = _model(lang), sentence_words(tokens)
        if len(cut) == 1:  # a sentence a call, as NLTK's users call it: tag's path is the shorter
            return _in_tagset(tagger.tag(cut[0]), tagset)
        return _in_tagset([pair for sentence in tagger.tag_sents(cut) for pair in sentence], tagset)
    words = _words(tokens, "tokens")
    return _in_tagset(_model(lang).tag(words), tagset)


def pos_tag_sents(
    sentences: str | Iterable[str | Sequence[str]], lang: str = "en", *, tagset: str | None = None
) -> list[list[tuple[str, str]]]:
    """``[[(word, tag), …], …]``: :func:`pos_tag` of each sentence, tagged in one batch.

    Parameters
    ----------
    sentences : str, or iterable of str or of list of str
        Sentences as lists of words (NLTK's input), or each as a str of its text (cut into
        words only); a single str is raw text, cut into sentences and words.
    lang : str, default="en"
        As in :func:`pos_tag`.
    tagset : {None, "universal"}, default=None
        As in :func:`pos_tag`.

    Returns
    -------
    list of list of (str, str)
        Each sentence's words with their tags.

    Raises
    ------
    TypeError
        A sentence neither a str nor a list or tuple of str; ``sentences`` not iterable.

    Examples
    --------
    >>> from perceptrons import pos_tag_sents
    >>> [len(s) for s in pos_tag_sents("It rains. We stay home.")]
    [3, 4]
    """
    _check_tagset(tagset)
    if isinstance(sentences, str):
        batch = sentence_words(sentences)
    elif (
        sentences is None
        or isinstance(sentences, (bytes, bytearray, set, frozenset, dict))  # no order, or keys only
        or not hasattr(sentences, "__iter__")
    ):
        raise PerceptronsTypeError(
            f"sentences: expected a str of text or a list of sentences, got {type(sentences).__name__}"
        )
    else:
        batch = [tokenize(s) if isinstance(s, str) else _words(s, f"sentences[{i}]") for i, s in enumerate(sentences)]
    return [_in_tagset(sentence, tagset) for sentence in _model(lang).tag_sents(batch)]
