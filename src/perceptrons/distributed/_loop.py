"""The epochs of iterative parameter mixing on a Dask cluster, shared by the linear and the
structured perceptron.

Each shard lives on a worker as the result of a future (scattered once, or loaded there from its
files); per epoch only the mixed state goes out (scattered once, fetched by the shards' workers)
and each shard's state comes back.  A task is a pure function of (shard, state, epoch), so when a
worker is lost its tasks run again elsewhere with the same result: shards made by a task are
recomputed by Dask itself, scattered ones are scattered again from the client's copy, and the
epoch is re-run.  The result is the undisturbed run's, bit for bit.
"""

import concurrent.futures
import time
from dataclasses import dataclass, field

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.distributed._mixing import mix, mixing_weights, nbytes, outbound, pack, restore

#: times one epoch is re-run after losing a worker before giving up
MAX_RETRIES = 5


class Shards:
    """The S shards of a fit as futures on the cluster, and how to remake each one.

    Parameters
    ----------
    client : distributed.Client
    makers : list of callable
        ``maker(client) -> Future`` of the worker-side shard object.
    """

    def __init__(self, client, makers):
        self.client = client
        self.makers = list(makers)
        self.futures = [m(client) for m in self.makers]

    def __len__(self):
        return len(self.futures)

    def refresh(self):
        """Remake the shards whose data went with a lost worker (scattered data cannot be recomputed)."""
        for i, f in enumerate(self.futures):
            if f.status in ("cancelled", "lost", "error"):
                self.futures[i] = self.makers[i](self.client)

    def map(self, fn, *args):
        """``fn(shard, *args)`` on every shard, where it lives; the results, in shard order."""
        futures = [self.client.submit(fn, f, *args, pure=False) for f in self.futures]
        return self.client.gather(futures)


class Broadcast:
    """An object every worker may need (the tagger's feature maps), sent once to each worker
    rather than inside every task; sent again if every copy went with lost workers."""

    def __init__(self, obj):
        self.obj = obj
        self._future = None

    def future(self, client):
        """The object's future on ``client``."""
        if self._future is None or self._future.status != "finished":
            self._future = client.scatter([self.obj], broadcast=True, hash=False)[0]  # whole, even a dict
        return self._future


@dataclass
class History:
    """What an IPM fit records: each shard's mistakes per epoch, the mixing weights of every
    round (``rounds`` a row per epoch), the bytes an epoch moved."""

    shard_mistakes: list = field(default_factory=list)
    mixing_weights: list = field(default_factory=list)
    bytes_per_epoch: int = 0
    seconds_per_epoch: list = field(default_factory=list)


def run_epochs(shards, task, params, state, pairs, *, max_epochs, mixing, on_epoch, rounds=1):
    """Up to ``max_epochs`` IPM epochs from ``state``; stops at an epoch without mistakes.

    ``task(shard, params, state, epoch, index, part) -> (state, mistakes, extra)`` runs part
    ``part = (r, rounds)`` of one perceptron epoch (``params``: what the step needs besides the
    shard and the state, a few hundred bytes, sent with every task) of the serial estimator's
    compiled loop on one shard.  Each epoch is ``rounds`` such parts, each followed by a mix.
    ``on_epoch(epoch, state, mistakes, extras, seconds)`` sees the state mixed at the end of each
    epoch, with the epoch's mistakes per shard; returning ``False`` stops.

    Returns
    -------
    state : dict
        The last mixed state.
    history : History
    """
    history = History()
    for epoch in range(1, max_epochs + 1):
        t0 = time.perf_counter()
        mistakes = np.zeros(len(shards), dtype=np.int64)
        extras, moved = None, 0
        for r in range(rounds):
            sent = outbound(state, pairs, len(shards))
            results = _one_epoch(shards, task, params, sent, pairs, epoch, (r, rounds))
            states = [x[0] for x in results]
            k = np.array([x[1] for x in results], dtype=np.int64)
            mu = mixing_weights(k, mixing)
            # the bytes of the states that went out to the shards and came back
            moved += len(shards) * nbytes(sent) + sum(nbytes(x) for x in states)
            state = mix(state, states, mu, pairs)
            mistakes += k
            history.mixing_weights.append(mu)
            part = [x[2] for x in results]
            extras = part if extras is None else [None if a is None else a + b for a, b in zip(extras, part)]
        history.bytes_per_epoch = moved
        history.shard_mistakes.append(mistakes)
        history.seconds_per_epoch.append(time.perf_counter() - t0)
        go_on = on_epoch(epoch, state, mistakes, extras, history.seconds_per_epoch[-1])
        if go_on is False or mistakes.sum() == 0:
            break
    return state, history


#: states smaller than this go inside each task; larger ones are scattered once per epoch
SCATTER_BYTES = 1 << 20


def _send(client, state):
    """The state as the epoch's tasks take it.  A small one travels inside every task (one round
    trip fewer: measured 17 ms against 29 ms per epoch on a 2-worker LocalCluster); a large one
    is scattered once, and the shards' workers fetch it from there rather than S copies
    leaving the client.
    """
    if nbytes(state) < SCATTER_BYTES:
        return state
    # in a list: a dict given alone would be scattered value by value, under its own keys
    return client.scatter([state], hash=False)[0]


def _remote(shard, task, pairs, params, sent, epoch, index, part):
    """On a worker: part of one epoch from the state sent, returned as the rows that changed."""
    end, mistakes, extra = task(shard, params, restore(sent, pairs), epoch, index, part)
    return pack(sent, end, pairs), mistakes, extra


def _one_epoch(shards, task, params, state, pairs, epoch, part):
    """Every shard's part of an epoch from ``state``; re-run (same inputs, same results) after a
    worker is lost."""
    client = shards.client
    for attempt in range(MAX_RETRIES + 1):
        try:
            if attempt:
                shards.refresh()
            state_f = _send(client, state)
            futures = [
                client.submit(_remote, f, task, pairs, params, state_f, epoch, i, part, pure=False)
                for i, f in enumerate(shards.futures)
            ]
            return client.gather(futures)
        except (concurrent.futures.CancelledError, OSError) as e:
            # a worker died holding a shard or the state (their futures are cancelled), or while
            # data were sent to it (the connection closed: CommClosedError is an OSError)
            if attempt == MAX_RETRIES:
                raise PerceptronsError(
                    f"epoch {epoch}: workers kept failing ({type(e).__name__}: {e}); gave up after {MAX_RETRIES} retries"
                ) from None
            time.sleep(min(0.25 * 2**attempt, 4.0))  # time for the nanny to restart it
    raise AssertionError("unreachable")  # pragma: no cover
