"""How a fitted :class:`~perceptrons.structured.tagging.Tagger` tags: through its word cache
(:mod:`perceptrons.structured._word_cache`) when it has one, else by emission scores per batch;
one sentence a call, a corpus in runs that fit the cache, with NLTK's options and the tags'
probabilities.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError, PerceptronsTypeError
from perceptrons._core.params import check_bool
from perceptrons.structured import _tagdict as tagdict
from perceptrons.structured._operands import edge_operand
from perceptrons.structured.words import corpus_types, raise_not_words

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


def check_corpus(sentences, tags=None, what="sentences"):
    """Outer structure only; the words themselves are checked once per type by ``corpus_types``.

    A str where a list is expected is a ``TypeError`` (as in NLTK): iterating it would tag
    its characters.
    """
    if isinstance(sentences, str):
        raise PerceptronsTypeError(f"{what}: expected a list of sentences (lists of words), got a string")
    if not hasattr(sentences, "__len__"):
        raise PerceptronsError(f"{what} must be a list of sentences, each a list of words")
    if tags is None and set(map(type, sentences)) <= {list, tuple}:  # the usual corpus, in one C pass
        return
    for i, s in enumerate(sentences):
        if isinstance(s, str):
            raise PerceptronsTypeError(f"{what}[{i}]: expected a list of word strings, got a string {s[:40]!r}")
        if not hasattr(s, "__len__"):
            raise PerceptronsError(f"{what}[{i}] must be a list of word strings, got {type(s).__name__}")
    if tags is not None:
        if len(tags) != len(sentences):
            raise PerceptronsError(f"{len(sentences)} sentences but {len(tags)} tag sequences")
        for i, (s, t) in enumerate(zip(sentences, tags)):
            if isinstance(t, str):  # its characters would be taken as the tags, one per word
                raise PerceptronsTypeError(f"tags[{i}]: expected a list of tags, got a string {t[:40]!r}")
            if len(t) != len(s):
                raise PerceptronsError(f"{what}[{i}] has {len(s)} words but {len(t)} tags")


class TaggingMixin:
    """``predict``, ``known`` and the paths behind NLTK's ``tag`` for the fitted tagger."""

    def predict(
        self, sentences: Sequence[Sequence[str]], return_conf: bool = False
    ) -> list[list[str]] | tuple[list[list[str]], list[list[float]]]:
        """Tags of each sentence: a list of lists of str.

        Parameters
        ----------
        sentences : list of list of str
            Words of each sentence.
        return_conf : bool, default=False
            Also return each tag's probability, as :meth:`tag` defines it (the marginal
            probability with Viterbi, the softmax of the compared scores with the greedy
            decoder, 1.0 for a word the tag dictionary fixes).

        Returns
        -------
        tags : list of list of str
            One tag per word.
        conf : list of list of float
            Only with ``return_conf``: one probability per tag.
        """
        self._check_fitted()
        check_corpus(sentences)
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        if return_conf is not False and check_bool(return_conf, "return_conf"):
            tags, conf = self._tag_with_options(sentences, True, True, lengths)
            return _split(tags.tolist(), lengths), _split(conf.tolist(), lengths)
        if not lengths.any():
            return [[] for _ in sentences]
        cache = self._words()
        if cache is None:
            flat = self._predict_scored(sentences).tolist()
        else:
            flat = []
            for lo, hi in cache.batches(lengths):
                flat += self._predict_cached(cache, sentences[lo:hi], lengths[lo:hi], lo)
        return _split(flat, lengths)

    @staticmethod
    def _predict_cached(cache, sentences, lengths, first=0):
        """The tags of ``sentences`` (one list; the first is the caller's number ``first``)
        through the word cache, in one compiled call.
        """
        rows, state = _cache_rows(cache, sentences, first)
        return cache.name_objects[cache.tag(rows, state, _offsets(lengths))].tolist()

    def _predict_sentence(self, words):
        """One sentence through the word cache: the per-call work is a dict lookup per word and
        one compiled call (:mod:`perceptrons.structured._word_cache`).
        """
        self._check_fitted()
        cache = self._words()
        if cache is None or not words:
            return self.predict([words])[0]
        rows, state = cache.rows(words)
        names = cache.names
        return [names[i] for i in cache.tag(rows, state, np.array([0, len(words)], dtype=np.int64)).tolist()]

    def _tag_with_options(self, sentences, use_tagdict, return_conf, lengths=None):
        """The tags (n_tokens,) of ``sentences``, with their probabilities if ``return_conf``
        (then a tuple), through the word cache when the model has one: NLTK's ``tag`` options
        and ``predict``'s ``return_conf``.
        """
        cache = self._words()
        if cache is not None and len(sentences) == 1 and sentences[0]:  # NLTK's tag: one run, nothing to join
            words = sentences[0]
            rows, state = cache.rows(words)
            offsets = np.array([0, len(words)], dtype=np.int64)
            return self._cached_run(cache, rows, state, offsets, use_tagdict, return_conf)
        if lengths is None:
            lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        if not lengths.any():
            tags = self.model_.classes_[:0]
            return (tags, np.empty(0)) if return_conf else tags
        if cache is None:
            return self._predict_scored(sentences, use_tagdict, return_conf)
        runs = []
        for lo, hi in cache.batches(lengths):
            rows, state = _cache_rows(cache, sentences[lo:hi], lo)
            runs.append(self._cached_run(cache, rows, state, _offsets(lengths[lo:hi]), use_tagdict, return_conf))
        if not return_conf:
            return np.concatenate(runs)
        return np.concatenate([tags for tags, _ in runs]), np.concatenate([conf for _, conf in runs])

    def _cached_run(self, cache, rows, state, offsets, use_tagdict, return_conf):
        """The tags of one run of the word cache (``rows`` of ``state``, sentences at these
        ``offsets``), with their probabilities if ``return_conf``, as :meth:`_tag_with_options`."""
        model = self.model_
        idx = cache.tag(rows, state, offsets, use_tagdict)
        if not return_conf:
            return model.classes_[idx]
        scores = cache.scores(rows, state, offsets, use_tagdict)
        # the model's own probabilities of these tag indices (a model with a word cache has no
        # edge features); its public confidences_from_scores would map the tags' labels back
        # to indices and the lengths back to offsets
        no_edges = edge_operand(None, idx.shape[0])[0]
        return model.classes_[idx], model.confidences(scores, no_edges, offsets, idx)

    def _words(self):
        """The word cache, made on first use; None with edge features (scored per batch)."""
        cache = self.__dict__.get("_word_cache")
        if cache is None and self.edge_features_ is None:
            from perceptrons.structured._word_cache import WordCache

            cache = self._word_cache = WordCache(self.features_, self.model_, self.tagdict_)
        return cache

    def _predict_scored(self, sentences, use_tagdict=True, return_conf=False):
        """Tags (n_tokens,) of a model with edge features (it has no word cache): emission
        scores and edges per batch; NLTK's ``tag`` options as in :meth:`_tag_with_options`.
        """
        tok, types, lengths = corpus_types(sentences)
        forced = tagdict.forced_types(self.tagdict_, tok, types) if use_tagdict else None
        model = self.model_
        forced_idx = None if forced is None else model.forced_indices(forced, tok.shape[0])
        scores = self.features_.scores(tok, types, lengths, model.emission_weights(), forced_idx)
        X_edge = None if self.edge_features_ is None else self.edge_features_.transform_types(tok, types, lengths)[0]
        return model.predict_from_scores(scores, lengths, X_edge, assume_binary=True, return_conf=return_conf)

    def __getstate__(self):
        # the word cache holds a lock (not picklable) and is rebuilt on first use anyway
        state = self.__dict__.copy()
        state.pop("_word_cache", None)
        return state

    def known(self, sentences: Iterable[Iterable[str]]) -> np.ndarray:
        """Boolean mask (n_tokens,): was each word seen in training?

        Parameters
        ----------
        sentences : list of list of str
            Words of each sentence.

        Returns
        -------
        ndarray of bool of shape (n_tokens,)
            One entry per word, sentence after sentence.
        """
        self._check_fitted()
        check_corpus(sentences)  # a str is not a sentence: its characters would be looked up
        sentences = list(sentences)
        raise_not_words(sentences)
        return np.array([self.features_.known(w) for s in sentences for w in s], dtype=bool)


def _offsets(lengths):
    """Sentence offsets (n + 1,) int64 of ``lengths``."""
    offsets = np.zeros(lengths.shape[0] + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


def _split(flat, lengths):
    """``flat`` (a list over all tokens) as one list per sentence of these ``lengths``."""
    out, i = [], 0
    for n in lengths.tolist():
        out.append(flat[i : i + n])
        i += n
    return out


def _cache_rows(cache, sentences, first):
    """The word cache's rows of all tokens of ``sentences``; a word that is not a str is
    refused naming its sentence (``sentences[0]`` is the caller's number ``first``).
    """
    try:  # tokens straight to cache rows: no table of the batch's own types is needed
        return cache.rows(list(chain.from_iterable(sentences)))
    except PerceptronsError:
        raise_not_words(sentences, first)  # the same error, naming the sentence
        raise
