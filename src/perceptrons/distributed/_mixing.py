"""Iterative parameter mixing: the mixing weights μ, what travels, and the mix of the shards' states.

A state is a dict of arrays: weights (``w``, ``b``; ``W``, ``trans``, ...), their averaging
sums (``u``, ``ub``; ``U``, ``Utrans``, ...) and the visit counter ``count``, as the serial
estimators keep them.  Every shard starts an epoch from the same state s̄ = (w̄, ū, c₀) and
returns its own (wᵢ, uᵢ, cᵢ).

What travels is cut to what changes:

* **back** from a shard, a large array (``w`` of a million features, the tagger's ``W``) comes
  as the rows its epoch changed, ``(rows, values)``: one epoch touches the features of the
  rows it erred on, not all of them;
* **out** to the shards, with several of them, the averaging sums are not sent: each shard sums
  from zero and the client adds ū back.  With one shard the state travels whole, so that the
  sums are added in the serial fit's order and the result is the serial fit's, bit for bit.
"""

import numpy as np

#: arrays of at least this many values come back as the rows that changed
SPARSE_MIN = 4096


def mixing_weights(mistakes, how, shards=None):
    """μ of one epoch: ``kᵢ / Σk`` (``"error"``) or ``1/S`` (``"uniform"``).

    When no shard made a mistake every wᵢ equals w̄ and μ does not matter; it is taken uniform.
    (McDonald, Hall & Mann 2010, §4: error-weighted mixing is what their Theorem 3 bounds.)

    ``shards``: when an entry stands for a group of shards (a mix in a tree,
    :mod:`perceptrons.distributed._tree`), how many; uniform weights are then in proportion to
    it, and a group's weight is the sum of its shards'.
    """
    k = np.asarray(mistakes, dtype=np.float64)
    total = float(k.sum())
    if how == "error" and total > 0.0:
        return k / total
    n = np.ones(k.shape[0]) if shards is None else np.asarray(shards, dtype=np.float64)
    return n / float(n.sum())


# ---------------------------------------------------------------------- what travels
def outbound(state, pairs, n_shards):
    """The state as sent to the shards: without the averaging sums when there are several (a
    state sent so already is its own outbound)."""
    if n_shards == 1:
        return state
    sums = {u for _, u in pairs if u is not None and u in state and state[u].size > 0}
    return {k: v for k, v in state.items() if k not in sums}


def restore(sent, pairs):
    """On a worker: the state an epoch runs on and may write to — a copy of what was sent (tasks
    on one worker share their inputs, so the sent arrays are never written), with zero sums
    where none were sent."""
    s = {k: v.copy() for k, v in sent.items()}
    for w, u in pairs:
        if u is not None and u not in s:
            s[u] = np.zeros(s[w].shape)
    return s


def pack(sent, end, pairs):
    """On a worker: the end state, large arrays as ``(rows, values)`` of the rows that changed
    against the state sent (sums not sent started from zero).  A pair's sum comes with its
    weights' rows."""
    out = {"count": end["count"]}
    for wk, uk in pairs:
        w0, w1 = sent[wk], end[wk]
        summed = uk is not None and end[uk].size > 0
        if w1.size < SPARSE_MIN:
            out[wk] = w1
            if uk is not None:
                out[uk] = end[uk]
            continue
        changed = (w1 != w0).reshape(w1.shape[0], -1).any(axis=1)
        if summed:
            u0 = sent.get(uk, 0.0)
            changed |= (end[uk] != u0).reshape(w1.shape[0], -1).any(axis=1)
        rows = np.flatnonzero(changed)
        out[wk] = (rows, w1[rows])
        if uk is not None:
            out[uk] = end[uk][rows] if summed else end[uk]
    return out


def nbytes(state):
    """Bytes of a state's arrays (a ``(rows, values)`` pair counts both)."""
    total = 0
    for v in state.values():
        total += sum(a.nbytes for a in v) if isinstance(v, tuple) else v.nbytes
    return int(total)


# ---------------------------------------------------------------------- the mix
def mix(start, states, mu, pairs):
    """The mixed state after an epoch.

    Weights: ``w = Σᵢ μᵢ wᵢ`` (McDonald et al., Fig. 3), in float64, rounded once to the
    weights' dtype.

    Averaging sums: the averaged perceptron predicts with the mean of *every* iterate visited,
    on every shard.  The lazy average keeps, after ``c`` visits, the sum of the iterates so far
    as ``c·w − u`` (:mod:`perceptrons._core.averaging`).  A shard run from (w̄, ū, c₀) holds
    ``cᵢ·wᵢ − uᵢ = P + Oᵢ``, with ``P = c₀·w̄ − ū`` the sum before the epoch and ``Oᵢ`` the sum
    of its own iterates; the total after the epoch is ``P + Σ Oᵢ``.  With ``C = c₀ + Σ(cᵢ − c₀)``
    visits and the mixed ``w``, the ``u`` that keeps ``C·w − u`` equal to that total is

        u = Σ uᵢ − (S−1)·ū + (C·w − Σ cᵢ·wᵢ + (S−1)·c₀·w̄).

    Per row, only the shards that changed it count (the others hold w̄, ū there), which is what
    lets them send only those rows; the terms are grouped so that with one shard every term but
    ``u₁`` is exactly zero and the mix is the identity, bit for bit.

    Parameters
    ----------
    start : dict
        The state every shard started from (whole, with its sums).
    states : list of dict
        Each shard's :func:`pack` ed state after its epoch, in shard order.
    mu : ndarray of shape (S,)
    pairs : sequence of (weight key, averaging-sum key or None)

    Returns
    -------
    dict
        The mixed state (new arrays; ``start`` and ``states`` are not written to).
    """
    c0 = int(start["count"][0])
    cs = [int(s["count"][0]) for s in states]
    C = c0 + sum(c - c0 for c in cs)
    whole = len(states) == 1  # the sums were sent: each shard's u includes ū
    out = {"count": np.array([C], dtype=np.int64)}
    for wk, uk in pairs:
        summed = uk is not None and start[uk].size > 0
        if not any(isinstance(s[wk], tuple) for s in states):
            _mix_whole(out, start, states, mu, wk, uk if summed else None, cs, C, whole)
            if uk is not None and not summed:
                out[uk] = start[uk]
            continue
        n = start[wk].shape[0]
        parts = [_rows_of(s[wk], s[uk] if summed else None, n) for s in states]
        # the rows some shard changed, and where each shard's rows sit among them: by marking
        # an array of n flags, O(n), rather than sorting the shards' rows (np.unique: 0.7 s an
        # epoch for a million-wide w, measured)
        touched = np.zeros(n, dtype=bool)
        for rows, _, _ in parts:
            touched[rows] = True
        R = np.flatnonzero(touched)
        slot = np.empty(n, dtype=np.int64)
        slot[R] = np.arange(R.shape[0])
        w0 = start[wk][R].astype(np.float64)
        tail = (1,) * (w0.ndim - 1)
        acc = np.zeros_like(w0)
        cover = np.zeros(R.shape[0])
        for m, (rows, wv, _) in zip(mu, parts):
            at = slot[rows]
            acc[at] += m * wv
            cover[at] += m
        w = (acc + (1.0 - cover).reshape(-1, *tail) * w0).astype(start[wk].dtype, copy=False)
        full = start[wk].copy()
        full[R] = w
        out[wk] = full
        if uk is None:
            continue
        if not summed:
            out[uk] = start[uk]
            continue
        u0 = start[uk][R]
        n_touch, c_touch = np.zeros(R.shape[0]), np.zeros(R.shape[0])
        sum_u, sum_cw = np.zeros_like(u0), np.zeros_like(w0)
        for c, (rows, wv, uv) in zip(cs, parts):
            at = slot[rows]
            n_touch[at] += 1
            c_touch[at] += c
            sum_u[at] += uv
            sum_cw[at] += np.float64(c) * wv
        # np.float64 factors: a Python float times a float32 array would stay float32 (NEP 50)
        drift = (np.float64(C) * w - sum_cw) + (c_touch - C).reshape(-1, *tail) * w0
        base = (1.0 - n_touch).reshape(-1, *tail) * u0 if whole else u0
        u = start[uk].copy()
        u[R] = (base + sum_u) + drift
        out[uk] = u
    return out


def _mix_whole(out, start, states, mu, wk, uk, cs, C, whole):
    """:func:`mix` of one pair when every shard sent its arrays whole: the same sums, in the
    same order, in one compiled pass with no rows to look up."""
    from perceptrons._jit.mix import mix_whole

    w0 = start[wk]
    out[wk] = w = np.empty_like(w0)
    u0 = start[uk].reshape(-1) if uk is not None else np.zeros(0)
    u = np.empty_like(u0)
    flat = lambda key: tuple(s[key].reshape(-1) for s in states)  # noqa: E731
    mix_whole(
        w0.reshape(-1),
        flat(wk),
        u0,
        flat(uk) if uk is not None else (u0,) * len(states),
        np.asarray(mu, dtype=np.float64),
        np.asarray(cs, dtype=np.int64),
        C,
        whole,
        w.reshape(-1),
        u,
    )
    if uk is not None:
        out[uk] = u.reshape(start[uk].shape)


def _rows_of(w, u, n):
    """A shard's entry as (rows, weights on them, sums on them): all rows when sent whole."""
    if isinstance(w, tuple):
        return w[0], w[1], u
    return np.arange(n), w, u
