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

import operator
from collections import Counter
from itertools import chain
from numbers import Integral, Number, Real
from typing import TYPE_CHECKING

from perceptrons._core.errors import PerceptronsError, PerceptronsTypeError
from perceptrons._core.params import Interval, check_bool

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
    """NLTK's ``TaggerI`` and ``PerceptronTagger.train``: ``train``, ``tag``, ``tag_sents``,
    ``accuracy`` / ``evaluate``, ``confusion``, ``precision``, ``recall``, ``f_measure`` and
    ``evaluate_per_tag``, as NLTK defines them.
    """

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
        if save_loc is not None:  # a directory or a missing one refused now, not after the fit
            from perceptrons.io.atomic import output_target

            output_target(save_loc)
        self.set_params(max_epochs=nr_iter)
        self.fit(sentences)
        if save_loc is not None:
            from perceptrons.persistence import save_model

            save_model(self, save_loc)
        return self

    def tag(
        self, tokens: Iterable[str], return_conf: bool = False, use_tagdict: bool = True
    ) -> list[tuple[str, str]] | list[tuple[str, str, float]]:
        """``[(word, tag), …]`` for one sentence given as a list of words, as NLTK's ``tag``.

        Parameters
        ----------
        tokens : list of str
            The words of one sentence.
        return_conf : bool, default=False
            Also give each tag's probability under the model's scores, as NLTK's
            ``PerceptronTagger.tag`` does: ``[(word, tag, conf), …]``.  With Viterbi (the
            default decoder) it is the tag's marginal probability over all tag sequences
            (forward-backward); with ``decoder="greedy"`` the softmax of the scores the tag was
            chosen from, as NLTK computes it.  A tag fixed by the tag dictionary has 1.0.
        use_tagdict : bool, default=True
            False: words in the tag dictionary (``tag_dict=True``) are tagged by the weights
            like any other word.

        Returns
        -------
        list of (str, str), or of (str, str, float) with ``return_conf``
            Each word with its tag.

        Raises
        ------
        TypeError
            When ``tokens`` is a str (tagging its characters is never what was meant); the
            error is also a :class:`PerceptronsError`.
        PerceptronsError
            When ``return_conf`` or ``use_tagdict`` is not a bool.

        Examples
        --------
        >>> from perceptrons import Tagger
        >>> tagger = Tagger(max_epochs=3).train([[("the", "DT"), ("dog", "NN"), ("runs", "VBZ")]] * 4)
        >>> tagger.tag(["the", "dog"])
        [('the', 'DT'), ('dog', 'NN')]
        >>> [(w, t, round(p, 2)) for w, t, p in tagger.tag(["the", "dog"], return_conf=True)]
        [('the', 'DT', 1.0), ('dog', 'NN', 1.0)]
        """
        if isinstance(tokens, str):
            raise PerceptronsTypeError("tokens: expected a list of strings, got a string")
        if isinstance(tokens, (bytes, bytearray, set, frozenset, dict)) or not hasattr(tokens, "__iter__"):
            raise PerceptronsTypeError(f"tokens: expected a list of strings, got {type(tokens).__name__}")
        words = list(tokens)
        if return_conf is False and use_tagdict is True:  # the common call: one cached pass
            return list(zip(words, self._predict_sentence(words)))
        return_conf = check_bool(return_conf, "return_conf")
        use_tagdict = check_bool(use_tagdict, "use_tagdict")
        self._check_fitted()
        if not words:
            return []
        out = self._tag_with_options([words], use_tagdict, return_conf)
        if return_conf:
            tags, conf = out
            return list(zip(words, tags.tolist(), conf.tolist()))
        return list(zip(words, out.tolist()))

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
        return token_accuracy(tags, self.predict(words))

    def _gold_and_predicted(self, gold):
        """The gold tags and the predicted tags of ``gold``'s tokens, as two flat lists."""
        words, tags = split_tagged(gold, "gold")
        reference = _reference(tags)
        return reference, list(chain.from_iterable(self.predict(words)))

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

    def confusion(self, gold: Iterable[Sequence[tuple[str, str]]]) -> Any:
        """NLTK's ``ConfusionMatrix`` of the tags of ``gold`` (rows) against the predicted ones.

        Parameters
        ----------
        gold : iterable of list of (str, str)
            Tagged sentences; their words are tagged afresh.

        Returns
        -------
        nltk.metrics.ConfusionMatrix
            NLTK's own type, so that ``print`` and its methods behave as in NLTK.

        Raises
        ------
        PerceptronsError
            When NLTK is not installed: the matrix is its type.  :meth:`precision`,
            :meth:`recall`, :meth:`f_measure` and :meth:`evaluate_per_tag` do not need it.
        """
        try:
            from nltk.metrics import ConfusionMatrix
        except ImportError:
            raise PerceptronsError(
                "confusion() returns NLTK's ConfusionMatrix, and NLTK is not installed (pip install nltk)"
            ) from None
        return ConfusionMatrix(*self._gold_and_predicted(gold))

    def precision(self, gold: Iterable[Sequence[tuple[str, str]]]) -> dict[str, float]:
        """Per tag, the fraction of the tokens tagged so that are so in ``gold``, as NLTK's ``precision``.

        Parameters
        ----------
        gold : iterable of list of (str, str)
            Tagged sentences; their words are tagged afresh.

        Returns
        -------
        dict of str to float
            Every tag of ``gold`` or of the predictions, in sorted order; 0.0 for a tag never
            predicted (NLTK's convention).
        """
        counts = _TagCounts(*self._gold_and_predicted(gold))
        return {tag: counts.precision(tag) for tag in counts.tags}

    def recall(self, gold: Iterable[Sequence[tuple[str, str]]]) -> dict[str, float]:
        """Per tag, the fraction of its tokens in ``gold`` that are tagged so, as NLTK's ``recall``.

        Parameters
        ----------
        gold : iterable of list of (str, str)
            Tagged sentences; their words are tagged afresh.

        Returns
        -------
        dict of str to float
            Every tag of ``gold`` or of the predictions, in sorted order; 0.0 for a tag that
            ``gold`` does not hold.
        """
        counts = _TagCounts(*self._gold_and_predicted(gold))
        return {tag: counts.recall(tag) for tag in counts.tags}

    def f_measure(self, gold: Iterable[Sequence[tuple[str, str]]], alpha: float = 0.5) -> dict[str, float]:
        """Per tag, ``1 / (alpha / precision + (1 - alpha) / recall)``, as NLTK's ``f_measure``.

        Parameters
        ----------
        gold : iterable of list of (str, str)
            Tagged sentences; their words are tagged afresh.
        alpha : float in [0, 1], default=0.5
            The weight of precision; 0.5 gives the harmonic mean F1.

        Returns
        -------
        dict of str to float
            Every tag of ``gold`` or of the predictions, in sorted order; 0.0 where the
            precision or the recall is 0.
        """
        _check_alpha(alpha)
        counts = _TagCounts(*self._gold_and_predicted(gold))
        return {tag: counts.f_measure(tag, alpha) for tag in counts.tags}

    def evaluate_per_tag(
        self,
        gold: Iterable[Sequence[tuple[str, str]]],
        alpha: float = 0.5,
        truncate: int | None = None,
        sort_by_count: bool = False,
    ) -> str:
        """Precision, recall and F per tag as a text table, NLTK's ``evaluate_per_tag`` layout.

        Parameters
        ----------
        gold : iterable of list of (str, str)
            Tagged sentences; their words are tagged afresh.
        alpha : float in [0, 1], default=0.5
            As in :meth:`f_measure`.
        truncate : int >= 0, default=None
            Show only the first ``truncate`` tags (after sorting); None or 0 shows them all.
        sort_by_count : bool, default=False
            Order the tags by their count in ``gold``, most frequent first (ties alphabetical),
            instead of alphabetically.

        Returns
        -------
        str
            One line per tag under a two-line header, each line ending in a newline.
        """
        _check_alpha(alpha)
        if truncate is not None and not Interval(Integral, 0, None).accepts(truncate):
            raise PerceptronsError(f"truncate must be None or an int in the range [0, inf). Got {truncate!r} instead.")
        counts = _TagCounts(*self._gold_and_predicted(gold))
        tags = counts.tags
        if sort_by_count:
            tags = sorted(tags, key=lambda t: -counts.gold[t])  # stable: ties stay alphabetical
        if truncate:
            tags = tags[:truncate]
        width = max([3, *(len(str(tag)) for tag in tags)])  # tags may be numbers
        lines = [f"{'Tag':>{width}} | Prec.  | Recall | F-measure", f"{'-' * width}-+--------+--------+-----------"]
        lines += [
            f"{tag!s:>{width}} | {counts.precision(tag):<6.4f} | {counts.recall(tag):<6.4f} | "
            f"{counts.f_measure(tag, alpha):.4f}"
            for tag in tags
        ]
        return "\n".join(lines) + "\n"


def _check_alpha(alpha):
    if not Interval(Real, 0, 1).accepts(alpha):
        raise PerceptronsError(f"alpha must be a float in the range [0, 1]. Got {alpha!r} instead.")


class _TagCounts:
    """Per tag: tokens right, in the gold standard, predicted; NLTK's ``ConfusionMatrix`` figures.

    The ratios are NLTK's: each an ``int / int`` (the same float), 0.0 where a count is 0.
    """

    def __init__(self, reference, test):
        # tags are text, or numbers for a tagger fitted on numbers; anything else is a gold
        # standard of the wrong shape (a (word, tag) pair where a tag belongs, say)
        bad = next((t for t in reference if not isinstance(t, (str, Number))), None)
        if bad is not None:
            raise PerceptronsError(f"gold: a tag must be a str or a number; found {type(bad).__name__} {bad!r:.40}")
        self.gold, self.predicted = Counter(reference), Counter(test)
        self.right = Counter(g for g, p in zip(reference, test) if g == p)
        try:
            self.tags = sorted(self.gold.keys() | self.predicted.keys())
        except TypeError:
            kinds = ", ".join(sorted({type(t).__name__ for t in self.gold.keys() | self.predicted.keys()}))
            raise PerceptronsTypeError(
                f"gold: tags of types {kinds} cannot be compared; expected gold tags of the tagger's kind"
            ) from None

    def precision(self, tag):
        n = self.predicted[tag]
        return self.right[tag] / n if n else 0.0

    def recall(self, tag):
        n = self.gold[tag]
        return self.right[tag] / n if n else 0.0

    def f_measure(self, tag, alpha):
        p, r = self.precision(tag), self.recall(tag)
        if p == 0.0 or r == 0.0:
            return 0.0
        return 1.0 / (alpha / p + (1 - alpha) / r)


def _reference(tags):
    """The gold tags of every token, one flat list; refused when there is none."""
    reference = list(chain.from_iterable(tags))
    if not reference:
        raise PerceptronsError("gold has no tokens; nothing to score")
    return reference


def token_accuracy(tags: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]) -> float:
    """The share of tokens whose predicted tag (``predicted``, one list a sentence) is the gold
    one (``tags``, the same).
    """
    reference = _reference(tags)
    return sum(map(operator.eq, reference, chain.from_iterable(predicted))) / len(reference)
