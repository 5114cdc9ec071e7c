"""Train a :class:`~perceptrons.structured.tagging.Tagger` from CoNLL-U files a chunk at a time.

:meth:`Tagger.fit <perceptrons.structured.tagging.Tagger.fit>` holds the whole corpus and its
feature matrix (on EWT train, 200,000 tokens × 45 templates).  :func:`fit_stream` holds one chunk
of sentences and its matrices at a time, plus what the model itself is made of (vocabulary,
feature dictionary, tag dictionary counts, weights), and reads the files several times:

1. pass 1: the word types with their attribute strings (the vocabulary, hence V), the type
   counts (for ``rare_count``), the tag set and the tag-dictionary counts;
2. pass 2: the feature values of every token, counted per template — a conjunction's key is
   v₁·V + v₂, so this needs pass 1's final V — then ``min_count`` applied;
3. the epochs: each chunk is featurised with the fitted maps and trained on with
   the sequence model's ``epoch`` (its training protocol), which continues the weights, their running sums and the
   visit counter from the chunk before; an epoch without mistakes or ``max_epochs`` ends it.

Every step counts what :meth:`Tagger.fit` counts, in the same order, so with ``shuffle=False`` the
two give the same features, tag dictionary and weights (``tests/structured/test_tagger_stream.py``).  The
sentences are visited in file order: a global shuffle needs every sentence at hand.

Each epoch parses the CoNLL-U text again and rebuilds the chunks' matrices: that costs little
next to decoding, and keeps the files the only thing on disk (no cache of matrices to manage).
"""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import chain
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import CALLBACK, PATH, Interval, Options, check_param, check_path
from perceptrons.io.cache import file_identity
from perceptrons.io.conllu_format import COLUMNS, UNDERSCORE_IS_A_VALUE
from perceptrons.io.conllu_stream import stream_conllu
from perceptrons.structured.words import corpus_types

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from perceptrons.structured.tagging import Tagger


def fit_stream(
    tagger: Tagger,
    paths: str | os.PathLike | Sequence[str | os.PathLike],
    column: str = "upos",
    chunk_sentences: int = 2000,
    callback: Callable[[int, int, float], object] | None = None,
) -> Tagger:
    """Fit ``tagger`` on CoNLL-U files read ``chunk_sentences`` sentences at a time.

    See :meth:`Tagger.fit_stream <perceptrons.structured.tagging.Tagger.fit_stream>`.

    Parameters
    ----------
    tagger : Tagger
        Its parameters, with ``shuffle=False`` and ``patience=None``.
    paths : str, path-like or list of them
        Regular ``.conllu`` files, read in order (several times).
    column : {"upos", "xpos", "feats"}, default="upos"
    chunk_sentences : int, default=2000
    callback : callable, default=None
        ``callback(epoch, mistakes, elapsed_seconds)`` after each epoch; ``False`` stops.

    Returns
    -------
    Tagger
        ``tagger``, fitted.
    """
    tagger.check_training("stream")
    check_param(chunk_sentences, "chunk_sentences", (Interval(Integral, 1, None),), "Tagger.fit_stream")
    check_param(column, "column", (Options(*COLUMNS),), "Tagger.fit_stream")
    check_param(callback, "callback", CALLBACK, "Tagger.fit_stream")
    read = passes(regular_files(paths), column, chunk_sentences)
    tags, n_tokens = tagger.learn_features_from(read, column)
    tagger.begin(tags, n_tokens)
    _epochs(tagger, tagger.model_, read, callback)
    return tagger.finish()


def regular_files(paths):
    """``paths`` as a list of regular files: each is read once per pass, which a pipe cannot be."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    elif not isinstance(paths, Iterable):
        raise PerceptronsError(
            f"The 'paths' parameter of Tagger.fit_stream must be {PATH} or a list of them. Got {paths!r} instead."
        )
    paths = [check_path(p, "paths", "Tagger.fit_stream") for p in paths]
    if not paths:
        raise PerceptronsError("no CoNLL-U file to train on")
    for p in paths:
        if not os.path.exists(p):
            raise PerceptronsError(f"{os.fspath(p)}: no such file")
        if not os.path.isfile(p):
            raise PerceptronsError(f"{os.fspath(p)}: not a regular file (a streamed fit reads it once per epoch)")
    return paths


def passes(paths, column, size):
    """``read(check=None)``, a new pass over the files' chunks of ``size`` sentences (see
    :func:`chunks`) at each call; every pass refuses a file changed since this call.

    Also used by the distributed trainer, whose driver surveys the files before the workers
    read them.
    """
    as_opened = {os.fspath(p): os.stat(p) for p in paths}

    def read(check=None):
        return chunks(paths, column, size, check, as_opened)

    read.as_opened = as_opened  # what the distributed trainer's workers check their files against
    return read


def chunks(paths, column, size, check=None, as_opened=None) -> Iterator[tuple[list, list]]:
    """(words, tags) of up to ``size`` sentences at a time, from the files in order.

    Only the chunk being built is alive here: the caller drops a chunk before asking for the
    next.  ``check`` (a :class:`TagCheck`) sees every sentence and each end of file.
    ``as_opened`` maps each path to its ``os.stat`` when the fit began: a file whose
    :func:`~perceptrons.io.cache.file_identity` changed before or after it is read is refused.
    """
    words, tags = [], []
    for path in paths:
        _unchanged(path, as_opened)
        for s in stream_conllu(path, column, keep_lines=False):
            if check is not None:
                check.sentence(s)
            words.append(s.words)
            tags.append(s.tags)
            if len(words) == size:
                yield words, tags
                words, tags = [], []
        _unchanged(path, as_opened)  # a file replaced or edited while this pass read it
        if check is not None:
            check.end_of_file(path)
    if words:
        yield words, tags


def _unchanged(path, as_opened):
    """Refuse ``path`` if it is not the file it was when the fit began: every pass (the surveys
    and each epoch) reads it again, and a model of two versions of the data is of neither.
    """
    if as_opened is None:
        return
    try:
        same = file_identity(os.stat(path)) == file_identity(as_opened[os.fspath(path)])
    except OSError:
        same = False
    if not same:
        raise PerceptronsError(
            f"{os.fspath(path)}: changed while the tagger trained on it (a streamed fit reads it "
            "once per epoch); train again on a file that stays as it is"
        )


class TagCheck:
    """Refuse a tag column with ``_`` on a token, file by file, with the messages of
    :func:`perceptrons.io.conllu.check_tags` (which needs the whole file in memory).
    """

    def __init__(self, column):
        self.column = column
        self.n, self.missing, self.first = 0, 0, None

    def sentence(self, s):
        """Count one sentence's tags, and its first missing one."""
        self.n += len(s.tags)
        if "_" in s.tags:
            if self.first is None:
                self.first = s.first_line + s.token_lines[s.tags.index("_")]
            self.missing += s.tags.count("_")

    def end_of_file(self, path):
        """Refuse the file just read if its tags were missing, then start counting afresh."""
        path = os.fspath(path)
        if self.missing and self.missing == self.n:
            raise PerceptronsError(
                f"{path}: the {self.column} column is empty ('_' on every token); choose another with --column"
            )
        if self.missing and self.column not in UNDERSCORE_IS_A_VALUE:
            raise PerceptronsError(
                f"{path}:{self.first}: the {self.column} column is '_' on {self.missing} of {self.n} tokens"
            )
        self.n, self.missing, self.first = 0, 0, None


def survey(chunks, maps, count_tags=None):
    """Pass 1: the feature maps' vocabularies and type counts; the tags, tokens, tag counts
    (``count_tags(counts, words, tags)`` adds a chunk's: the tag dictionary's counting).
    """
    tags, n_tokens = set(), 0
    tag_counts = defaultdict(Counter)
    for words, chunk_tags in chunks:
        tok, types, _ = corpus_types(words)
        for fm in maps:
            fm.add_types(tok, types)
        tags.update(chain.from_iterable(chunk_tags))
        n_tokens += tok.shape[0]
        if count_tags is not None:
            count_tags(tag_counts, words, chunk_tags)
    for fm in maps:
        fm.end_types()
    return np.array(sorted(tags)), n_tokens, tag_counts


def count_keys(chunks, maps):
    """Pass 2: count the feature values (V is final now), keep those seen ``min_count`` times."""
    for words, _ in chunks:
        tok, types, lengths = corpus_types(words)
        for fm in maps:
            fm.add_keys(tok, types, lengths)
    for fm in maps:
        fm.end_keys()


def _epochs(tagger, model, read, callback):
    """Up to ``max_epochs`` passes over the chunks, each featurised with the fitted maps and
    trained on through the model's protocol; an epoch without mistakes ends training.
    """
    t0 = time.perf_counter()
    for epoch in range(1, tagger.max_epochs + 1):
        mistakes = token_mistakes = 0
        for words, tags in read():
            a = tagger.featurize(words, tags)
            block = model.operands(a.pop("X"), a.pop("y"), a.pop("lengths"), **a, assume_binary=True)
            m, w = model.epoch(block)
            mistakes, token_mistakes = mistakes + m, token_mistakes + w
        converged = model.end_epoch(mistakes, token_mistakes)
        if callback is not None and callback(epoch, mistakes, time.perf_counter() - t0) is False:
            break
        if converged:
            break
