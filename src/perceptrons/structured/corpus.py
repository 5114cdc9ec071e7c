"""A tagged corpus with its words numbered: what the tagger's training reads.

:meth:`Tagger.fit <perceptrons.Tagger.fit>` on lists of word strings first numbers the words
(:func:`~perceptrons.structured.words.corpus_types`) and gathers the tags into one array.  A
CoNLL-U file's compiled scan (:func:`perceptrons.io.conllu_bytes.scan_file`) has numbered them
already, so :func:`read_corpus` hands over those numbers and never builds a string per token:
on EWT train (204,577 tokens) the lists, their sentences and their numbering cost ~0.1 s of a
~1.8 s ``tag train``.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Number

import numpy as np

from perceptrons._core.errors import PerceptronsError, PerceptronsTypeError
from perceptrons._core.labels import sorted_labels
from perceptrons._core.params import check_path
from perceptrons.io.conllu import read_conllu
from perceptrons.io.conllu_bytes import scan_file
from perceptrons.structured._tagger_predict import check_corpus
from perceptrons.structured.words import corpus_types


@dataclass
class Corpus:
    """Sentences of words with one tag each, the words numbered.

    Get one from :func:`read_corpus` or :meth:`from_lists`; either gives the same corpus from
    the same sentences.

    Parameters
    ----------
    types : list of str
        The distinct words, in order of first appearance.
    tok : ndarray of int64, shape (n_tokens,)
        Each token's word, an index into ``types``.
    lengths : ndarray of int64, shape (n_sentences,)
        Tokens per sentence.
    y : ndarray of shape (n_tokens,)
        Each token's tag (str, as read from a file).
    """

    types: list
    tok: np.ndarray
    lengths: np.ndarray
    y: np.ndarray

    def __post_init__(self):
        self.check()

    def check(self):
        """Raise unless every field is as documented.  The compiled feature passes index by
        ``tok`` and ``lengths``: a fit checks them again, since arrays can change in place.
        """
        if not isinstance(self.types, list) or not all(isinstance(w, str) for w in self.types):
            raise PerceptronsError("Corpus.types must be a list of str")
        if len(set(self.types)) != len(self.types):
            raise PerceptronsError("Corpus.types must be distinct words")
        for name in ("tok", "lengths"):
            a = getattr(self, name)
            if not isinstance(a, np.ndarray) or a.dtype != np.int64 or a.ndim != 1:
                raise PerceptronsError(f"Corpus.{name} must be a 1-D int64 array")
        n = self.tok.shape[0]
        if n and (self.tok.min() < 0 or self.tok.max() >= len(self.types)):
            raise PerceptronsError(f"Corpus.tok must index Corpus.types: values in [0, {len(self.types)})")
        if (self.lengths.shape[0] and self.lengths.min() < 0) or int(self.lengths.sum()) != n:
            raise PerceptronsError(f"Corpus.lengths must be counts that sum to the {n} tokens")
        if not isinstance(self.y, np.ndarray) or self.y.shape != (n,):
            raise PerceptronsError(f"Corpus.y must be an array of {n} tags, one per token")

    @classmethod
    def from_lists(cls, sentences, tags):
        """The corpus of tagged sentences given as lists.

        Parameters
        ----------
        sentences : list of list of str
            The words of each sentence.
        tags : list of list of str
            One tag per word.

        Returns
        -------
        Corpus
        """
        check_corpus(sentences, tags)
        tok, types, lengths = corpus_types(sentences)
        flat = [t for s in tags for t in s]
        try:
            y = np.array(flat)
        except ValueError:  # sequences of different lengths among the tags
            y = None
        if y is None or y.ndim != 1:  # a tag that is a sequence
            bad = next(t for t in flat if not isinstance(t, (str, Number)))
            raise PerceptronsTypeError(
                f"tags: a tag of type {type(bad).__name__} ({str(bad)[:40]}); expected str tags (or numbers)"
            )
        # numpy makes text of numbers beside strings (0 → "0"), and the tagger would then
        # predict "0" where the data say 0: its own training data scored as wrong
        if y.dtype.kind == "U" and not all(isinstance(t, str) for t in flat):
            bad = next(t for t in flat if not isinstance(t, str))
            raise PerceptronsTypeError(
                f"tags: a tag of type {type(bad).__name__} ({bad!r}) among str tags; expected tags of one kind"
            )
        if y.dtype.kind in "fO":  # NaN or None among the tags
            sorted_labels(y, "tags")
        return cls(types, tok, lengths, y)

    def __len__(self):
        return self.lengths.shape[0]

    def words(self):
        """The sentences as lists of word strings.

        Returns
        -------
        list of list of str
        """
        return _split(list(map(self.types.__getitem__, self.tok.tolist())), self.lengths)

    def tags(self):
        """The tags, one list a sentence.

        Returns
        -------
        list of list of str
        """
        return _split(self.y.tolist(), self.lengths)


def _split(flat, lengths):
    bounds = np.concatenate([[0], np.cumsum(lengths)]).tolist()
    return [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def read_corpus(path, column="upos"):
    """The tagged sentences of a CoNLL-U file, words numbered: :func:`read_conllu
    <perceptrons.io.conllu.read_conllu>` with ``require_tags=True``, for training.

    Parameters
    ----------
    path : str or path-like
    column : {"upos", "xpos", "feats"}

    Returns
    -------
    Corpus
        The corpus :meth:`Corpus.from_lists` makes of the file's sentences.

    Raises
    ------
    PerceptronsError
        As :func:`~perceptrons.io.conllu.read_conllu` does, naming the file and line.
    """
    import os

    path = check_path(path, "path", "read_corpus")
    scan = scan_file(path, column) if os.path.isfile(path) else None
    if scan is None or "_" in scan.tags:  # the line reader, or check_tags' message
        sentences = read_conllu(path, column, require_tags=True, keep_lines=False)
        return Corpus.from_lists([s.words for s in sentences], [s.tags for s in sentences])
    lengths = np.diff(np.append(scan.sent_tok, scan.word.shape[0]))
    return Corpus(scan.forms, scan.word, lengths, np.array(scan.tags, dtype=str)[scan.tag])
