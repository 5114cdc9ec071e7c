"""The feature dictionary of :class:`~perceptrons.structured.features.FeatureMap` built from a
corpus seen a chunk at a time (``Tagger.fit_stream``, the distributed trainer): the same
vocabulary, keys and counts as ``fit_transform``, with memory bounded by a chunk.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.structured.words import ATTRIBUTES, BOS, EOS


def _add_counts(acc, v):
    """Add the occurrences of the values ``v`` to ``acc`` (a count per value, in place)."""
    if 8 * v.shape[0] < acc.shape[0]:  # a small chunk: cost by its tokens, not by V
        uniq, counts = np.unique(v, return_counts=True)
        acc[uniq] += counts
    else:
        acc += np.bincount(v, minlength=acc.shape[0])


class _KeyCounts:
    """Counts of a conjunction's values over chunks: sorted distinct keys and their counts.

    A chunk's (keys, counts) wait in a list and are merged into the total once they outweigh
    it, so that the cost of merging stays proportional to the keys however small the chunks.
    """

    def __init__(self):
        self.keys, self.counts = np.zeros(0, np.int64), np.zeros(0, np.int64)
        self.pending, self.n_pending = [], 0

    def add(self, v):
        """Count the values ``v`` (int64, none negative)."""
        keys, counts = np.unique(v, return_counts=True)
        self.pending.append((keys, counts))
        self.n_pending += keys.shape[0]
        if self.n_pending >= self.keys.shape[0]:
            self.merge()

    def merge(self):
        """Fold the pending counts into the total; returns (keys, counts)."""
        if self.pending:
            keys = np.concatenate([self.keys] + [k for k, _ in self.pending])
            counts = np.concatenate([self.counts] + [c for _, c in self.pending])
            self.keys, inverse = np.unique(keys, return_inverse=True)
            self.counts = np.zeros(self.keys.shape[0], dtype=np.int64)
            np.add.at(self.counts, inverse, counts)
            self.pending, self.n_pending = [], 0
        return self.keys, self.counts


class IncrementalFit:
    """The chunk-by-chunk fit of a FeatureMap (its ``_table``, ``_values`` and ``_parsed``)."""

    # ------------------------------------------------------------------ incremental fit
    # The dictionary of :meth:`fit_transform`, built from a corpus seen a chunk at a time, in two
    # passes: a conjunction's key is v₁·V + v₂, so no key can be counted before the last chunk
    # has fixed V.  Same order of first appearance, same counts: same vocab_, keys_ and ptr_.
    def begin_fit(self):
        """Start building the dictionary chunk by chunk (instead of :meth:`fit_transform`).

        Then :meth:`add_types` for every chunk, :meth:`end_types`, :meth:`add_keys` for every
        chunk again (in any order), :meth:`end_keys`.

        Returns
        -------
        self
        """

        self.vocab_ = {BOS: 0, EOS: 1}
        self._known, self._tables = {}, None  # word → row of the type table, grown as types arrive
        self._type_blocks = []
        self._type_counts = np.zeros(0, dtype=np.int64)
        return self

    def add_types(self, tok, types):
        """Pass 1, one chunk: new word types and their attribute strings, and type counts.

        Parameters
        ----------
        tok : ndarray of int64, shape (n_tokens,)
            Each token's index in ``types`` (as :func:`corpus_types` returns them).
        types : list of str
            The distinct words of the chunk.

        Returns
        -------
        self
        """
        known = self._known
        new = [w for w in types if w not in known]
        if new:
            # types arrive in order of first appearance, so the vocabulary grows as in fit_transform
            self._type_blocks.append(self._table(new, grow=True)[:-2].astype(np.int32))
            known.update(zip(new, range(len(known), len(known) + len(new))))
            self._type_counts = np.concatenate([self._type_counts, np.zeros(len(new), dtype=np.int64)])
        rows = np.fromiter(map(known.__getitem__, types), dtype=np.int64, count=len(types))
        self._type_counts[rows] += np.bincount(tok, minlength=len(types))  # rows are distinct
        return self

    def end_types(self):
        """End pass 1: fix the vocabulary (hence V), the type table and the type counts.

        Returns
        -------
        self
        """
        n_types = len(self._known)
        blocks = self._type_blocks or [np.zeros((0, len(ATTRIBUTES)), dtype=np.int32)]
        self.type_table_ = np.concatenate(blocks)
        self.type_counts_ = self._type_counts.astype(np.int32)
        del self._type_blocks, self._type_counts
        if n_types == 0:
            raise PerceptronsError("no tokens to learn features from")
        self.n_values_ = V = len(self.vocab_)
        if V**2 * len(self._parsed) >= 2**62:
            raise PerceptronsError(f"too many attribute values ({V}) for 64-bit feature keys")
        # one-part templates: a count per attribute id; conjunctions: sorted distinct keys + counts
        self._key_counts = [np.zeros(V, dtype=np.int64) if len(parts) < 2 else _KeyCounts() for parts in self._parsed]
        return self

    def add_keys(self, tok, types, lengths):
        """Pass 2, one chunk: count the feature values of its tokens (all types seen in pass 1).

        Parameters
        ----------
        tok, types : see :meth:`add_types`
        lengths : ndarray of int64, shape (n_sentences,)
            Sentence lengths: features never reach across sentences.

        Returns
        -------
        self
        """
        table = self._table(types, grow=False)
        if np.any(self._rows < 0):
            raise PerceptronsError("add_keys: a word not seen by add_types")
        rare = None
        if self.rare_count > 0:
            rare = self.type_counts_[self._rows][tok] < self.rare_count
        for t, v in self._values(tok, lengths, table, rare):
            v = v[v >= 0]
            acc = self._key_counts[t]
            if isinstance(acc, np.ndarray):
                _add_counts(acc, v)
            else:
                acc.add(v)
        return self

    def end_keys(self):
        """End pass 2: keep the values seen ``min_count`` times as ``keys_`` / ``ptr_``.

        Returns
        -------
        self
        """
        kept, ptr = [], [0]
        for acc in self._key_counts:
            if isinstance(acc, np.ndarray):
                vals = np.flatnonzero(acc >= self.min_count)
            else:
                keys, counts = acc.merge()
                vals = keys[counts >= self.min_count]
            kept.append(vals.astype(np.int64))
            ptr.append(ptr[-1] + vals.shape[0])
        del self._key_counts
        self.keys_ = np.concatenate(kept)
        self.ptr_ = np.asarray(ptr, dtype=np.int64)
        self._tables = None
        return self
