"""Compiled loops of the structured (sequence) perceptron: emissions, decoding a corpus, a training
epoch (the decoders themselves are in :mod:`perceptrons._jit.decode`).

Arrays in, arrays out.  Conventions shared by every function here:

* token features ``X`` are CSR rows in the operand convention of :mod:`perceptrons._jit.rows`
  (``(data, indices, indptr)``, or ``(indices, indptr)`` when every value is 1), read through
  its ``row_*`` functions: numba compiles one loop per storage, none branches on "binary";
* a sequence ``s`` is the token range ``offsets[s]:offsets[s + 1]``;
* weights: ``W`` (n_features, T) emission weights, one row per feature so that scoring a token
  reads contiguous memory; ``trans`` (T, T) with ``trans[a, b]`` the weight of tag ``a`` followed
  by tag ``b``; ``start`` (T,) and ``stop`` (T,) the transitions from the start / to the stop state;
* optional binary *edge* features ``Xe == (eindices, eindptr)`` (CSR, n_tokens rows) with weights
  ``E`` (n_edge_features, T, T): token i's edge features add ``E[f]`` to the transition from
  token i − 1 into token i (lexicalised transitions); ``E`` of shape (0, T, T), or None, turns
  them off.  The library passes None (and a first-order model's ``trans2`` as None): numba then
  compiles the loops without the code that reads them (:mod:`perceptrons._jit.decode`);
* ``forced`` (n_tokens,) holds a tag index that a token must take, or −1 (empty array: none);
* a tuple of arrays that a loop writes is read by index, never unpacked (see
  :mod:`perceptrons._jit`).

All loops use the strict flags: every sum is taken in a fixed order, so the pure-Python
oracles of ``tests/reference.py`` reproduce scores and weights exactly.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit.arrays import copy_into
from perceptrons._jit.decode import column_maxima, decode_one, longest, present, workspace
from perceptrons._jit.rows import prefetch_row, row_axpy_col, row_scores


@njit(**dict(NJIT_STRICT, inline="always"))  # one use: not worth a compilation of its own
def _force(forced, i, row):
    """A forced token scores −inf under every tag but its own."""
    if forced.shape[0] > 0 and forced[i] >= 0:
        for t in range(row.shape[0]):
            if t != forced[i]:
                row[t] = -np.inf


# the largest float64: ``not abs(s) <= _FLOAT_MAX`` holds for NaN and ±inf alike
_FLOAT_MAX = np.finfo(np.float64).max


@njit(**NJIT_STRICT)
def emissions(X, lo, hi, W, forced, out):
    """``out[i − lo] = x_i · W`` (one score per tag) for the tokens i ∈ [lo, hi), forced tokens
    applied.  Returns False when a token's scores (before forcing) are not finite, or sum past
    the largest float64: x · W overflowed, and a decoder would compare inf and NaN."""
    zero = np.empty(W.shape[1])  # np.empty and a loop: np.zeros would compile once more
    for t in range(zero.shape[0]):
        zero[t] = 0.0
    ok = True
    for i in range(lo, hi):
        row = out[i - lo]
        row_scores(X, i, W, zero, row)
        total = 0.0
        for t in range(row.shape[0]):
            total += row[t]
        ok = ok and abs(total) <= _FLOAT_MAX
        _force(forced, i, row)
    return ok


@njit(**NJIT_STRICT)
def _prefetch_sequence(X, offsets, s, W):
    """Start loading the weight rows of sequence ``s``'s features.

    A token's emission scores gather ~40 rows of W (T weights each, from a matrix of several
    MB); loaded one row after another they wait on each other's cache misses.  Asked for one
    sequence ahead, they overlap the decoding of the current one (an EWT epoch measured 1.4–1.6x
    faster, ``benchmarks/bench_tag_loops.py``, issue 15.3).  Dense rows: nothing (they stream).
    """
    for i in range(offsets[s], offsets[s + 1]):
        prefetch_row(X, i, W)


@njit(**NJIT_STRICT)
def type_emissions(type_cols, slot, withhold, rare, W, out):
    """Scores that depend on one word type only, summed per type and per offset.

    A one-part template reads one attribute of the word at a fixed offset, so its feature — and
    its weight row — is a function of that word's type: ``out[slot[t], r] += W[type_cols[t, r]]``
    over the one-part templates t (``type_cols`` (n_templates, n_rows), −1: absent), where
    ``slot[t]`` numbers the template's offset.  Templates flagged in ``withhold`` are skipped for
    the rows flagged in ``rare`` (rare words have no identity features).  Computed for the few
    thousand types of a text, this replaces a read per template for every token.
    """
    T = W.shape[1]
    for t in range(type_cols.shape[0]):
        q = slot[t]
        for r in range(type_cols.shape[1]):
            c = type_cols[t, r]
            if c >= 0 and not (withhold[t] and rare.shape[0] > 0 and rare[r]):
                for s in range(T):
                    out[q, r, s] += W[c, s]


@njit(**NJIT_STRICT)
def factored_emissions(tok, pos, slen, ks, per_type, C, W, forced, out):
    """``out[i]`` = Σ over offsets k of ``per_type[q, row of token i + k]`` (BOS/EOS rows
    outside the sentence) + Σ of ``W[f]`` over the token's remaining (conjunction) features f.

    ``per_type`` is :func:`type_emissions`'s output for offsets ``ks``; ``C`` the conjunction
    features, binary CSR ``(indices, indptr)``; forced tokens as in :func:`emissions`.
    """
    T = W.shape[1]
    bos = per_type.shape[1] - 2
    part = np.empty(T)
    for i in range(tok.shape[0]):
        for t in range(T):
            part[t] = 0.0
        for q in range(ks.shape[0]):
            j = pos[i] + ks[q]
            row = bos if j < 0 else (bos + 1 if j >= slen[i] else tok[i + ks[q]])
            for t in range(T):
                part[t] += per_type[q, row, t]
        row_scores(C, i, W, part, out[i])
        _force(forced, i, out[i])


@njit(**NJIT_STRICT)
def transitions(Xe, lo, n, trans, E, out):
    """Lexicalised transitions: ``out[r] = trans + Σ_f E[f]`` over the edge features f of token lo + r.

    The edge features of a token score the pair (tag of the previous token, its own tag), so a
    transition can depend on the words on both sides of it.
    """
    eindices, eindptr = Xe
    T = trans.shape[0]
    for r in range(1, n):
        for a in range(T):
            for b in range(T):
                out[r, a, b] = trans[a, b]
        for k in range(eindptr[lo + r], eindptr[lo + r + 1]):
            f = eindices[k]
            for a in range(T):
                for b in range(T):
                    out[r, a, b] += E[f, a, b]


@njit(**NJIT_STRICT)
def _lexicalise(Xe, lo, n, trans, E, out):
    """:func:`transitions` into ``out`` when there are edge features: ``E`` not None, not empty.
    The test is written on the argument itself, where numba prunes the branch on None."""
    if E is not None and E.shape[0] > 0:
        transitions(Xe, lo, n, trans, E, out)


@njit(**NJIT_STRICT)
def decode_all(X, Xe, offsets, forced, weights, decoder, out, scores):
    """Decode every sequence; ``out`` (n_tokens,) receives the tag indices.  Returns −1, or the
    first sequence whose emission scores overflowed (see :func:`emissions`): decoding stops there.

    ``weights = (W, trans, E, trans2, start, stop)`` (``E`` and ``trans2`` None when absent).
    ``Xe`` are the binary edge features (CSR, n_tokens rows) scored by ``E``
    (n_edge_features, T, T); with ``E`` empty the transitions are ``trans`` everywhere.
    ``scores`` (n_tokens, T), when not empty, are the tokens' emission scores already computed
    (see :func:`factored_emissions`), and the CSR features are not read.
    """
    W, trans, E, trans2, start, stop = weights
    T = W.shape[1]
    n_seq = offsets.shape[0] - 1
    lex = present(E)
    tr, emit, work = workspace(longest(offsets), T, lex, present(trans2))
    path = work[4]
    copy_into(tr[0], trans)
    top = column_maxima(trans)
    if n_seq > 0 and scores.shape[0] == 0:
        _prefetch_sequence(X, offsets, np.int64(0), W)  # not a literal 0: one specialisation
    for s in range(n_seq):
        lo = offsets[s]
        n = offsets[s + 1] - lo
        if n == 0:
            continue
        _lexicalise(Xe, lo, n, trans, E, tr)
        if scores.shape[0] > 0:
            decode_one(decoder, scores[lo : lo + n], n, tr, lex, trans2, start, stop, work, top)
        else:
            if not emissions(X, lo, lo + n, W, forced, emit):
                return s
            if s + 1 < n_seq:  # as in train_epoch: the next sequence's rows load during decoding
                _prefetch_sequence(X, offsets, s + 1, W)
            decode_one(decoder, emit, n, tr, lex, trans2, start, stop, work, top)
        for r in range(n):
            out[lo + r] = path[r]
    return np.int64(-1)


@njit(**NJIT_STRICT)
def _update(X, Xe, lo, n, y, path, weights, sums, c, averaged):
    """Φ(gold) − Φ(predicted), added to the weights and (times c) to the averaging sums.

    ``weights = (W, trans, E, trans2, start, stop)`` and ``sums`` the same six for the
    averaging sums (``E`` and ``trans2`` None when absent, their sums then unread).  Only the
    parts where the two sequences differ are touched: identical tokens and identical tag pairs
    cancel exactly.  Each array receives its additions in the order of the tokens.
    """
    # by index, one name a statement, not unpacked: see perceptrons._jit
    W = weights[0]
    trans = weights[1]
    start = weights[4]
    stop = weights[5]
    U = sums[0]
    Utrans = sums[1]
    Ustart = sums[4]
    Ustop = sums[5]
    for r in range(n):
        g = y[lo + r]
        p = path[r]
        if g == p:
            continue
        # the gold column +x, then the predicted one −x: one call site per array, since each
        # inlined row update is typed and compiled again (W and U see the same order as before)
        for t, a in ((g, 1.0), (p, -1.0)):
            row_axpy_col(X, lo + r, a, W, t)
            if averaged:
                row_axpy_col(X, lo + r, a * c, U, t)
    g0 = y[lo]
    p0 = path[0]
    if g0 != p0:
        start[g0] += 1.0
        start[p0] -= 1.0
        if averaged:
            Ustart[g0] += c
            Ustart[p0] -= c
    for r in range(1, n):
        ga = y[lo + r - 1]
        gb = y[lo + r]
        pa = path[r - 1]
        pb = path[r]
        if ga != pa or gb != pb:
            trans[ga, gb] += 1.0
            trans[pa, pb] -= 1.0
            if averaged:
                Utrans[ga, gb] += c
                Utrans[pa, pb] -= c
    _update_edges(Xe, lo, n, y, path, weights[2], sums[2], c, averaged)
    _update_second(lo, n, y, path, weights[3], sums[3], c, averaged)
    gl = y[lo + n - 1]
    pl = path[n - 1]
    if gl != pl:
        stop[gl] += 1.0
        stop[pl] -= 1.0
        if averaged:
            Ustop[gl] += c
            Ustop[pl] -= c


@njit(**NJIT_STRICT)
def _update_edges(Xe, lo, n, y, path, E, UE, c, averaged):
    """The edge features' part of :func:`_update`: where the gold and predicted tag pairs
    differ, each edge feature of the token raises the gold pair's ``E`` and lowers the
    predicted one's."""
    if E is not None and E.shape[0] > 0:  # as written: numba prunes on None
        eindices, eindptr = Xe
        for r in range(1, n):
            ga = y[lo + r - 1]
            gb = y[lo + r]
            pa = path[r - 1]
            pb = path[r]
            if ga != pa or gb != pb:
                for k in range(eindptr[lo + r], eindptr[lo + r + 1]):
                    f = eindices[k]
                    E[f, ga, gb] += 1.0
                    E[f, pa, pb] -= 1.0
                    if averaged:
                        UE[f, ga, gb] += c
                        UE[f, pa, pb] -= c


@njit(**NJIT_STRICT)
def _update_second(lo, n, y, path, trans2, Utrans2, c, averaged):
    """The second-order part of :func:`_update`: the gold tag triples raised, the predicted
    ones lowered, where they differ."""
    if trans2 is not None and trans2.shape[0] > 0:  # as written: numba prunes on None
        for r in range(2, n):
            g0, g1, g2 = y[lo + r - 2], y[lo + r - 1], y[lo + r]
            p0, p1, p2 = path[r - 2], path[r - 1], path[r]
            if g0 != p0 or g1 != p1 or g2 != p2:
                trans2[g0, g1, g2] += 1.0
                trans2[p0, p1, p2] -= 1.0
                if averaged:
                    Utrans2[g0, g1, g2] += c
                    Utrans2[p0, p1, p2] -= c


@njit(**NJIT_STRICT)
def train_epoch(X, Xe, y, offsets, perm, forced, weights, sums, count, averaged, decoder, log):
    """One pass of Collins' perceptron over the sequences in the order ``perm``.

    Lazy averaging (Daumé's form of the timestamp trick): with c the number of sequences seen
    before the current one, an update δ is added to the weights and c·δ to ``U``; the mean of the
    weight vectors after each of the C sequences seen so far is then ``W − U / C`` — so averaging
    costs only the features an update touches, never a copy of the weights.

    ``weights = (W, trans, E, trans2, start, stop)`` and ``sums = (U, Utrans, UE, Utrans2,
    Ustart, Ustop)``, as :func:`_update` takes them.  Edge features (``Xe``, weights ``E`` of
    shape (n_edge_features, T, T), or None) make the transitions lexicalised, see
    :func:`transitions`; a ``trans2`` (T, T, T), not None, adds second-order (tag triple) weights.

    ``log``: None, or ``(updates, paths)`` that receive every update, so that another copy of
    the weights can make it too (:func:`replay`): row j of ``updates`` (int64, a row per
    sequence of ``perm``) holds the j-th updated sequence, the visit count it was updated at,
    and where in ``paths`` (int64, room for the tokens of ``perm``'s sequences) the tags it
    was made against start.

    Returns (sequences with a mistake, tokens with a wrong tag); (−1 − s, 0) when the emission
    scores of sequence s overflowed (see :func:`emissions`): the pass stops there.
    """
    W, trans, E, trans2, start, stop = weights
    T = W.shape[1]
    maxlen = np.int64(1)  # not a literal 1: numba would compile workspace once more for it
    for q in range(perm.shape[0]):
        s = perm[q]
        maxlen = max(maxlen, offsets[s + 1] - offsets[s])
    lex = present(E)
    tr, emit, work = workspace(maxlen, T, lex, present(trans2))
    path = work[4]
    # without edge features the decoder reads the transitions themselves, through a view (a
    # copy a sequence was T² reads and writes: 8 MB for 1,000 tags), and an upper bound of
    # their column maxima, raised where an update raises a transition
    plain = trans.reshape((1, T, T))
    top = column_maxima(trans)
    mistakes = 0
    wrong_tokens = 0
    logged = 0
    if perm.shape[0] > 0:
        _prefetch_sequence(X, offsets, perm[0], W)
    for q in range(perm.shape[0]):
        s = perm[q]
        lo = offsets[s]
        n = offsets[s + 1] - lo
        c = float(count[0])
        count[0] += 1
        if n == 0:
            continue
        if not emissions(X, lo, lo + n, W, forced, emit):
            return -1 - s, 0
        _lexicalise(Xe, lo, n, trans, E, tr)
        if q + 1 < perm.shape[0]:  # its weight rows load while this sequence is decoded
            _prefetch_sequence(X, offsets, perm[q + 1], W)
        decode_one(decoder, emit, n, tr if lex else plain, lex, trans2, start, stop, work, top)
        wrong = 0
        for r in range(n):
            if path[r] != y[lo + r]:
                wrong += 1
        if wrong:
            if log is not None:
                log[0][mistakes, 0] = s
                log[0][mistakes, 1] = np.int64(c)
                log[0][mistakes, 2] = logged
                for r in range(n):
                    log[1][logged + r] = path[r]
                logged += n
            mistakes += 1
            wrong_tokens += wrong
            _update(X, Xe, lo, n, y, path, weights, sums, c, averaged)
            for r in range(1, n):  # the gold transitions are the ones an update raises
                a, b = y[lo + r - 1], y[lo + r]
                top[b] = max(top[b], trans[a, b])
    return mistakes, wrong_tokens


@njit(**NJIT_STRICT)
def replay(X, Xe, y, offsets, updates, n_updates, paths, weights, sums, averaged):
    """Make the first ``n_updates`` updates that :func:`train_epoch` logged (on another copy of
    the weights) on these weights and sums, in the order they were made: each the same
    Φ(gold) − Φ(predicted) at the same visit count (:func:`_update`)."""
    for j in range(n_updates):
        s = updates[j, 0]
        c = float(updates[j, 1])
        k = updates[j, 2]
        lo = offsets[s]
        n = offsets[s + 1] - lo
        _update(X, Xe, lo, n, y, paths[k : k + n], weights, sums, c, averaged)


@njit(**NJIT_STRICT)
def nonzero_rows32(W, U, c):
    """The rows of ``W − U / c`` (of ``W`` when ``c`` is 0) that are not all zero, in float32,
    and which rows they are: :func:`lazy_average`, the rows' test and the cast in one pass.

    Each value is computed as :func:`lazy_average` computes it, in float64, then rounded once
    to float32, as ``astype`` rounds it.

    Returns
    -------
    rows : ndarray of float32, shape (W.shape[0], W.shape[1])
        The kept rows first: the caller copies ``rows[:n_kept]`` (a copy here compiled for
        ~0.3 s of the first ``tag train``).
    n_kept : int
    keep : ndarray of uint8, shape (W.shape[0],)
        1 where the row is kept: bytes rather than bools, which the caller views as bools,
        because ``np.zeros(d, np.bool_)`` alone compiled for ~0.8 s of the first ``tag train``.
    """
    d, T = W.shape
    keep = np.empty(d, dtype=np.uint8)
    out = np.empty((d, T), dtype=np.float32)
    row = np.empty(T)
    j = 0
    for i in range(d):
        nonzero = False
        for t in range(T):
            v = W[i, t] - U[i, t] / c if c != 0 else np.float64(W[i, t])
            row[t] = v
            nonzero |= v != 0
        keep[i] = nonzero
        if nonzero:
            for t in range(T):
                out[j, t] = row[t]
            j += 1
    return out, j, keep


@njit(**NJIT_STRICT)
def lazy_average(W, U, c):
    """``W − U / c`` in float64 in one pass (the final weights of :func:`train_epoch`'s averaging).

    The same IEEE operations as the numpy expression, without its temporaries.
    """
    out = np.empty(W.shape)
    Wf = W.reshape(-1)
    Uf = U.reshape(-1)
    of = out.reshape(-1)
    for i in range(Wf.shape[0]):
        of[i] = Wf[i] - Uf[i] / c
    return out
