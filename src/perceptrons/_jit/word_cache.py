"""Compiled loops of the tagger's word cache (:mod:`perceptrons.structured._word_cache`): a
word's summed one-part weight rows, the rows of a batch's new words in one call, and the tagging
of sentences given as cache rows.

Arrays in, arrays out.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit.arrays import copy_into
from perceptrons._jit.decode import decode_one, longest, present, workspace
from perceptrons._jit.features import _find, _may_hold, _slot
from perceptrons._jit.prefetch import prefetch
from perceptrons._jit.word_attributes import lookup_words


@njit(**NJIT_STRICT)
def word_emissions(attrs, rare, luts, one, attr, bias, withhold, slot, W, out):
    """``out[r, q]`` (n_words, n_offsets, T) = Σ of ``W[luts[one[i], attrs[r, attr[i]]]]`` over
    the one-part templates i whose offset is the q-th, in template order; the bias reads value 0,
    absent values and features add nothing, and templates flagged in ``withhold`` are skipped
    for the words flagged in ``rare``.

    The sums of :func:`perceptrons._jit.structured.type_emissions` (same additions in the same
    order), one word per row, as the word cache keeps them.  A word's ~45 lookups land in a
    table of several MB and point into a weight matrix of as many: the next word's lookups and
    this word's weight rows are prefetched before the sums start (1.8–2.4x faster over EWT's
    20,000 training words, ``benchmarks/bench_tag_loops.py``).
    """
    T = W.shape[1]
    n_words = attrs.shape[0]
    cols = np.empty(one.shape[0], dtype=np.int64)
    for r in range(n_words):
        if r + 1 < n_words:
            for i in range(one.shape[0]):
                v = 0 if bias[i] else attrs[r + 1, attr[i]]
                if v >= 0:
                    prefetch(luts[one[i]], v)
        for i in range(one.shape[0]):
            c = -1
            if not (withhold[i] and rare[r]):
                v = 0 if bias[i] else attrs[r, attr[i]]
                if v >= 0:
                    c = luts[one[i], v]
                    if c >= 0:
                        prefetch(W, c)
            cols[i] = c
        for q in range(out.shape[1]):
            for s in range(T):
                out[r, q, s] = 0.0
        for i in range(one.shape[0]):
            c = cols[i]
            if c >= 0:
                for s in range(T):
                    out[r, slot[i], s] += W[c, s]


@njit(**NJIT_STRICT)
def add_words(found, unseen, known, one_part, W, target, lo):
    """Write the word-cache rows ``lo…`` of ``found.shape[0]`` new words: attribute ids, rare flag
    and :func:`word_emissions`.

    ``found`` (n,) is each word's row of the training type table, −1 for a word never seen,
    whose attribute ids are the next row of ``unseen`` (n_unseen, n_attributes).  ``known =
    (type_table, type_counts, rare_count)``: the training types' attribute ids and counts; a
    word is rare when seen fewer than ``rare_count`` times (a word never seen always, unless
    ``rare_count`` is 0).  ``one_part = (luts, one, attr, bias, withhold, slot)``: the tables of
    :func:`word_emissions`.  ``target = (attrs, rare, emit)``: the cache's rows written.  One
    compiled call per miss: a sentence tagged alone that meets a new word pays one dispatch
    here, not a numpy call per array.
    """
    type_table, type_counts, rare_count = known
    luts, one, attr, bias, withhold, slot = one_part
    # by index, not unpacked: see perceptrons._jit
    attrs = target[0]
    rare = target[1]
    emit = target[2]
    n = found.shape[0]
    u = 0
    for r in range(n):
        f = found[r]
        if f >= 0:
            copy_into(attrs[lo + r], type_table[f])
            rare[lo + r] = type_counts[f] < rare_count
        else:
            copy_into(attrs[lo + r], unseen[u])
            u += 1
            rare[lo + r] = rare_count > 0
    word_emissions(attrs[lo : lo + n], rare[lo : lo + n], luts, one, attr, bias, withhold, slot, W, emit[lo : lo + n])


@njit(**NJIT_STRICT)
def utf8_bounds(words, lengths):
    """Where each string starts in ``words`` (UTF-8) and where the last ends, (n + 1,), from the
    strings' lengths in characters: a character starts at every byte that is not a UTF-8
    continuation byte (``0b10xxxxxx``).  Lone surrogates encoded with ``surrogatepass`` are
    three-byte sequences like any other character."""
    bounds = np.empty(lengths.shape[0] + 1, dtype=np.int64)
    bounds[0] = 0
    p = 0
    end = words.shape[0]
    for r in range(lengths.shape[0]):
        for _ in range(lengths[r]):
            p += 1
            while p < end and (words[p] & 0xC0) == 0x80:
                p += 1
        bounds[r + 1] = p
    return bounds


@njit(**NJIT_STRICT)
def cache_words(words, lengths, lower, parts, given, vocab, known, one_part, W, target, lo):
    """:func:`~perceptrons._jit.word_attributes.lookup_words` then :func:`add_words`, in one call.

    ``words`` are the new words' UTF-8 bytes joined, ``lengths`` (n,) their lengths in
    characters, ``lower`` and ``parts`` the lower case and flags of those that are not ASCII
    (:func:`perceptrons.structured.words.unicode_parts`), ``given`` (n, k) the ids of their last
    k attributes, made by Python (the cluster ones; k = 0 without clusters).  ``vocab = (row_of,
    table, vocab, starts, ends)``: the vocabulary's tables that ``lookup_words`` reads;
    ``known``, ``one_part``, ``W``, ``target`` and ``lo`` as :func:`add_words` takes them.  A
    sentence tagged alone meets ~3 new words.  For 3 words, 2 of them unseen, this call took
    8.5 µs, encoding included, where the lookup in Python and a second compiled call for the
    sums took 17.5 µs (one process, interleaved).
    """
    row_of, table, strings, starts, ends = vocab
    n = lengths.shape[0]
    found = np.empty(n, dtype=np.int64)
    ids = np.empty((n, known[0].shape[1]), dtype=np.int64)
    lookup_words(words, utf8_bounds(words, lengths), lower, parts, row_of, table, strings, starts, ends, found, ids)
    k = given.shape[1]
    u = 0
    for r in range(n):
        if found[r] < 0:  # the u-th unseen word: lookup_words made its first columns
            for j in range(k):
                ids[u, ids.shape[1] - k + j] = given[r, j]
            u += 1
    add_words(found, ids, known, one_part, W, target, lo)


@njit(**NJIT_STRICT)
def _word_row(rows, lo, n, j):
    """Cache row of the word at position j of the sentence starting at ``lo``: rows 0 and 1 of
    the word cache are BOS and EOS."""
    if j < 0:
        return 0
    if j >= n:
        return 1
    return rows[lo + j]


@njit(**NJIT_STRICT)
def cached_emissions(rows, lo, n, ks, cached, flat_emit, conj, shift, W, out, cols):
    """Emission scores ``out[:n]`` of one sentence, the tokens given by their word-cache rows.

    ``cached = (word_emit, attrs, rare, forced)``, the cache's rows, and ``conj = (pairs, spec,
    n_values, hashed, filt)``, the conjunctions' tables.  ``word_emit[r, q]`` (n_rows, len(ks), T) is the sum of the one-part templates' weight rows
    of word r at offset ``ks[q]`` (:func:`perceptrons._jit.structured.type_emissions`), kept
    from call to call (``flat_emit`` is the same array flattened); ``attrs`` (n_rows,
    n_attributes) its attribute ids for the conjunctions ``pairs`` (looked up in ``hashed`` as
    in :func:`~perceptrons._jit.features.token_features`, after the filter ``filt`` of
    :func:`~perceptrons._jit.features.key_filter`, whose bit of a key is its hash shifted right
    by ``shift``: most are absent), ``rare`` (n_rows,) whether it gets no identity features,
    ``forced`` (n_rows,) its fixed tag or −1.  ``cols`` (≥ n, len(pairs)) is scratch.

    The additions are those of :func:`perceptrons._jit.structured.factored_emissions` in the
    same order (offsets, then conjunctions in template order), so the scores are identical.
    They come last.  The sentence's keys are computed in a first pass (their table slots
    prefetched), probed in a second (the weight rows found prefetched), so that the cache misses
    of a whole sentence overlap instead of each waiting for the one before: 1.4–1.8x the
    token-by-token loop on EWT test, of which the prefetches give a few per cent
    (``benchmarks/bench_tag_loops.py``, issue 15.3).
    """
    word_emit, attrs, rare, forced = cached
    pairs, spec, n_values, hashed, filt = conj
    T = W.shape[1]
    nt = spec.shape[0]
    P = pairs.shape[0]
    mask = hashed.shape[0] - 1
    row_len = word_emit.shape[1] * T
    for i in range(n):
        me = rows[lo + i]
        for x in range(0, row_len, 8):  # the word's cached sums: 8 float64 to a cache line
            prefetch(flat_emit, me * row_len + x)
        for p in range(P):
            t = pairs[p]
            key = -1
            if not (spec[t, 5] == 1 and rare[me]):
                v = attrs[_word_row(rows, lo, n, i + spec[t, 2]), spec[t, 1]]
                v2 = attrs[_word_row(rows, lo, n, i + spec[t, 4]), spec[t, 3]]
                if v >= 0 and v2 >= 0:
                    key = (v * n_values + v2) * nt + t
                    if _may_hold(filt, shift, key):
                        prefetch(hashed, _slot(key, mask))
                    else:
                        key = -1
            cols[i, p] = key
    for i in range(n):
        for p in range(P):
            if cols[i, p] >= 0:
                c = _find(hashed, cols[i, p])
                cols[i, p] = c
                if c >= 0:
                    prefetch(W, c)
    for i in range(n):
        e = out[i]
        for t in range(T):
            e[t] = 0.0
        for q in range(ks.shape[0]):
            r = _word_row(rows, lo, n, i + ks[q])
            for t in range(T):
                e[t] += word_emit[r, q, t]
        for p in range(P):
            c = cols[i, p]
            if c >= 0:
                for s in range(T):
                    e[s] += W[c, s]
        me = rows[lo + i]
        if forced[me] >= 0:
            for t in range(T):
                if t != forced[me]:
                    e[t] = -np.inf


@njit(**NJIT_STRICT)
def _filter_shift(filt):
    """The right shift of a key's hash that gives its bit in ``filt``: 2^k bits held in
    2^(k − 6) words, shift = 64 − k."""
    shift = 58
    words = filt.shape[0]
    while words > 1:
        words >>= 1
        shift -= 1
    return shift


@njit(**NJIT_STRICT)
def scores_cached(rows, offsets, ks, cached, conj, W, out):
    """Emission scores ``out`` (n_tokens, T) of the sentences ``offsets`` of the word-cache
    ``rows``: what :func:`tag_cached` decodes, bit for bit (:func:`cached_emissions`, whose
    ``cached`` and ``conj`` these are), for the tags' probabilities
    (:func:`perceptrons._jit.confidence.confidences`)."""
    maxlen = longest(offsets)
    cols = np.empty((maxlen, conj[0].shape[0]), dtype=np.int64)
    flat_emit = cached[0].reshape(-1)
    shift = _filter_shift(conj[4])
    for s in range(offsets.shape[0] - 1):
        lo = offsets[s]
        n = offsets[s + 1] - lo
        cached_emissions(rows, lo, n, ks, cached, flat_emit, conj, shift, W, out[lo:], cols)


@njit(**NJIT_STRICT)
def tag_cached(rows, offsets, ks, cached, conj, W, decoding, out):
    """Tag indices ``out`` (n_tokens,) of the sentences ``offsets`` of the word-cache ``rows``:
    :func:`cached_emissions` (whose ``cached`` and ``conj`` these are), then the decoder of
    :func:`perceptrons._jit.structured.decode_all` (plain transitions: a model with edge
    features is not tagged here).  ``decoding = (trans, top, trans2, start, stop, decoder)``:
    ``top`` is :func:`~perceptrons._jit.decode.column_maxima` of ``trans``, computed once by the
    cache: with 1,000 tags, 8 MB read at every call of a sentence tagged alone.

    One compiled call per batch, however short: a sentence tagged on its own pays one dispatch.
    """
    trans, top, trans2, start, stop, decoder = decoding
    T = W.shape[1]
    maxlen = longest(offsets)
    _, emit, work = workspace(maxlen, T, False, present(trans2))
    path = work[4]
    plain = trans.reshape((1, T, T))  # the decoder reads the transitions in place (no T² copy a call)
    cols = np.empty((maxlen, conj[0].shape[0]), dtype=np.int64)
    flat_emit = cached[0].reshape(-1)
    shift = _filter_shift(conj[4])
    for s in range(offsets.shape[0] - 1):
        lo = offsets[s]
        n = offsets[s + 1] - lo
        if n == 0:
            continue
        cached_emissions(rows, lo, n, ks, cached, flat_emit, conj, shift, W, emit, cols)
        decode_one(decoder, emit, n, plain, False, trans2, start, stop, work, top)
        for r in range(n):
            out[lo + r] = path[r]
