"""NLTK's tagger interface on :class:`~perceptrons.Tagger`, so that switching from
``nltk.tag.perceptron.PerceptronTagger`` is a change of import (and of the constructor line).

The methods take NLTK's tagged sentences ``[[(word, tag), …], …]`` and return what NLTK's
return; the tagger's own ``fit(sentences, tags)`` / ``predict(sentences)`` do the work.

References
----------
Honnibal, M. (2013). "A Good Part-of-Speech Tagger in about 200 Lines of Python" (NLTK's
``PerceptronTagger``).
"""

from __future__ import annotations

from numbers import Integral
from typing import TYPE_CHECKING

from perceptrons._validation import Interval, PerceptronsError, PerceptronsTypeError

if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Sequence
    from typing import Any, TypeVar

    _Tagger = TypeVar("_Tagger", bound="NLTKTaggerAPI")


def split_tagged(tagged: Iterable[Any], what: str = "sentences") -> tuple[list[list[str]], list[list[str]]]:
    """``[[(word, tag), …], …]`` (NLTK's tagged sentences; any iterable) → (words, tags)."""
    if isinstance(tagged, str):
        raise PerceptronsTypeError(f"{what}: expected a list of sentences (lists of (word, tag) pairs), got a string")
    if not hasattr(tagged, "__iter__"):
        raise PerceptronsError(f"{what} must be a list of sentences, each a list of (word, tag) pairs")
    words, tags = [], []
    for i, sent in enumerate(tagged):
        if isinstance(sent, str) or not hasattr(sent, "__iter__"):
            raise PerceptronsTypeError(
                f"{what}[{i}]: expected a list of (word, tag) pairs, got {type(sent).__name__} {sent!r:.40}"
            )
        ws, ts = [], []
        for j, tok in enumerate(sent):
            if isinstance(tok, str) or not hasattr(tok, "__len__") or len(tok) != 2:
                raise PerceptronsError(
                    f"{what}[{i}][{j}] is {tok!r:.40}, not a (word, tag) pair: pass the tags as the "
                    "second argument, or sentences of (word, tag) pairs"
                )
            ws.append(tok[0])
            ts.append(tok[1])
        words.append(ws)
        tags.append(ts)
    return words, tags


class NLTKTaggerAPI:
    """``train``, ``tag``, ``tag_sents``, ``accuracy`` / ``evaluate`` as NLTK defines them."""

    def train(
        self: _Tagger,
        sentences: Iterable[Sequence[tuple[str, str]]],
        save_loc: str | os.PathLike[str] | None = None,
        nr_iter: int = 5,
    ) -> _Tagger:
        """NLTK's ``PerceptronTagger.train``: ``nr_iter`` epochs on tagged sentences.

        Sets ``max_epochs=nr_iter`` (so a saved model records it) and fits on
        ``[[(word, tag), …], …]``.

        Parameters
        ----------
        sentences : iterable of list of (str, str)
        save_loc : str or path-like, default=None
            When given, the model is written there with :func:`perceptrons.save_model` (one
            model file, read back with :func:`perceptrons.load_model`; NLTK writes JSON files
            into a directory instead).
        nr_iter : int, default=5
            Training epochs, NLTK's default.

        Returns
        -------
        self
        """
        if not Interval(Integral, 1, None).accepts(nr_iter):
            raise PerceptronsError(f"nr_iter must be an int in the range [1, inf). Got {nr_iter!r} instead.")
        self.set_params(max_epochs=nr_iter)
        self.fit(sentences)
        if save_loc is not None:
            from perceptrons.persistence import save_model

            save_model(self, save_loc)
        return self

    def tag(self, tokens: Iterable[str]) -> list[tuple[str, str]]:
        """``[(word, tag), …]`` for one sentence given as a list of words, as NLTK's ``tag``.

        Parameters
        ----------
        tokens : list of str
            The words of one sentence.

        Returns
        -------
        list of (str, str)
            Each word with its tag.

        Raises
        ------
        TypeError
            When ``tokens`` is a str (tagging its characters is never what was meant); the
            error is also a :class:`PerceptronsError`.
        """
        if isinstance(tokens, str):
            raise PerceptronsTypeError("tokens: expected a list of strings, got a string")
        words = list(tokens)
        return list(zip(words, self._predict_sentence(words)))

    def _predict_sentence(self, words: list[str]) -> list[str]:
        """The tags of one sentence (a tagger may do this faster than a batch of one)."""
        return self.predict([words])[0]

    def tag_sents(self, sentences: Iterable[Sequence[str]]) -> list[list[tuple[str, str]]]:
        """``[[(word, tag), …], …]``: :meth:`tag` of each sentence, decoded in one batch.

        Parameters
        ----------
        sentences : iterable of list of str
            Any iterable of word lists; a str, or a list of str, raises the ``TypeError`` of
            :meth:`tag`.

        Returns
        -------
        list of list of (str, str)
            Each sentence's words with their tags.
        """
        if isinstance(sentences, str):
            raise PerceptronsTypeError("sentences: expected a list of sentences (lists of words), got a string")
        sentences = list(sentences)
        tags = self.predict(sentences)
        return [list(zip(words, t)) for words, t in zip(sentences, tags)]

    def accuracy(self, gold: Iterable[Sequence[tuple[str, str]]]) -> float:
        """Fraction of the tokens of ``gold`` whose tag the tagger predicts, as NLTK's ``accuracy``.

        Parameters
        ----------
        gold : iterable of list of (str, str)
            Tagged sentences; their words are tagged afresh and compared with their tags.

        Returns
        -------
        float
            In [0, 1].
        """
        words, tags = split_tagged(gold, "gold")
        predicted = self.predict(words)
        n = sum(len(t) for t in tags)
        if n == 0:
            raise PerceptronsError("gold has no tokens; nothing to score")
        right = sum(p == g for ps, gs in zip(predicted, tags) for p, g in zip(ps, gs))
        return right / n

    def evaluate(self, gold: Iterable[Sequence[tuple[str, str]]]) -> float:
        """:meth:`accuracy` under NLTK's older name (deprecated there, kept here for old code).

        Parameters
        ----------
        gold : iterable of list of (str, str)
            Tagged sentences, as for :meth:`accuracy`.

        Returns
        -------
        float
            In [0, 1].
        """
        return self.accuracy(gold)
