"""Compiled confidences of a decoded path: per-token tag probabilities under the model's scores.

The scores of :mod:`perceptrons._jit.decode` define a distribution over tag sequences,
p(y) ∝ exp(score(y)), as a linear-chain CRF's do (Lafferty, McCallum & Pereira 2001).  Its
marginals p(yᵢ = t) are what a Viterbi path is confident of: :func:`marginals` computes them
for a first-order model and :func:`marginals2` for a second-order one, by the forward-backward
algorithm in log space (Rabiner 1989, §III.A).  A greedy decoder commits to one token at a
time, so its confidence is that of NLTK's ``PerceptronTagger``: the softmax of the scores it
compared, the previous choices fixed (:func:`greedy_confidence`).

Conventions are those of :mod:`perceptrons._jit.decode`; the buffers ``alpha`` and ``beta``
are the caller's, shaped like the decoder's DP table (≥ n, T) or (≥ n, T, T).  A forced token
(``-inf`` for every other tag) gets probability 1.  Perceptron scores are not calibrated:
these are the probabilities of the model's own scores, as NLTK's are.
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT_STRICT
from perceptrons._jit.decode import longest, present
from perceptrons._jit.structured import transitions


@njit(**NJIT_STRICT)
def _lse(v):
    """log Σ exp(v), shifted by the maximum so that nothing overflows; −inf when all are −inf."""
    m = -np.inf
    for x in v:
        m = max(m, x)
    if m == -np.inf:
        return m
    s = 0.0
    for x in v:
        s += np.exp(x - m)
    return m + np.log(s)


@njit(**NJIT_STRICT)
def _normalize(out, n):
    """Rows 0…n−1 of ``out`` divided by their sums: exp(x − log Z) carries the rounding of
    scores in the thousands (~1e−12), and a probability must not exceed 1.

    A row without a positive sum comes from scores where no choice is allowed (every sequence,
    or every tag the greedy decoder compares, at −inf: log Z = −inf and each entry
    exp(−inf + inf) is nan).  No tag is then more likely than another: each gets 1/T.
    """
    T = out.shape[1]
    for i in range(n):
        s = 0.0
        for t in range(T):
            s += out[i, t]
        if s > 0.0:
            for t in range(T):
                out[i, t] /= s
        else:
            for t in range(T):
                out[i, t] = 1.0 / T


@njit(**NJIT_STRICT)
def _exp_table(tr, by_column, G, m):
    """``G[k, j] = exp(τ − m[k])`` with τ = ``tr[j, k]`` (``by_column``) or ``tr[k, j]``, and
    m[k] the maximum of those τ: every entry in [0, 1], read along j by :func:`_log_product`.
    A transition of −inf (not allowed) gets 0, and so does every entry of a k that has no
    transition allowed; :func:`_log_product` then takes that k's sum exactly."""
    T = tr.shape[0]
    for k in range(T):
        m[k] = -np.inf
        for j in range(T):
            m[k] = max(m[k], tr[j, k] if by_column else tr[k, j])
        shift = m[k] if m[k] > -np.inf else 0.0  # no way into (or out of) k: a row of zeros, not nan
        for j in range(T):
            G[k, j] = np.exp((tr[j, k] if by_column else tr[k, j]) - shift)


@njit(**NJIT_STRICT)
def _log_product(x, tr, by_column, G, m, px, v, out):
    """``out[k] = log Σⱼ exp(x[j] + τ)``, τ as in :func:`_exp_table`, whose table ``G`` it reads.

    With a = max x the sum is exp(a + m[k]) · Σⱼ exp(x[j] − a) · G[k, j]: T exponentials, where
    :func:`_lse` of each k would take T².  A sum that underflows (its terms apart by more than
    the float64 range) is taken exactly instead.  ``px`` and ``v`` (T,) are scratch.
    """
    T = x.shape[0]
    a = -np.inf
    for j in range(T):
        a = max(a, x[j])
    if a == -np.inf:
        for k in range(T):
            out[k] = -np.inf
        return
    for j in range(T):
        px[j] = np.exp(x[j] - a)
    for k in range(T):
        total = 0.0
        for j in range(T):
            total += px[j] * G[k, j]
        if total > 1e-280:
            out[k] = a + m[k] + np.log(total)
        else:
            for j in range(T):
                v[j] = x[j] + (tr[j, k] if by_column else tr[k, j])
            out[k] = _lse(v)


@njit(**NJIT_STRICT)
def step_tables(tr, tables):
    """Fill ``tables`` = (Gf, mf, Gb, mb) with :func:`_exp_table` of the transitions ``tr``
    (T, T): by column for the forward sums, by row for the backward ones."""
    Gf, mf, Gb, mb = tables
    _exp_table(tr, True, Gf, mf)
    _exp_table(tr, False, Gb, mb)


@njit(**NJIT_STRICT)
def step_scratch(T):
    """Buffers (Gf, mf, Gb, mb) for :func:`step_tables` of T tags."""
    return np.empty((T, T)), np.empty(T), np.empty((T, T)), np.empty(T)


@njit(**NJIT_STRICT)
def marginals(emit, n, trans, per_position, tables, start, stop, alpha, beta, out):
    """``out[i, t] = p(yᵢ = t)`` for a first-order model, rows 0…n−1.

    alpha[i, t] = log Σ over prefixes ending in t of exp(score), with
    alpha[0, t] = start[t] + emit[0, t] and
    alpha[i, t] = log Σₛ exp(alpha[i−1, s] + τᵢ[s, t]) + emit[i, t];
    beta[n−1, t] = stop[t] and beta[i, s] = log Σₜ exp(τᵢ₊₁[s, t] + emit[i+1, t] + beta[i+1, t]);
    then p(yᵢ = t) = exp(alpha[i, t] + beta[i, t] − log Z), log Z = log Σₜ exp(alpha[n−1, t] + stop[t]).
    τᵢ is ``trans[i]`` when ``per_position``, else ``trans[0]``, as in the decoders.  The sums
    over the previous or next tag go through tables of exp(τ) (:func:`_log_product`):
    ``tables`` is :func:`step_tables` of ``trans[0]``, made once by the caller for all its
    sequences, or, when ``per_position``, buffers of :func:`step_scratch` filled here at every
    position.
    """
    T = trans.shape[1]
    v, px, w = np.empty(T), np.empty(T), np.empty(T)
    Gf, mf, Gb, mb = tables
    for t in range(T):
        alpha[0, t] = start[t] + emit[0, t]
    for i in range(1, n):
        tr = trans[i] if per_position else trans[0]
        if per_position:
            _exp_table(tr, True, Gf, mf)
        _log_product(alpha[i - 1], tr, True, Gf, mf, px, v, alpha[i])
        for t in range(T):
            alpha[i, t] += emit[i, t]
    for t in range(T):
        beta[n - 1, t] = stop[t]
    for i in range(n - 2, -1, -1):
        tr = trans[i + 1] if per_position else trans[0]
        if per_position:
            _exp_table(tr, False, Gb, mb)
        for t in range(T):
            w[t] = emit[i + 1, t] + beta[i + 1, t]
        _log_product(w, tr, False, Gb, mb, px, v, beta[i])
    for t in range(T):
        v[t] = alpha[n - 1, t] + stop[t]
    log_z = _lse(v)
    for i in range(n):
        for t in range(T):
            out[i, t] = np.exp(alpha[i, t] + beta[i, t] - log_z)
    _normalize(out, n)


#: bytes of :func:`pair_tables` (3·T³ float64) a call may make: up to T = 111 tags; past it the
#: second-order sums take an exponential per tag triple instead (T³ a token, as does decoding)
PAIR_TABLE_BYTES = 32 * 2**20


def pair_tables(trans2, cap=None):
    """The tables of :func:`marginals2`'s sums over a tag triple, made once for a call:
    ``T2[a] = trans2[:, a, :]`` (contiguous), its :func:`_exp_table` by column (``Gf``, ``mf``:
    the forward sums over the tag two back) and by row (``Gb``, ``mb``: the backward sums over
    the tag ahead).  With none of them (0 rows) when they would exceed ``cap`` bytes (by
    default :data:`PAIR_TABLE_BYTES`, read at the call), or for a first-order model (``trans2``
    empty).

    Made by numpy, not compiled: compiled, they added 1.5–3.5 s to the first compilation of
    :func:`confidences`, which first-order models pay too.
    """
    T = trans2.shape[0]
    if T == 0 or 24 * T**3 > (PAIR_TABLE_BYTES if cap is None else cap):
        T2 = np.empty((0, T, T))
        return T2, T2, np.empty((0, T)), T2, np.empty((0, T))
    T2 = np.ascontiguousarray(np.transpose(trans2, (1, 0, 2)), dtype=np.float64)
    mf, mb = T2.max(axis=1), T2.max(axis=2)
    # as in _exp_table: a k without an allowed (finite) transition gets zeros, not exp(nan)
    Gf = np.ascontiguousarray(np.transpose(np.exp(T2 - _finite(mf)[:, None, :]), (0, 2, 1)))
    Gb = np.exp(T2 - _finite(mb)[:, :, None])
    return T2, Gf, mf, Gb, mb


def _finite(m):
    """``m`` with −inf as 0: the shift of a table whose transitions are all −inf."""
    return np.where(m > -np.inf, m, 0.0)


@njit(**NJIT_STRICT)
def marginals2(emit, n, trans, per_position, trans2, tables, start, stop, alpha, beta, out):
    """``out[i, t] = p(yᵢ = t)`` for a second-order model (:func:`~perceptrons._jit.decode.viterbi2`'s
    score), over the pair states (yᵢ₋₁, yᵢ).

    alpha[1, a, b] = start[a] + emit[0, a] + τ₁[a, b] + emit[1, b];
    alpha[i, a, b] = log Σ_c exp(alpha[i−1, c, a] + trans2[c, a, b]) + τᵢ[a, b] + emit[i, b];
    beta[n−1, a, b] = stop[b];
    beta[i, a, b] = log Σ_c exp(trans2[a, b, c] + τᵢ₊₁[b, c] + emit[i+1, c] + beta[i+1, b, c]).
    p(yᵢ₋₁ = a, yᵢ = b) = exp(alpha[i, a, b] + beta[i, a, b] − log Z); a token's marginal sums
    the pairs it ends (the first token: the pairs it starts).  The sums over c read the
    :func:`pair_tables` ``tables`` (T² exponentials a position), or take T³ without them.
    """
    T = trans.shape[1]
    v, x, px, y = np.empty(T), np.empty(T), np.empty(T), np.empty(T)
    if n == 1:
        for t in range(T):
            v[t] = start[t] + emit[0, t] + stop[t]
        log_z = _lse(v)
        for t in range(T):
            out[0, t] = np.exp(v[t] - log_z)
        _normalize(out, n)
        return
    T2, Gf, mf, Gb, mb = tables
    tabled = T2.shape[0] > 0
    tr = trans[1] if per_position else trans[0]
    for a in range(T):
        for b in range(T):
            alpha[1, a, b] = start[a] + emit[0, a] + tr[a, b] + emit[1, b]
    for i in range(2, n):
        tr = trans[i] if per_position else trans[0]
        for a in range(T):
            if tabled:
                for c in range(T):
                    x[c] = alpha[i - 1, c, a]
                _log_product(x, T2[a], True, Gf[a], mf[a], px, v, alpha[i, a])
                for b in range(T):
                    alpha[i, a, b] += tr[a, b] + emit[i, b]
                continue
            for b in range(T):
                for c in range(T):
                    v[c] = alpha[i - 1, c, a] + trans2[c, a, b]
                alpha[i, a, b] = _lse(v) + tr[a, b] + emit[i, b]
    for a in range(T):
        for b in range(T):
            beta[n - 1, a, b] = stop[b]
    for i in range(n - 2, 0, -1):
        tr = trans[i + 1] if per_position else trans[0]
        for b in range(T):
            for c in range(T):
                x[c] = tr[b, c] + emit[i + 1, c] + beta[i + 1, b, c]
            if tabled:
                _log_product(x, T2[b], False, Gb[b], mb[b], px, v, y)
                for a in range(T):
                    beta[i, a, b] = y[a]
                continue
            for a in range(T):
                for c in range(T):
                    v[c] = trans2[a, b, c] + x[c]
                beta[i, a, b] = _lse(v)
    ends = np.empty(T * T)
    for a in range(T):
        for b in range(T):
            ends[a * T + b] = alpha[n - 1, a, b] + stop[b]
    log_z = _lse(ends)
    for i in range(n):
        for t in range(T):
            out[i, t] = 0.0
    for i in range(1, n):
        for a in range(T):
            for b in range(T):
                p = np.exp(alpha[i, a, b] + beta[i, a, b] - log_z)
                out[i, b] += p
                if i == 1:
                    out[0, a] += p
    _normalize(out, n)


@njit(**NJIT_STRICT)
def greedy_confidence(emit, n, trans, per_position, trans2, start, stop, path, out):
    """``out[i, t]``: the softmax over t of the score :func:`~perceptrons._jit.decode.greedy`
    compared at token i, the tags ``path[:i]`` fixed (NLTK's ``PerceptronTagger`` confidence).
    """
    T = trans.shape[1]
    v = np.empty(T)
    for i in range(n):
        for t in range(T):
            if i == 0:
                x = emit[i, t] + start[t]
            elif per_position:
                x = emit[i, t] + trans[i, path[i - 1], t]
            else:
                x = emit[i, t] + trans[0, path[i - 1], t]
            if i >= 2 and trans2.shape[0] > 0:
                x = x + trans2[path[i - 2], path[i - 1], t]
            if i == n - 1:
                x = x + stop[t]
            v[t] = x
        log_z = _lse(v)
        for t in range(T):
            out[i, t] = np.exp(v[t] - log_z)
    _normalize(out, n)


@njit(**NJIT_STRICT)
def confidences(scores, Xe, offsets, trans, E, trans2, start, stop, pairs, greedy, path, out):
    """``out[i] = p(yᵢ = path[i])`` for every token of the sequences ``offsets``, ``path``
    (n_tokens,) being the decoded tags: :func:`greedy_confidence`'s softmax when ``greedy`` is
    not None (then it is ``path``), else the marginals of :func:`marginals2` when ``pairs`` (the
    :func:`pair_tables` of ``trans2``) is not None, else those of :func:`marginals`.

    ``scores`` (n_tokens, T) are the emission scores; the transitions are ``trans``, or with
    edge features ``Xe`` (binary CSR ``(indices, indptr)``, weights ``E`` (n_edge, T, T), not
    empty, nor None) those of :func:`perceptrons._jit.structured.transitions`, as when decoding.

    The choice is made by the types of ``pairs`` and ``greedy`` (None or not), so that numba
    drops the other two kernels when it compiles each kind: compiled together they took ~11 s
    at a first ``tag(tokens, return_conf=True)``.
    """
    T = trans.shape[0]
    maxlen = longest(offsets)
    lex = present(E)
    tr = np.empty((maxlen if lex else 1, T, T))
    tr[0] = trans
    probs, alpha, beta = np.empty((maxlen, T)), np.empty((maxlen, T)), np.empty((maxlen, T))
    m2 = 1 if pairs is None else maxlen
    alpha2, beta2 = np.empty((m2, T, T)), np.empty((m2, T, T))
    steps = step_scratch(T)
    if not lex and pairs is None and greedy is None:
        step_tables(trans, steps)  # once a call, not once a sentence: 2·T² exponentials
    for s in range(offsets.shape[0] - 1):
        lo = offsets[s]
        n = offsets[s + 1] - lo
        if n == 0:
            continue
        if E is not None and lex:  # as written: numba prunes on None (perceptrons._jit.decode)
            transitions(Xe, lo, n, trans, E, tr)
        emit = scores[lo : lo + n]
        if greedy is not None:
            greedy_confidence(emit, n, tr, lex, trans2, start, stop, greedy[lo:], probs)
        elif pairs is not None:
            marginals2(emit, n, tr, lex, trans2, pairs, start, stop, alpha2, beta2, probs)
        else:
            marginals(emit, n, tr, lex, steps, start, stop, alpha, beta, probs)
        for i in range(n):
            out[lo + i] = probs[i, path[lo + i]]
