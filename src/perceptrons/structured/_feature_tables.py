"""The feature map as the compiled prediction passes read it: lookup arrays for one-part
templates, a hash table for conjunctions, attribute rows for new words, and emission scores.

A mixin of :class:`~perceptrons.structured.features.FeatureMap`: it reads the map's fitted state
(``keys_``, ``offsets_``, ``vocab_``, the type table) and builds nothing that training needs.
"""

import numpy as np

from perceptrons._compile.aot import loop
from perceptrons._core.readonly import read_only
from perceptrons.structured.words import (
    ATTRIBUTES,
    CLUSTER_ATTRIBUTES,
    pack_strings,
    path_strings,
    unicode_parts,
    word_attributes,
)


class CompiledTables:
    """Prediction-time tables and scores of a fitted :class:`~perceptrons.structured.features.FeatureMap`."""

    #: the fewest words :meth:`_lookup` hands to its compiled pass (see there)
    _compiled_lookup_from = 16

    def scores(self, tok, types, lengths, W, forced=None):
        """Emission scores (n_tokens, n_classes) of the tokens under weights ``W`` (n_features,
        n_classes): the sums of :meth:`token_columns`' weight rows, computed in two parts.

        A one-part template's feature depends on one word type, so its weight rows are summed
        once per distinct word and offset (:func:`~perceptrons._jit.structured.type_emissions`);
        per token only those few sums and the conjunctions' rows are added.  A text of 25,000
        tokens has about 6,000 types: most of the per-token reads disappear.  ``forced``
        (n_tokens,) tag indices, −1 for free tokens, as in :class:`SequencePerceptron`.
        """
        from perceptrons._jit.structured import factored_emissions

        p = self._prepare(tok, types, lengths)
        ks, per_type = self._type_emissions(p, W)
        indptr, indices = self._columns(p, self.conjunction_tables()[0])
        out = np.empty((tok.shape[0], W.shape[1]))
        factored_emissions(
            tok,
            p.pos,
            p.slen,
            ks,
            per_type,
            (indices, indptr),
            W,
            np.zeros(0, dtype=np.int64) if forced is None else forced,
            out,
        )
        return out

    def _lookup(self, types, dtype=np.int64):
        """(rows of ``type_table_``, −1 unseen; attribute ids (``dtype``) of the unseen words).

        Without clusters, one compiled pass (:func:`~perceptrons._jit.word_attributes.lookup_words`)
        finds the words in a hash table of the vocabulary's UTF-8 strings, and makes and looks up
        the attribute strings of unseen words (Python gives the lower case and flags of those
        that are not ASCII: :func:`~perceptrons.structured.words.unicode_parts`): Python made
        ~16 strings a word and looked each up in the vocabulary dict, ~10 µs an unseen word.
        With clusters, Python adds the cluster attributes of the unseen words
        (:meth:`cluster_attribute_ids`).  A call for fewer than 16 words stays in Python: the
        compiled pass has a fixed cost of ~13 µs (encoding, arrays, dispatch).  Words of EWT test, repeated: 1 word 3 µs in Python against
        14 compiled, 16 words 37 against 21, 64 words 169 against 41.  The word cache, whose
        usual call is a sentence's few new words, does not come here: it looks them up and sums
        their rows in one compiled call (:func:`~perceptrons._jit.word_cache.cache_words`).
        """
        if len(types) < self._compiled_lookup_from:
            get = self.vocab_.get
            found = self._row_of_id()[np.array([get("w=" + w, -1) for w in types], dtype=np.int64)]
            ids = self.python_attribute_ids([w for w, r in zip(types, found.tolist()) if r < 0])
            return found, ids.astype(dtype, copy=False)
        from perceptrons._jit.word_attributes import lookup_words

        words, bounds = pack_strings(types, "surrogatepass")
        lower, parts = unicode_parts(types, ascii_only=words.max(initial=0) < 128)
        found = np.empty(len(types), dtype=np.int64)
        ids = np.empty((len(types), len(ATTRIBUTES)), dtype=np.int64)
        n = lookup_words(words, bounds, lower, parts, *self.lookup_tables(), found, ids)
        if self.clusters is not None and n:  # the compiled pass left their columns at −1
            unseen = [w for w, r in zip(types, found.tolist()) if r < 0]
            ids[:n, len(ATTRIBUTES) - len(CLUSTER_ATTRIBUTES) :] = self.cluster_attribute_ids(unseen)
        return found, ids[:n].astype(dtype, copy=False)

    def python_attribute_ids(self, words):
        """The attribute ids (n_words, n_attributes) int64 of words, their strings made by
        :func:`word_attributes` (−1: absent or not in the vocabulary): for the words the
        compiled passes leave to Python, and every word when the map has clusters."""
        get, clusters = self.vocab_.get, self.clusters
        # None is no key either, so get(None, -1) = −1 for an absent attribute
        ids = [get(a, -1) for w in words for a in word_attributes(w, clusters)]
        return np.array(ids, dtype=np.int64).reshape(-1, len(ATTRIBUTES))

    def lookup_tables(self):
        """What :func:`~perceptrons._jit.word_attributes.lookup_words` reads after the words:
        (row of each attribute id, hash table, UTF-8 bytes, starts, ends of the vocabulary's
        strings)."""
        return (self._row_of_id(), *self._vocab_hash())

    def cluster_attribute_ids(self, words):
        """The ids (n_words, len(CLUSTER_ATTRIBUTES)) int64 of the words' cluster attributes (−1:
        absent or not in the vocabulary), which the compiled lookups leave to Python; (n_words, 0)
        without clusters."""
        if self.clusters is None:
            return np.empty((len(words), 0), dtype=np.int64)
        # a word's cluster strings follow from its path and its lower case's path, and there
        # are a thousand paths: their ids are looked up once a path, not once a word
        by_path = self._ids_of_paths()
        lookup, paths, ids_of = self.clusters.lookup, self.clusters.paths, self._path_ids
        none = (-1,) * (len(CLUSTER_ATTRIBUTES) - 1)
        ids = []
        for w in words:
            path, lower = lookup(w), paths.get(w.lower())
            ids.extend(none if path is None else ids_of(by_path, path)[:-1])
            ids.append(-1 if lower is None else ids_of(by_path, lower)[-1])
        return np.array(ids, dtype=np.int64).reshape(len(words), len(CLUSTER_ATTRIBUTES))

    def _ids_of_paths(self):
        """path → the ids of its cluster strings, for the vocabulary of now (emptied when the
        vocabulary is replaced, as pruning after a fit does)."""
        cached = self.__dict__.get("_by_path")
        if cached is None or cached[0] is not self.vocab_:
            self._by_path = cached = (self.vocab_, {})
        return cached[1]

    def _path_ids(self, by_path, path):
        ids = by_path.get(path)
        if ids is None:
            get = self.vocab_.get
            ids = by_path[path] = tuple(get(a, -1) for a in path_strings(path))
        return ids

    def _row_of_id(self):
        """The ``type_table_`` row of each attribute id (−1: none; the last entry answers id −1).

        A training word's "w=" attribute id names its row, so that nothing is built per training
        word after loading (a dict of 20,000 words took ~6 ms on the first call).
        """
        cached = self.__dict__.get("_row_of")
        if cached is None or cached[0] is not self.type_table_:
            row_of = np.full(len(self.vocab_) + 1, -1, dtype=np.int64)
            row_of[self.type_table_[:, 0]] = np.arange(self.type_table_.shape[0])
            self._row_of = cached = (self.type_table_, row_of)
        return cached[1]

    def _vocab_hash(self):
        """(hash table, UTF-8 bytes, starts, ends) of the vocabulary's strings, the table holding
        each string's id (made once a vocabulary)."""
        hash_strings = loop("hash_strings")
        cached = self.__dict__.get("_vocab_hashed")
        if cached is None or cached[0] is not self.vocab_ or cached[1] != len(self.vocab_):
            # a loaded map has its strings as the file's bytes; a fitted one packs them (~5 ms)
            stored = self.__dict__.get("_vocab_utf8")
            if stored is not None and stored[0] is self.vocab_ and stored[2].shape[0] == len(self.vocab_) + 1:
                vocab, offsets = stored[1:]
            else:
                vocab, offsets = pack_strings(list(self.vocab_), "surrogatepass")
            vocab = read_only(vocab)  # as the packed strings are: one specialisation of each lookup
            table = np.full(1 << max(4, (2 * len(self.vocab_)).bit_length()), -1, dtype=np.int64)
            hash_strings(vocab, offsets[:-1], offsets[1:], table)
            self._vocab_hashed = cached = (self.vocab_, len(self.vocab_), table, vocab, offsets[:-1], offsets[1:])
        return cached[2:]

    def one_part_tables(self):
        """The one-part templates as the compiled passes read them.

        Returns
        -------
        luts : ndarray of int32, shape (n_templates, n_values + 1)
            Attribute id → column, per one-part template (−1: not a feature).
        one, attr : ndarray of int64
            The one-part templates in order, and the attribute each reads.
        bias, withhold : ndarray of bool
            Whether each is the bias (it reads value 0), whether it names the word itself.
        ks : ndarray of int64
            The distinct offsets the one-part templates read.
        slot : ndarray of int64
            Each one-part template's offset, as a position in ``ks``.
        """
        spec, luts, _ = self._compiled()
        one, attr, bias = self._one_part
        ks, slot = self._offsets
        return luts, one, attr, bias, spec[one, 5] == 1, ks, slot

    def conjunction_tables(self):
        """The two-part templates as the compiled passes read them.

        Returns
        -------
        pairs : ndarray of int64
            Indices of the two-part templates, in template order.
        spec : ndarray of int64, shape (n_templates, 6)
            Kind, attribute and offset of each part, identity flag (see
            :func:`~perceptrons._jit.features.token_features`).
        hashed : ndarray of int64, shape (capacity, 2)
            Key ``value · n_templates + t`` → column.
        n_values : int
            V, the number of attribute values (a conjunction's value is ``v₁·V + v₂``).
        """
        spec, _, hashed = self._compiled()
        pairs = np.array([t for t, parts in enumerate(self._parsed) if len(parts) == 2], dtype=np.int64)
        return pairs, spec, hashed, self.n_values_

    def _type_emissions(self, p, W):
        """(offsets ks, per-type sums (len(ks), n_rows, n_classes)) of the one-part templates."""
        from perceptrons._jit.structured import type_emissions

        one = self._one_part[0]
        ks, slot = self._offsets
        per_type = np.zeros((ks.shape[0], p.table.shape[0], W.shape[1]))
        type_emissions(p.type_cols[one], slot, p.spec[one, 5] == 1, p.rare_rows, W, per_type)
        return ks, per_type

    def _spec(self):
        """The templates as the compiled passes read them: (n_templates, 6) int64 rows of kind
        (number of parts), attribute and offset of each part, and the identity flag."""
        spec = np.zeros((len(self._parsed), 6), dtype=np.int64)
        for t, parts in enumerate(self._parsed):
            spec[t, 0] = len(parts)
            for p, (a, k) in enumerate(parts):
                spec[t, 1 + 2 * p], spec[t, 2 + 2 * p] = a, k
            spec[t, 5] = self._identity[t]
        return spec

    def _compiled(self):
        """Templates as an int array, one lookup row per one-part template, the conjunction hash."""
        if getattr(self, "_tables", None) is None:
            hash_build = loop("hash_build")
            nt = len(self._parsed)
            spec = self._spec()
            luts = np.full((nt, self.n_values_ + 1), -1, dtype=np.int32)
            keys, cols = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
            for t, parts in enumerate(self._parsed):
                lo, hi = self.ptr_[t], self.ptr_[t + 1]
                if len(parts) < 2:
                    luts[t, self.keys_[lo:hi]] = np.arange(lo, hi)
                else:
                    keys.append(self.keys_[lo:hi] * nt + t)
                    cols.append(np.arange(lo, hi, dtype=np.int64))
            keys, cols = np.concatenate(keys), np.concatenate(cols)
            hashed = hash_build(keys, cols, 1 << max(4, int(2 * keys.shape[0]).bit_length()))
            self._tables = (spec, luts, hashed)
        return self._tables
