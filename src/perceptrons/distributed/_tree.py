"""The mix on the workers, in a tree when there are many shards.

A state of 1 MB or more never passes through the client between the shards: each shard's task
leaves a :class:`Part` on its worker, mixing tasks on the workers combine them, and the mixed
state stays there as the next round's start (a :class:`Mixed`).  The client receives the counts
every epoch and the state every few (:mod:`perceptrons.distributed._loop`).  A smaller state the
client mixes itself, with the same functions (:func:`submit_round`).

With at most :data:`FAN_IN` shards one task mixes them all with :func:`~perceptrons.distributed._mixing.mix`,
in shard order: the flat mix, bit for bit.  With more, groups of :data:`FAN_IN` are mixed first
into one *virtual shard* each, and those are mixed in turn, so that no task reads more than
:data:`FAN_IN` states.  A group's virtual shard is what one shard would have sent had it made
the group's updates:

* weights ``w_G = Σ_{i∈G} (μᵢ/μ_G) wᵢ`` with ``μ_G = Σ_{i∈G} μᵢ``, so that ``Σ_G μ_G w_G = Σᵢ μᵢ wᵢ``;
* visits ``c_G = c₀ + Σ_{i∈G} (cᵢ − c₀)``, the group's own visits added to the start's;
* averaging sums ``u_G`` such that ``c_G·w_G − u_G − c₀·w̄`` is the sum of the group's own
  iterates, ``Σ_{i∈G} (cᵢ·wᵢ − uᵢ − c₀·w̄)``; that is :func:`mix` of the group from a start whose
  sums are zero, since the shards sum from zero (:func:`~perceptrons.distributed._mixing.outbound`).

The mix of the virtual shards is then the flat mix in exact arithmetic; in floating point the
sums are added in another order (tested equal to 1e-12 relative).  μ of a group follows from
its mistakes and the number of shards it stands for alone
(:func:`~perceptrons.distributed._mixing.mixing_weights`), so every mixing task computes its
own weights and the client waits for nothing within an epoch.
"""

from dataclasses import dataclass

import numpy as np

from perceptrons.distributed._mixing import mix, mixing_weights, nbytes, outbound, pack, restore

#: a mixing task reads at most this many states; with more shards the mix is a tree
FAN_IN = 8


@dataclass
class Part:
    """A shard's epoch part, or a group's virtual shard, as left on a worker for the mix above.

    Attributes
    ----------
    state : dict
        :func:`pack` ed: large arrays as the rows that changed against the start.
    mistakes : int
        The mistakes of the shards it stands for.
    shards : int
        How many shards it stands for.
    record : list of tuple
        Per shard, in shard order: (mistakes, the task's extra count or None, bytes it sent).
    moved : int
        Bytes the mixing tasks below it sent up.
    """

    state: dict
    mistakes: int
    shards: int
    record: list
    moved: int = 0


@dataclass
class Mixed:
    """The mixed state a round ends with, and the record of the epoch's rounds so far.

    Attributes
    ----------
    state : dict
        Whole, with its averaging sums.
    rounds : list of list of tuple
        Per round of the epoch, the shards' :attr:`Part.record`.
    moved : int
        Bytes the mixing tasks below the roots sent up, over the epoch's rounds.
    """

    state: dict
    rounds: list
    moved: int


def state_of(start):
    """The state a task starts from: a :class:`Mixed`'s, or the one the client sent."""
    return start.state if isinstance(start, Mixed) else start


def outbound_of(start, pairs, n_shards):
    """On the start's worker: what the shards fetch of it (:func:`outbound`)."""
    return outbound(state_of(start), pairs, n_shards)


def shard_part(shard, task, pairs, params, start, n_shards, epoch, index, part):
    """On a shard's worker: part ``part`` of an epoch from ``start`` (or what it sends of it,
    :func:`outbound_of`), as a :class:`Part`."""
    sent = outbound_of(start, pairs, n_shards)
    end, mistakes, extra = task(shard, params, restore(sent, pairs), epoch, index, part)
    packed = pack(sent, end, pairs)
    return Part(packed, int(mistakes), 1, [(int(mistakes), extra, nbytes(packed))])


def mix_group(start, parts, pairs, how):
    """On a worker: the virtual shard of a group of parts (the module's docstring)."""
    if len(parts) == 1:
        return parts[0]
    start = state_of(start)
    # the group's own sums: what mix adds its parts' to is zero rather than the start's ū
    zero = {u: np.zeros_like(start[u]) for _, u in pairs if u is not None and start[u].size > 0}
    virtual = mix({**start, **zero}, [p.state for p in parts], _weights(parts, how), pairs)
    packed = pack(outbound(start, pairs, len(parts)), virtual, pairs)
    return Part(
        packed,
        sum(p.mistakes for p in parts),
        sum(p.shards for p in parts),
        [r for p in parts for r in p.record],
        sum(p.moved for p in parts) + nbytes(packed),
    )


def mix_root(start, parts, pairs, how, first):
    """On a worker: the round's mixed state; ``first``: the epoch's first round (the record
    starts again)."""
    S = sum(p.shards for p in parts)
    state = mix(state_of(start), [p.state for p in parts], _weights(parts, how), pairs)
    earlier = ([], 0) if first else (start.rounds, start.moved)
    record = [r for p in parts for r in p.record]
    sent = S * nbytes(outbound(state_of(start), pairs, S))  # to every shard
    return Mixed(state, earlier[0] + [record], earlier[1] + sent + sum(p.moved for p in parts))


def _weights(parts, how):
    return mixing_weights([p.mistakes for p in parts], how, shards=[p.shards for p in parts])


def record_of(mixed):
    """On the mixed state's worker: what the client needs of it before the state itself."""
    return mixed.rounds, mixed.moved


def submit_round(client, start, shards, task, pairs, params, epoch, part, how, small, strip):
    """Submit one round from ``start``: the shards' parts, then their mix.

    A ``small`` state is mixed by the client itself: ``start`` is the state or the
    :class:`Mixed` it holds, the shards' tasks take it inside them, sums and all, their parts
    come to the client (one hop fewer than a mixing task: measured 14 ms against 27 ms an epoch
    for 1,000 weights on 2 workers), and the :class:`Mixed` is returned.

    A large one stays on the workers: ``start`` is a future, and the future of the round's
    :class:`Mixed` is returned.  Every shard's worker fetches the state, without its sums when
    they are to be stripped (``strip``: an averaged fit on several shards), from a task that
    drops them on the state's worker.  Each shard's task is bound to the worker that holds the
    shard (``shards.homes()``), loosely: otherwise the scheduler may bring a shard to the worker
    holding the larger state, and run two shards' tasks one after the other there (measured on
    the tagger: both on one worker).
    """
    S = len(shards)
    sent = client.submit(outbound_of, start, pairs, S, pure=False) if strip and not small else start
    level = [
        client.submit(
            shard_part,
            f,
            task,
            pairs,
            params,
            sent,
            S,
            epoch,
            i,
            part,
            workers=home,
            allow_other_workers=bool(home),
            pure=False,
        )
        for i, (f, home) in enumerate(zip(shards.futures, shards.homes()))
    ]
    first = part[0] == 0
    if small:
        return mix_root(start, client.gather(level), pairs, how, first)
    while len(level) > FAN_IN:
        groups = [level[i : i + FAN_IN] for i in range(0, len(level), FAN_IN)]
        level = [g[0] if len(g) == 1 else client.submit(mix_group, start, g, pairs, how, pure=False) for g in groups]
    return client.submit(mix_root, start, level, pairs, how, first, pure=False)
