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

from perceptrons._core.errors import PerceptronsTypeError
from perceptrons.text.sentences import sentence_words
from perceptrons.text.tokenizer import tokenize

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from perceptrons.structured.tagging import Tagger


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


def pos_tag(tokens: str | Sequence[str], lang: str = "en") -> list[tuple[str, str]]:
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

    Returns
    -------
    list of (str, str)
        Every word of every sentence, in order, with its UPOS tag (UD's 17 tags: ``NOUN``,
        ``VERB``, ``PROPN``, …; NLTK's ``tagset="universal"`` has 12 others).

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
    """
    if isinstance(tokens, str):
        tagger, cut = _model(lang), sentence_words(tokens)
        if len(cut) == 1:  # a sentence a call, as NLTK's users call it: tag's path is the shorter
            return tagger.tag(cut[0])
        return [pair for sentence in tagger.tag_sents(cut) for pair in sentence]
    words = _words(tokens, "tokens")
    return _model(lang).tag(words)


def pos_tag_sents(sentences: str | Iterable[str | Sequence[str]], lang: str = "en") -> list[list[tuple[str, str]]]:
    """``[[(word, tag), …], …]``: :func:`pos_tag` of each sentence, tagged in one batch.

    Parameters
    ----------
    sentences : str, or iterable of str or of list of str
        Sentences as lists of words (NLTK's input), or each as a str of its text (cut into
        words only); a single str is raw text, cut into sentences and words.
    lang : str, default="en"
        As in :func:`pos_tag`.

    Returns
    -------
    list of list of (str, str)
        Each sentence's words with their UPOS tags.

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
    if isinstance(sentences, str):
        batch = sentence_words(sentences)
    elif sentences is None or isinstance(sentences, (bytes, bytearray)) or not hasattr(sentences, "__iter__"):
        raise PerceptronsTypeError(
            f"sentences: expected a str of text or a list of sentences, got {type(sentences).__name__}"
        )
    else:
        batch = [tokenize(s) if isinstance(s, str) else _words(s, f"sentences[{i}]") for i, s in enumerate(sentences)]
    return _model(lang).tag_sents(batch)
