"""Compiled loops of the structured (sequence) perceptron: emissions, decoders, a training epoch.

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
  token i − 1 into token i (lexicalised transitions); ``E`` of shape (0, T, T) turns them off;
* ``forced`` (n_tokens,) holds a tag index that a token must take, or −1 (empty array: none).

All loops use the strict flags: every sum is taken in a fixed order, so the pure-Python
oracles of ``tests/reference.py`` reproduce scores and weights exactly.
"""

import numpy as np
from numba import njit

from perceptrons._config import NJIT_STRICT
from perceptrons._jit.arrays import copy_into
from perceptrons._jit.rows import prefetch_row, row_axpy_col, row_scores

VITERBI = 0
GREEDY = 1


@njit(**NJIT_STRICT)
def _force(forced, i, row):
    """A forced token scores −inf under every tag but its own."""
    if forced.shape[0] > 0 and forced[i] >= 0:
        for t in range(row.shape[0]):
            if t != forced[i]:
                row[t] = -np.inf


@njit(**NJIT_STRICT)
def emissions(X, lo, hi, W, forced, out):
    """``out[i − lo] = x_i · W`` (one score per tag) for the tokens i ∈ [lo, hi), forced tokens applied."""
    zero = np.zeros(W.shape[1])
    for i in range(lo, hi):
        row_scores(X, i, W, zero, out[i - lo])
        _force(forced, i, out[i - lo])


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
def viterbi(emit, n, trans, per_position, start, stop, delta, bp, path):
    """Exact best first-order path, O(n·T²); returns its score and writes ``path[:n]``.

    score(y) = start[y₀] + Σᵢ emit[i, yᵢ] + Σᵢ τᵢ[yᵢ₋₁, yᵢ] + stop[yₙ₋₁], where τᵢ is
    ``trans[i]`` when ``per_position`` (lexicalised transitions, shape (≥ n, T, T)) and
    ``trans[0]`` otherwise.
    ``delta`` (≥ n, T) holds the best prefix scores and ``bp`` (≥ n, T) the back-pointers; they are
    caller-owned buffers so that decoding a corpus allocates nothing per sentence.  Ties go to the
    lowest tag index (strict ``>``), so the path is deterministic.

    With one transition matrix, most maxima need no search (:func:`_step_bounded`).
    """
    T = trans.shape[1]
    for t in range(T):
        delta[0, t] = start[t] + emit[0, t]
    if n > 1 and not per_position:
        _step_bounded(emit, n, trans[0], delta, bp)
    else:
        for i in range(1, n):
            tr = trans[i] if per_position else trans[0]
            for t in range(T):
                _step(emit, i, tr, t, delta, bp)
    best = -np.inf
    arg = 0
    for t in range(T):
        v = delta[n - 1, t] + stop[t]
        if v > best:
            best = v
            arg = t
    path[n - 1] = arg
    for i in range(n - 1, 0, -1):
        path[i - 1] = bp[i, path[i]]
    return best


@njit(**NJIT_STRICT)
def _step(emit, i, tr, t, delta, bp):
    """``delta[i, t]`` and ``bp[i, t]``: the best predecessor of tag t at position i, searched."""
    best = -np.inf
    arg = 0
    for s in range(tr.shape[0]):
        v = delta[i - 1, s] + tr[s, t]
        if v > best:
            best = v
            arg = s
    delta[i, t] = best + emit[i, t]
    bp[i, t] = arg


@njit(**NJIT_STRICT)
def _step_bounded(emit, n, tr, delta, bp):
    """Positions 1…n − 1 of :func:`viterbi` with one transition matrix ``tr``, skipping most searches.

    With p₁ the best prefix score (at tag a, the first of them) and p₂ the second best,
    every other predecessor s of tag t scores ``delta[i−1, s] + tr[s, t] ≤ p₂ + max_s tr[s, t]``:
    rounding is monotone, so the bound holds in floating point too.  When the bound is below
    a's own score, a is the one strict maximum, which the search would also return; otherwise
    (ties included) the full search runs.  A tagger is confident enough that ~90 % of the
    maxima pass (EWT, every epoch of training): a sentence's decoding took 1.8x less time.
    """
    T = tr.shape[0]
    top = np.empty(T)
    for t in range(T):
        m = tr[0, t]
        for s in range(1, T):
            m = max(m, tr[s, t])
        top[t] = m
    for i in range(1, n):
        a = 0
        p1 = delta[i - 1, 0]
        p2 = -np.inf
        for s in range(1, T):
            d = delta[i - 1, s]
            if d > p1:
                p2 = p1
                p1 = d
                a = s
            elif d > p2:
                p2 = d
        for t in range(T):
            v = p1 + tr[a, t]
            if p2 + top[t] < v:
                delta[i, t] = v + emit[i, t]
                bp[i, t] = a
            else:
                _step(emit, i, tr, t, delta, bp)


@njit(**NJIT_STRICT)
def greedy(emit, n, trans, per_position, trans2, start, stop, path):
    """Left-to-right decoding: each token takes its best tag given the previous token's choice.

    Token i scores ``emit[i, t] + τᵢ[y_{i−1}, t]`` (``start[t]`` for the first token, plus
    ``stop[t]`` for the last), τᵢ as in :func:`viterbi`, plus ``trans2[y_{i−2}, y_{i−1}, t]``
    from the third token on when ``trans2`` is not empty.  Returns the score of the path it
    chose; ties to the lowest index.
    """
    T = trans.shape[1]
    total = 0.0
    prev = -1
    for i in range(n):
        best = -np.inf
        arg = 0
        for t in range(T):
            if i == 0:
                v = emit[i, t] + start[t]
            elif per_position:
                v = emit[i, t] + trans[i, prev, t]
            else:
                v = emit[i, t] + trans[0, prev, t]
            if i >= 2 and trans2.shape[0] > 0:
                v = v + trans2[path[i - 2], prev, t]
            if i == n - 1:
                v = v + stop[t]
            if v > best:
                best = v
                arg = t
        path[i] = arg
        prev = arg
        total = total + best
    return total


@njit(**NJIT_STRICT)
def viterbi2(emit, n, trans, per_position, trans2, start, stop, delta, bp, path):
    """Exact best second-order path, O(n·T³): the score adds ``trans2[y_{i−2}, y_{i−1}, y_i]``
    for every i ≥ 2 to the first-order score of :func:`viterbi`.

    The state is the pair (y_{i−1}, y_i): ``delta[i, a, b]`` is the best score of a prefix ending
    in a, b and ``bp[i, a, b]`` its y_{i−2}; buffers of shape (≥ n, T, T).  Ties: the final pair
    is scanned last tag first and back-pointers keep the lowest index, so among equal paths the
    one smallest when read from its end is returned, as with :func:`viterbi`.
    """
    T = trans.shape[1]
    if n == 1:
        best = -np.inf
        arg = 0
        for b in range(T):
            v = start[b] + emit[0, b] + stop[b]
            if v > best:
                best = v
                arg = b
        path[0] = arg
        return best
    tr = trans[1] if per_position else trans[0]
    for a in range(T):
        for b in range(T):
            delta[1, a, b] = start[a] + emit[0, a] + tr[a, b] + emit[1, b]
    for i in range(2, n):
        tr = trans[i] if per_position else trans[0]
        for a in range(T):
            for b in range(T):
                best = -np.inf
                arg = 0
                for c in range(T):
                    v = delta[i - 1, c, a] + trans2[c, a, b]
                    if v > best:
                        best = v
                        arg = c
                delta[i, a, b] = best + tr[a, b] + emit[i, b]
                bp[i, a, b] = arg
    best = -np.inf
    la = 0
    lb = 0
    for b in range(T):
        for a in range(T):
            v = delta[n - 1, a, b] + stop[b]
            if v > best:
                best = v
                la = a
                lb = b
    path[n - 1] = lb
    path[n - 2] = la
    for i in range(n - 1, 1, -1):
        path[i - 2] = bp[i, path[i - 1], path[i]]
    return best


@njit(**NJIT_STRICT)
def decode_one(decoder, emit, n, trans, per_position, trans2, start, stop, delta, bp, delta2, bp2, path):
    second = trans2.shape[0] > 0
    if decoder == VITERBI:
        if second:
            return viterbi2(emit, n, trans, per_position, trans2, start, stop, delta2, bp2, path)
        return viterbi(emit, n, trans, per_position, start, stop, delta, bp, path)
    return greedy(emit, n, trans, per_position, trans2, start, stop, path)


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
def _workspace(maxlen, T, lex, second_order):
    """Decoding tables sized once for the longest sequence, reused for every sequence:
    (transitions per position, emissions, first-order DP and back-pointers, second-order DP and
    back-pointers, path)."""
    tr = np.empty((maxlen if lex else 1, T, T))
    emit = np.empty((maxlen, T))
    delta = np.empty((maxlen, T))
    bp = np.zeros((maxlen, T), dtype=np.int32)
    m2 = maxlen if second_order else 1
    delta2 = np.empty((m2, T, T))
    bp2 = np.zeros((m2, T, T), dtype=np.int32)
    path = np.empty(maxlen, dtype=np.int64)
    return tr, emit, delta, bp, delta2, bp2, path


@njit(**NJIT_STRICT)
def decode_all(
    X,
    Xe,
    offsets,
    forced,
    W,
    trans,
    E,
    trans2,
    start,
    stop,
    decoder,
    out,
    scores,
):
    """Decode every sequence; ``out`` (n_tokens,) receives the tag indices.

    ``Xe`` are the binary edge features (CSR, n_tokens rows) scored by ``E``
    (n_edge_features, T, T); with ``E`` empty the transitions are ``trans`` everywhere.
    ``scores`` (n_tokens, T), when not empty, are the tokens' emission scores already computed
    (see :func:`factored_emissions`), and the CSR features are not read.
    """
    T = W.shape[1]
    n_seq = offsets.shape[0] - 1
    maxlen = np.int64(1)  # not a literal 1: numba would compile _workspace once more for it
    for s in range(n_seq):
        maxlen = max(maxlen, offsets[s + 1] - offsets[s])
    lex = E.shape[0] > 0
    tr, emit, delta, bp, delta2, bp2, path = _workspace(maxlen, T, lex, trans2.shape[0] > 0)
    copy_into(tr[0], trans)
    if n_seq > 0 and scores.shape[0] == 0:
        _prefetch_sequence(X, offsets, 0, W)
    for s in range(n_seq):
        lo = offsets[s]
        n = offsets[s + 1] - lo
        if n == 0:
            continue
        if lex:
            transitions(Xe, lo, n, trans, E, tr)
        if scores.shape[0] > 0:
            decode_one(decoder, scores[lo : lo + n], n, tr, lex, trans2, start, stop, delta, bp, delta2, bp2, path)
        else:
            emissions(X, lo, lo + n, W, forced, emit)
            if s + 1 < n_seq:  # as in train_epoch: the next sequence's rows load during decoding
                _prefetch_sequence(X, offsets, s + 1, W)
            decode_one(decoder, emit, n, tr, lex, trans2, start, stop, delta, bp, delta2, bp2, path)
        for r in range(n):
            out[lo + r] = path[r]


@njit(**NJIT_STRICT)
def _update(
    X,
    Xe,
    lo,
    n,
    y,
    path,
    W,
    trans,
    E,
    trans2,
    start,
    stop,
    U,
    Utrans,
    UE,
    Utrans2,
    Ustart,
    Ustop,
    c,
    averaged,
):
    """Φ(gold) − Φ(predicted), added to the weights and (times c) to the averaging sums.

    Only the parts where the two sequences differ are touched: identical tokens and identical
    tag pairs cancel exactly.
    """
    for r in range(n):
        g = y[lo + r]
        p = path[r]
        if g == p:
            continue
        row_axpy_col(X, lo + r, 1.0, W, g)
        row_axpy_col(X, lo + r, -1.0, W, p)
        if averaged:
            row_axpy_col(X, lo + r, c, U, g)
            row_axpy_col(X, lo + r, -c, U, p)
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
            if E.shape[0] > 0:
                eindices, eindptr = Xe
                for k in range(eindptr[lo + r], eindptr[lo + r + 1]):
                    f = eindices[k]
                    E[f, ga, gb] += 1.0
                    E[f, pa, pb] -= 1.0
                    if averaged:
                        UE[f, ga, gb] += c
                        UE[f, pa, pb] -= c
    if trans2.shape[0] > 0:
        for r in range(2, n):
            g0, g1, g2 = y[lo + r - 2], y[lo + r - 1], y[lo + r]
            p0, p1, p2 = path[r - 2], path[r - 1], path[r]
            if g0 != p0 or g1 != p1 or g2 != p2:
                trans2[g0, g1, g2] += 1.0
                trans2[p0, p1, p2] -= 1.0
                if averaged:
                    Utrans2[g0, g1, g2] += c
                    Utrans2[p0, p1, p2] -= c
    gl = y[lo + n - 1]
    pl = path[n - 1]
    if gl != pl:
        stop[gl] += 1.0
        stop[pl] -= 1.0
        if averaged:
            Ustop[gl] += c
            Ustop[pl] -= c


@njit(**NJIT_STRICT)
def train_epoch(
    X,
    Xe,
    y,
    offsets,
    perm,
    forced,
    W,
    trans,
    E,
    trans2,
    start,
    stop,
    U,
    Utrans,
    UE,
    Utrans2,
    Ustart,
    Ustop,
    count,
    averaged,
    decoder,
):
    """One pass of Collins' perceptron over the sequences in the order ``perm``.

    Lazy averaging (Daumé's form of the timestamp trick): with c the number of sequences seen
    before the current one, an update δ is added to the weights and c·δ to ``U``; the mean of the
    weight vectors after each of the C sequences seen so far is then ``W − U / C`` — so averaging
    costs only the features an update touches, never a copy of the weights.

    Edge features (``Xe``, weights ``E`` of shape (n_edge_features, T, T),
    possibly empty) make the transitions lexicalised, see :func:`transitions`; a non-empty
    ``trans2`` (T, T, T) adds second-order (tag triple) weights.

    Returns (sequences with a mistake, tokens with a wrong tag).
    """
    T = W.shape[1]
    maxlen = np.int64(1)  # not a literal 1: numba would compile _workspace once more for it
    for q in range(perm.shape[0]):
        s = perm[q]
        maxlen = max(maxlen, offsets[s + 1] - offsets[s])
    lex = E.shape[0] > 0
    tr, emit, delta, bp, delta2, bp2, path = _workspace(maxlen, T, lex, trans2.shape[0] > 0)
    mistakes = 0
    wrong_tokens = 0
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
        emissions(X, lo, lo + n, W, forced, emit)
        if lex:
            transitions(Xe, lo, n, trans, E, tr)
        else:
            copy_into(tr[0], trans)
        if q + 1 < perm.shape[0]:  # its weight rows load while this sequence is decoded
            _prefetch_sequence(X, offsets, perm[q + 1], W)
        decode_one(decoder, emit, n, tr, lex, trans2, start, stop, delta, bp, delta2, bp2, path)
        wrong = 0
        for r in range(n):
            if path[r] != y[lo + r]:
                wrong += 1
        if wrong:
            mistakes += 1
            wrong_tokens += wrong
            _update(
                X,
                Xe,
                lo,
                n,
                y,
                path,
                W,
                trans,
                E,
                trans2,
                start,
                stop,
                U,
                Utrans,
                UE,
                Utrans2,
                Ustart,
                Ustop,
                c,
                averaged,
            )
    return mistakes, wrong_tokens


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
