"""The tagger's cache of what it knows per word, so that a short sentence costs one compiled call.

Tagging one sentence with :meth:`FeatureMap.scores` redoes, per call, the work a batch spreads
over thousands of tokens: a string table for its words, a type table, the per-type sums of the
one-part templates, a CSR matrix of the conjunctions, then a second compiled call to decode.
Measured on EWT test one sentence at a time (12 tokens on average), that was ~0.45 ms a call, of
which the compiled work was ~0.03 ms.  Here each distinct word is looked at once: its attribute
ids, rare flag, forced tag and per-offset sums of one-part weight rows go into rows of growing
arrays, and a sentence is a list of row numbers handed to one compiled function
(:func:`perceptrons._jit.features.tag_cached`) that adds the conjunctions and decodes.

The cache starts from the training words: their attribute rows and rare flags are the feature
map's own table, so a training word costs no string work, only its one-part sums, computed the
first time a call meets it.  Only a word never seen in training has its attributes computed
here.  (Computing the sums of all 20,000 EWT training words up front made the first call take
56–111 ms instead of 10 ms, and saved no more than that over the sentences of EWT test.)

The cached sums are computed by the same compiled pass as in a batch and added in the same
order, so the tags are those of :meth:`FeatureMap.scores` + the decoder, bit for bit.
"""

import threading

import numpy as np

from perceptrons._jit.features import key_filter, tag_cached, word_emissions
from perceptrons._validation import PerceptronsError
from perceptrons.structured.decoders import decoder_code
from perceptrons.structured.features import BOS, EOS

#: bytes of rows kept for words never seen in training before the cache starts afresh (a
#: long-running tagger that meets ever new words must not grow without bound); a single call
#: may exceed it for its own words.  The training words' rows come on top: at most one per
#: word of the model's own type table.
MAX_BYTES = 64 * 2**20


class WordCache:
    """Per-word rows for :func:`~perceptrons._jit.features.tag_cached`, filled on first sight.

    Parameters
    ----------
    features : FeatureMap
        Fitted.
    model : fitted sequence model
        Its final weights, classes and decoder.
    tagdict : dict of str to str
        Words whose tag is fixed.
    """

    def __init__(self, features, model, tagdict):
        self.features, self.tagdict, self.model = features, tagdict, model
        self.W = model.emission_weights()
        self.pairs, self.spec, self.hashed, self.n_values = features.conjunction_tables()
        n_keys = int(np.count_nonzero(self.hashed[:, 0] >= 0))
        self.filter = key_filter(self.hashed, max(12, (16 * n_keys).bit_length()))  # ~16 bits a key
        luts, one, attr, bias, withhold, self.ks, slot = features.one_part_tables()
        self._one_part = (luts, one, attr, bias, withhold, slot)  # word_emissions' tables
        self.decoding = (
            np.ascontiguousarray(model.coef_trans_, dtype=np.float64),
            np.ascontiguousarray(model.coef_trans2_, dtype=np.float64),
            np.ascontiguousarray(model.coef_init_, dtype=np.float64),
            np.ascontiguousarray(model.coef_final_, dtype=np.float64),
            decoder_code(model.decoder),
        )
        self.names = model.classes_.tolist()
        self.known, attrs, rare = features.training_table()
        forced = np.full(attrs.shape[0], -1, dtype=np.int64)
        if tagdict:
            forced[list(self.known.values())] = self._forced(list(self.known))
        self._training = (attrs, rare, forced)
        self._lock = threading.Lock()
        self._state = self._fresh()

    def _forced(self, words):
        """Tag index of each word fixed by the tag dictionary, −1 for the others."""
        if not self.tagdict:
            return np.full(len(words), -1, dtype=np.int64)
        return self.model.forced_indices(np.array([self.tagdict.get(w, "") for w in words]), len(words))

    def _fresh(self):
        """Rows 0 and 1 for BOS and EOS (every attribute is the marker), then the training words'
        (row 2 + their row in the feature map), whose sums wait until a call meets them."""
        attrs, rare, forced = self._training
        base = attrs.shape[0] + 2
        rows = _Rows(base + max(1024, base // 4), self.ks.shape[0], self.W.shape[1], attrs.shape[1], base)
        vocab = self.features.vocab_
        rows.attrs[0], rows.attrs[1] = vocab[BOS], vocab[EOS]
        rows.attrs[2:base], rows.rare[2:base], rows.forced[2:base] = attrs, rare, forced
        word_emissions(np.arange(2), rows.attrs, rows.rare, *self._one_part, self.W, rows.emit)
        rows.n = base
        return rows

    def rows(self, words):
        """The cache rows of the words, adding those it has not met yet.

        Parameters
        ----------
        words : list of str

        Returns
        -------
        rows : ndarray of int64, shape (n,)
        state : the cache arrays those rows index (a later call may replace them)

        Raises
        ------
        PerceptronsError
            For a word that is not a str.
        """
        state = self._state
        get = state.index.get
        try:
            found = [get(w, -1) for w in words]
        except TypeError:  # an unhashable "word"
            found = None
        if found is None or -1 in found:
            state = self._add(words)
            found = [state.index[w] for w in words]
        return np.array(found, dtype=np.int64), state

    def _add(self, words):
        """Make rows ready for the words not met yet; returns the state that holds them all
        (published as ``_state``)."""
        known = self.known
        with self._lock:  # rows are numbered in order: two threads must not take the same ones
            state = self._state
            index = state.index
            try:
                new = [w for w in dict.fromkeys(words) if w not in index]
            except TypeError:  # an unhashable "word"
                new = list(words)
            if not all(isinstance(w, str) for w in new):  # every word in the index is a str
                bad = next(w for w in new if not isinstance(w, str))
                raise PerceptronsError(
                    f"a sentence must be a list of word strings; found a word of type {type(bad).__name__}"
                )
            unseen = [w for w in new if w not in known]
            if (state.n - state.base + len(unseen)) * state.row_bytes > MAX_BYTES:
                state = self._fresh()
                new = list(dict.fromkeys(words))
                unseen = [w for w in new if w not in known]
            lo = state.n
            if unseen:
                attrs, rare = self.features.word_table(unseen)
                state = state.grown(lo + len(unseen))
                state.attrs[lo : lo + len(unseen)] = attrs
                state.rare[lo : lo + len(unseen)] = rare
                state.forced[lo : lo + len(unseen)] = self._forced(unseen)
                state.n += len(unseen)
            if new:
                which = []
                for w in new:
                    r = known.get(w)
                    if r is None:
                        r, lo = lo, lo + 1
                    else:
                        r += 2
                    which.append(r)
                word_emissions(
                    np.array(which, dtype=np.int64), state.attrs, state.rare, *self._one_part, self.W, state.emit
                )
                # rows written before they are named: a reader of this state never sees a row unwritten
                state.index.update(zip(new, which))
            self._state = state
            return state

    def tag(self, rows, state, offsets):
        """Tag indices (n_tokens,) int64 of the sentences ``offsets`` (n_sentences + 1,) over
        ``rows`` of ``state`` (both as :meth:`rows` returns them)."""
        out = np.empty(rows.shape[0], dtype=np.int64)
        trans, trans2, start, stop, decoder = self.decoding
        tag_cached(
            rows,
            offsets,
            self.ks,
            state.emit,
            state.attrs,
            state.rare,
            state.forced,
            self.pairs,
            self.spec,
            self.n_values,
            self.hashed,
            self.filter,
            self.W,
            trans,
            trans2,
            start,
            stop,
            decoder,
            out,
        )
        return out


class _Rows:
    """The cached arrays, one row per word, and the word → row index of the rows ready to read.

    Rows below ``base`` are BOS, EOS and the training words; ``n`` rows have their attributes.
    A row is named in the index only once its sums are written, and a full set of arrays is
    replaced, not resized: a reader holding this object always reads rows that are written.
    """

    def __init__(self, capacity, n_slots, n_classes, n_attributes, base):
        self.index, self.n, self.base = {}, 0, base
        # np.empty: the sums of a row are written before the row is named, and pages of rows
        # never met (most training words, in a short session) are never touched
        self.emit = np.empty((capacity, n_slots, n_classes))
        self.attrs = np.full((capacity, n_attributes), -1, dtype=np.int32)
        self.rare = np.zeros(capacity, dtype=np.bool_)
        self.forced = np.full(capacity, -1, dtype=np.int64)
        self.row_bytes = self.emit[0].nbytes + self.attrs[0].nbytes + 9

    def grown(self, n):
        """This cache if it has room for ``n`` rows, else a copy with twice the room or more."""
        cap = self.emit.shape[0]
        if n <= cap:
            return self
        while cap < n:
            cap *= 2
        out = _Rows(cap, self.emit.shape[1], self.emit.shape[2], self.attrs.shape[1], self.base)
        out.n, out.index = self.n, dict(self.index)
        for name in ("emit", "attrs", "rare", "forced"):
            getattr(out, name)[: self.n] = getattr(self, name)[: self.n]
        return out
