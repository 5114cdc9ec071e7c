"""Compiled decoders of the sequence perceptron: Viterbi (first and second order) and greedy.

Conventions are those of :mod:`perceptrons._jit.structured`: ``emit`` (≥ n, T) emission scores,
``trans`` (1 or ≥ n, T, T) the transitions (one matrix, or one per position when
``per_position``), ``start`` and ``stop`` (T,), ``trans2`` (T, T, T) the second-order weights
(None or shape (0, 0, 0): none).  The library passes None for a first-order model: numba then
leaves out the second-order code (``trans2 is not None`` is decided when compiling, where the
test is written as such), and a first ``tag train`` compiles neither :func:`viterbi2` nor the
second-order update (~2 s).  Buffers are the caller's (:func:`workspace`), so that decoding a
corpus allocates nothing per token.  Ties go to the lowest tag index, and every sum is taken
in a fixed order: the oracles of ``tests/reference.py`` reproduce paths and scores exactly.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT

#: the decoder codes of :func:`decode_one`: None for Viterbi, the default, so that numba compiles
#: the loops that take it without the greedy decoder (``decoder is None`` is decided when
#: compiling); a loop given GREEDY is compiled with the greedy decoder alone
VITERBI = None
GREEDY = 1


@njit(**NJIT_STRICT)
def viterbi(emit, n, trans, per_position, start, stop, delta, bp, path, top):
    """Exact best first-order path, O(n·T²); returns its score and writes ``path[:n]``.

    score(y) = start[y₀] + Σᵢ emit[i, yᵢ] + Σᵢ τᵢ[yᵢ₋₁, yᵢ] + stop[yₙ₋₁], where τᵢ is
    ``trans[i]`` when ``per_position`` (lexicalised transitions, shape (≥ n, T, T)) and
    ``trans[0]`` otherwise.
    ``delta`` (≥ n, T) holds the best prefix scores and ``bp`` (≥ n, T) the back-pointers; they are
    caller-owned buffers so that decoding a corpus allocates nothing per token.  Ties go to the
    lowest tag index (strict ``>``), so the path is deterministic.

    With one transition matrix, most maxima need no search (:func:`_step_bounded`); ``top``
    (T,) bounds its columns' maxima from above (:func:`column_maxima`, kept by a caller that
    decodes many sequences under the same or growing transitions), or is empty: computed here.
    """
    T = trans.shape[1]
    for t in range(T):
        delta[0, t] = start[t] + emit[0, t]
    if n > 1 and not per_position:
        _step_bounded(emit, n, trans[0], delta, bp, top if top.shape[0] > 0 else column_maxima(trans[0]))
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
def column_maxima(tr):
    """``max_s tr[s, t]`` for every t, (T,): the bound of :func:`_step_bounded`.  Read row by
    row (a column walk strides T · 8 bytes); a NaN in row 0 makes its column's bound NaN,
    which no test passes, and later NaNs are passed over (they never win a search either).
    """
    top = np.empty(tr.shape[1])  # and a loop: tr[0].copy() compiled a copy for this one use
    for t in range(tr.shape[1]):
        top[t] = tr[0, t]
    for s in range(1, tr.shape[0]):
        for t in range(tr.shape[1]):
            top[t] = max(top[t], tr[s, t])
    return top


@njit(**NJIT_STRICT)
def _step_bounded(emit, n, tr, delta, bp, top):
    """Positions 1…n − 1 of :func:`viterbi` with one transition matrix ``tr``, skipping most searches.

    With p₁ the best prefix score (at tag a, the first of them) and p₂ the second best,
    every other predecessor s of tag t scores ``delta[i−1, s] + tr[s, t] ≤ p₂ + max_s tr[s, t]``:
    rounding is monotone, so the bound holds in floating point too.  When the bound is below
    a's own score, a is the one strict maximum, which the search would also return; otherwise
    (ties included) the full search runs.  A tagger is confident enough that ~90 % of the
    maxima pass (EWT train, 90–92 % after each of the first four epochs), and decoding EWT train
    under a trained tagger's weights took 19 against 35 ms.

    ``top[t]`` ≥ max_s tr[s, t] (the column maxima, or any larger bound: a looser one only
    passes fewer tests).  Computed once per corpus rather than per sentence: T² reads a
    sentence is nothing for 17 tags, but 8 MB for 1,000.
    """
    T = tr.shape[0]
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
        searches = 0
        order = np.empty(0, dtype=np.int64)
        for t in range(T):
            v = p1 + tr[a, t]
            if p2 + top[t] < v:
                delta[i, t] = v + emit[i, t]
                bp[i, t] = a
            elif searches < SORT_AFTER or T - t < SORT_AFTER:
                searches += 1
                _step(emit, i, tr, t, delta, bp)
            else:
                if order.shape[0] == 0:  # sorted once a position, when searches are many
                    order = _best_first(delta[i - 1])
                _step_sorted(emit, i, tr, t, delta, bp, order, top[t])


@njit(**dict(NJIT_STRICT, inline="always"))  # two lines: not worth a compilation of its own
def _later(v, a, b):
    """Whether index ``a`` comes after ``b`` in :func:`_best_first`'s order: a smaller value,
    or NaN beside a number."""
    return v[a] < v[b] or (v[a] != v[a] and v[b] == v[b])


@njit(**NJIT_STRICT)
def _best_first(v):
    """The indices of ``v`` from its largest value to its smallest, NaN last (among equal values
    in any order: :func:`_step_sorted` breaks ties by index itself).

    A heap sort written out: numba's ``np.argsort`` compiled its quicksort for 2.7 s of the first
    ``tag train`` and ``tag predict`` (issue 15.5), and a heap sort of T tags is as quick.
    """
    n = v.shape[0]
    order = np.empty(n, dtype=np.int64)
    for k in range(n):
        order[k] = k
    for root in range(n // 2 - 1, -1, -1):
        _sift(v, order, root, n)
    for end in range(n - 1, 0, -1):
        order[0], order[end] = order[end], order[0]
        _sift(v, order, np.int64(0), end)  # not a literal 0: one specialisation
    return order


@njit(**NJIT_STRICT)
def _sift(v, order, root, end):
    """Sift ``order[root]`` down the heap ``order[:end]`` whose root comes last (:func:`_later`)."""
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and _later(v, order[child + 1], order[child]):
            child += 1
        if not _later(v, order[child], order[root]):
            return
        order[root], order[child] = order[child], order[root]
        root = child


#: full searches at a position before the predecessors are sorted, so that the rest (at least
#: as many again) visit them best first and stop early (:func:`_step_sorted`).  Sorting costs
#: about as much as ~20 searches of T: it pays when the bound fails for many tags (large tag
#: sets, early epochs), and is never done when it fails for few, nor below 2 · SORT_AFTER tags
SORT_AFTER = 16


@njit(**NJIT_STRICT)
def _step_sorted(emit, i, tr, t, delta, bp, order, top_t):
    """:func:`_step` visiting the predecessors s in ``order`` (``delta[i − 1]`` descending, NaN
    last), stopping once ``delta[i − 1, s] + top_t`` (``top_t`` ≥ max_s tr[s, t]) falls below
    the best score found: no later predecessor can reach it, even to tie (rounding is
    monotone).  Ties go to the lowest index and NaN never wins, as in :func:`_step`, so the
    result is the same bit for bit.
    """
    best = -np.inf
    arg = 0
    for k in range(order.shape[0]):
        s = order[k]
        d = delta[i - 1, s]
        if d + top_t < best:
            break
        v = d + tr[s, t]
        if v > best or (v == best and s < arg and v > -np.inf):
            best = v
            arg = s
    delta[i, t] = best + emit[i, t]
    bp[i, t] = arg


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
            if i >= 2 and trans2 is not None and trans2.shape[0] > 0:
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
def decode_one(decoder, emit, n, trans, per_position, trans2, start, stop, work, top):
    """Decode one sequence into ``path[:n]`` with the decoder ``decoder`` (:data:`VITERBI` or
    :data:`GREEDY`); ``work = (delta, bp, delta2, bp2, path)`` are :func:`workspace`'s tables.
    Returns the path's score."""
    delta, bp, delta2, bp2, path = work
    # both tests written out on the arguments themselves: numba prunes a branch on None only so
    if decoder is None:
        if trans2 is not None and trans2.shape[0] > 0:
            return viterbi2(emit, n, trans, per_position, trans2, start, stop, delta2, bp2, path)
        return viterbi(emit, n, trans, per_position, start, stop, delta, bp, path, top)
    return greedy(emit, n, trans, per_position, trans2, start, stop, path)


@njit(**NJIT_STRICT)
def present(table):
    """Whether an optional weight table (``trans2``, the edge weights ``E``) is given: not None,
    not empty."""
    if table is None:
        return False
    return table.shape[0] > 0


@njit(**NJIT_STRICT)
def longest(offsets):
    """The length of the longest sequence of ``offsets``, at least 1, as an int64: the size of
    the tables of :func:`workspace` (a literal 1 would have numba compile them once more)."""
    maxlen = np.int64(1)
    for s in range(offsets.shape[0] - 1):
        maxlen = max(maxlen, offsets[s + 1] - offsets[s])
    return maxlen


@njit(**NJIT_STRICT)
def workspace(maxlen, T, lex, second_order):
    """Decoding tables sized once for the longest sequence, reused for every sequence:
    (transitions per position, emissions, the tables of :func:`decode_one`: first-order DP and
    back-pointers, second-order DP and back-pointers, path)."""
    tr = np.empty((maxlen if lex else 1, T, T))
    emit = np.empty((maxlen, T))
    delta = np.empty((maxlen, T))
    # np.empty, not np.zeros: the decoders write every back-pointer they read (and np.zeros of
    # int32 compiled for ~0.6 s of a first tag train)
    bp = np.empty((maxlen, T), dtype=np.int32)
    m2 = maxlen if second_order else 1
    delta2 = np.empty((m2, T, T))
    bp2 = np.empty((m2, T, T), dtype=np.int32)
    path = np.empty(maxlen, dtype=np.int64)
    return tr, emit, (delta, bp, delta2, bp2, path)
