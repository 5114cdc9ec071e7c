"""The tagger's cache of what it knows per word, so that a short sentence costs one compiled call.

Tagging one sentence with :meth:`FeatureMap.scores` redoes, per call, the work a batch spreads
over thousands of tokens: a string table for its words, a type table, the per-type sums of the
one-part templates, a CSR matrix of the conjunctions, then a second compiled call to decode.
Measured on EWT test one sentence at a time (12 tokens on average), that was ~0.45 ms a call, of
which the compiled work was ~0.03 ms.  Here each distinct word is looked at once: its attribute
ids, rare flag, forced tag and per-offset sums of one-part weight rows go into rows of growing
arrays, and a sentence is a list of row numbers handed to one compiled function
(:func:`perceptrons._jit.word_cache.tag_cached`) that adds the conjunctions and decodes.

The cached sums are computed by the same compiled pass as in a batch and added in the same
order, so the tags are those of :meth:`FeatureMap.scores` + the decoder, bit for bit.
"""

import threading

import numpy as np

from perceptrons._compile.aot import loop
from perceptrons._core.errors import PerceptronsTypeError
from perceptrons.structured._operands import check_tables, none_if_empty, table_bytes
from perceptrons.structured.decoders import decoder_code
from perceptrons.structured.words import BOS, EOS, composed, unicode_parts

#: bytes of cached rows kept before the cache starts afresh (a long-running tagger that meets
#: ever new words must not grow without bound); a single call may exceed it for its own words
MAX_BYTES = 64 * 2**20
#: a batch of at least this many tokens is tagged, and at least this many new words cached, as
#: two halves in two threads: the compiled loops release the GIL, the halves write disjoint rows
#: and each sentence or word is computed as it would be alone (a thread costs ~0.1 ms)
SPLIT_TOKENS = 4096
SPLIT_WORDS = 1024


class WordCache:
    """Per-word rows for :func:`~perceptrons._jit.word_cache.tag_cached`, filled on first sight.

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
        # the vocabulary's hash table (~2.5 ms on EWT) is built in a thread of its own while this
        # one builds the conjunctions' table and filter (~4 ms; both compiled passes release the
        # GIL): a first batch call on EWT test took 0.95x the time
        vocab = _Background(features.lookup_tables)
        self.W = model.emission_weights()
        pairs, spec, hashed, n_values = features.conjunction_tables()
        n_keys = int((features.ptr_[pairs + 1] - features.ptr_[pairs]).sum())  # the conjunctions
        key_filter = loop("key_filter")(hashed, max(12, (16 * n_keys).bit_length()))  # ~16 bits a key
        # the tables go to the compiled calls as tuples made once: the check of a call's
        # arguments (perceptrons._compile.aot) passes an object it saw last time at a glance
        self.conj = (pairs, spec, n_values, hashed, key_filter)
        luts, one, attr, bias, withhold, self.ks, slot = features.one_part_tables()
        self._one_part = (luts, one, attr, bias, withhold, slot)  # word_emissions' tables
        self._known = (
            np.ascontiguousarray(features.type_table_, dtype=np.int32),
            np.ascontiguousarray(features.type_counts_, dtype=np.int32),
            features.rare_count,
        )
        trans = np.ascontiguousarray(model.coef_trans_, dtype=np.float64)
        trans2 = none_if_empty(np.ascontiguousarray(model.coef_trans2_, dtype=np.float64))
        self.decoding = (
            trans,
            loop("column_maxima")(trans),  # the decoder's bound, once per model rather than per call
            trans2,
            np.ascontiguousarray(model.coef_init_, dtype=np.float64),
            np.ascontiguousarray(model.coef_final_, dtype=np.float64),
            decoder_code(model.decoder),
        )
        self.names = model.classes_.tolist()
        self.name_objects = np.array(self.names, dtype=object)  # a batch's tags in one take
        self._table_bytes = table_bytes(trans.shape[0], False, trans2 is not None)
        self._lock = threading.Lock()
        self._state = self._empty()
        self._vocab = vocab.result()

    def _empty(self):
        """A cache without words: rows 0 and 1 are BOS and EOS (every attribute is the marker)."""
        fm = self.features
        rows = _Rows(64, self.ks.shape[0], self.W.shape[1], fm.type_table_.shape[1])
        rows.attrs[0], rows.attrs[1] = fm.vocab_[BOS], fm.vocab_[EOS]
        loop("word_emissions")(rows.attrs[:2], rows.rare[:2], *self._one_part, self.W, rows.emit[:2])
        rows.n = 2
        return rows

    def batches(self, lengths):
        """``(lo, hi)`` runs of sentences (of these ``lengths``) whose tokens' rows fit in
        :data:`MAX_BYTES` together: a batch's new words are cached all at once, and with a
        large tag set a row is large (1,000 tags: 40 kB a word, 1 GB for EWT's 25,000 test
        tokens in one call).  A sentence longer than that is a run of its own.
        """
        per_run = max(1, MAX_BYTES // self._state.row_bytes)
        lo, tokens = 0, 0
        for i, n in enumerate(lengths.tolist()):
            if tokens and tokens + n > per_run:
                yield lo, i
                lo, tokens = i, 0
            tokens += n
        yield lo, len(lengths)

    def rows(self, words):
        """The cache rows of the words, adding those never seen.

        Parameters
        ----------
        words : list of str

        Returns
        -------
        rows : ndarray of int64, shape (n,)
        state : the cache arrays those rows index (a later call may replace them)

        Raises
        ------
        PerceptronsTypeError
            For a word that is not a str.
        """
        state = self._state
        found = None  # an empty cache (a first call) holds none of the words: straight to adding
        if state.index:
            get = state.index.get
            try:
                found = [get(w, -1) for w in words]
            except TypeError:  # an unhashable "word"
                pass
        if found is None or -1 in found:
            state = self._add(words)
            # no list in between: over EWT test's 25,094 tokens 1.2 ms against 2.3
            return np.fromiter(map(state.index.__getitem__, words), dtype=np.int64, count=len(words)), state
        return np.array(found, dtype=np.int64), state

    def _add(self, words):
        """Add the new words; returns the state that holds them all (published as ``_state``)."""
        with self._lock:  # rows are numbered in order: two threads must not take the same ones
            state = self._state
            try:
                new = [w for w in dict.fromkeys(words) if w not in state.index]
            except TypeError:  # an unhashable "word"
                new = words
            # the words already cached are str: only the new ones need the check, which joining
            # them makes (join takes str only)
            try:
                text = "".join(new)
            except TypeError:
                bad = next(w for w in new if not isinstance(w, str))
                raise PerceptronsTypeError(  # a TypeError, as NLTK raises for it
                    f"a sentence must be a list of word strings; found a word of type {type(bad).__name__}"
                ) from None
            if (state.n + len(new)) * state.row_bytes > MAX_BYTES:
                state = self._empty()
                new = list(dict.fromkeys(words))
                text = "".join(new)
            if new:
                lo = state.n
                state = state.grown(lo + len(new))
                if len(new) >= SPLIT_WORDS:
                    h = len(new) // 2
                    _in_two(
                        lambda: self._write(new[:h], "".join(new[:h]), state, lo),
                        lambda: self._write(new[h:], "".join(new[h:]), state, lo + h),
                    )
                else:
                    self._write(new, text, state, lo)
                if self.tagdict:
                    tags = np.array([self.tagdict.get(w, "") for w in new])
                    state.forced[lo : lo + len(new)] = self.model.forced_indices(tags, len(new))
                # rows written before they are named: a reader of this state never sees a row unwritten
                state.index.update(zip(new, range(state.n, state.n + len(new))))
                state.n += len(new)
            self._state = state
            return state

    def _write(self, new, text, state, lo):
        """Write rows ``lo…`` of ``state`` for the ``new`` words (``text``, joined): one compiled
        call (:func:`~perceptrons._jit.word_cache.cache_words`).  Python makes the cluster
        attributes, and the lower case and flags of the words that are not ASCII, all from the
        words' composed form (:func:`~perceptrons.structured.words.composed`), as in training."""
        fm = self.features
        if not text.isascii():
            new = composed(new)
            text = "".join(new)
        raw = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
        lengths = np.fromiter(map(len, new), dtype=np.int64, count=len(new))
        lower, parts = unicode_parts(new, ascii_only=text.isascii())
        loop("cache_words")(
            raw,
            lengths,
            lower,
            parts,
            fm.cluster_attribute_ids(new),
            self._vocab,
            self._known,
            self._one_part,
            self.W,
            state.target,
            lo,
        )

    def tag(self, rows, state, offsets, use_tagdict=True):
        """Tag indices (n_tokens,) int64 of the sentences ``offsets`` (n_sentences + 1,) over
        ``rows`` of ``state`` (both as :meth:`rows` returns them); ``use_tagdict=False``: the
        tag dictionary's words are not forced to their tag."""
        out = np.empty(rows.shape[0], dtype=np.int64)
        trans, trans2 = self.decoding[0], self.decoding[2]
        if rows.shape[0] * self._table_bytes >= 2**26:  # else no sequence can need 64 MiB (one sentence: no call)
            check_tables(offsets, trans.shape[0], False, trans2 is not None)
        cached = _cached(state, use_tagdict)
        args = (self.ks, cached, self.conj, self.W, self.decoding, out)
        if rows.shape[0] >= SPLIT_TOKENS:
            _by_sentences(loop("tag_cached"), rows, offsets, args)
            return out
        loop("tag_cached")(rows, offsets, *args)
        return out

    def scores(self, rows, state, offsets, use_tagdict=True):
        """The emission scores (n_tokens, n_classes) that :meth:`tag` decodes, bit for bit;
        ``use_tagdict=False``: the tag dictionary's words are not forced to their tag."""
        from perceptrons._jit.word_cache import scores_cached  # not compiled ahead: a rarer path

        out = np.empty((rows.shape[0], self.W.shape[1]))
        cached = _cached(state, use_tagdict)
        _by_sentences(scores_cached, rows, offsets, (self.ks, cached, self.conj, self.W, out))
        return out


def _by_sentences(kernel, rows, offsets, args):
    """``kernel(rows, offsets, *args)``, which writes each sentence's tokens of its output in
    ``args``; a batch of :data:`SPLIT_TOKENS` tokens or more as two runs of sentences, one a
    thread."""
    n = offsets.shape[0] - 1
    if rows.shape[0] < SPLIT_TOKENS or n < 2:
        kernel(rows, offsets, *args)
        return
    mid = min(max(int(np.searchsorted(offsets, offsets[-1] // 2)), 1), n - 1)  # about half the tokens
    _in_two(lambda: kernel(rows, offsets[: mid + 1], *args), lambda: kernel(rows, offsets[mid:], *args))


def _in_two(first, second):
    """``first()`` in a thread of its own while this one runs ``second()``; both have ended when
    this returns (an error in either is raised, ``second``'s first)."""
    other = _Background(first)
    try:
        second()
    finally:
        other.wait()
    other.result()


def _cached(state, use_tagdict):
    """``state.cached`` as the compiled loops read it; ``use_tagdict=False``: with no word's tag
    fixed (its ``forced`` column without the tag dictionary)."""
    if use_tagdict:
        return state.cached
    return (*state.cached[:3], np.full(state.forced.shape[0], -1, dtype=np.int64))


class _Background(threading.Thread):
    """``fn()`` computed in a thread of its own; :meth:`result` waits for it (and raises what it raised).

    A :class:`concurrent.futures.Future` without its module: importing ``concurrent.futures``
    takes ~1.5 ms, about what the thread saves a tagger's first call.
    """

    def __init__(self, fn):
        super().__init__(daemon=True)
        self._fn, self._out, self._error = fn, None, None
        try:
            self.start()
        except RuntimeError:  # no thread to be had (a process at its limit): computed here, now
            self.run()

    def run(self):
        try:
            self._out = self._fn()
        except BaseException as exc:  # handed to the thread that waits
            self._error = exc

    def wait(self):
        """Until ``fn`` has ended (at once when it ran in the caller's thread)."""
        if self.ident is not None:
            self.join()

    def result(self):
        self.wait()
        if self._error is not None:
            raise self._error
        return self._out


class _Rows:
    """The cached arrays, one row per word, and the word → row index.

    Rows past ``n`` are written before the index names them, and a full set of arrays is
    replaced, not resized: a reader holding this object always reads rows that are written.
    """

    def __init__(self, capacity, n_slots, n_classes, n_attributes):
        self.index, self.n = {}, 0
        self.emit = np.zeros((capacity, n_slots, n_classes))
        self.attrs = np.full((capacity, n_attributes), -1, dtype=np.int32)
        self.rare = np.zeros(capacity, dtype=np.bool_)
        self.forced = np.full(capacity, -1, dtype=np.int64)
        self.row_bytes = self.emit[0].nbytes + self.attrs[0].nbytes + 9
        # the arrays as the compiled loops take them: read when tagging, written when adding
        self.cached = (self.emit, self.attrs, self.rare, self.forced)
        self.target = (self.attrs, self.rare, self.emit)

    def grown(self, n):
        """This cache if it has room for ``n`` rows, else a copy with twice the room or more."""
        cap = self.emit.shape[0]
        if n <= cap:
            return self
        while cap < n:
            cap *= 2
        out = _Rows(cap, self.emit.shape[1], self.emit.shape[2], self.attrs.shape[1])
        out.n, out.index = self.n, dict(self.index)
        for name in ("emit", "attrs", "rare", "forced"):
            getattr(out, name)[: self.n] = getattr(self, name)[: self.n]
        return out
