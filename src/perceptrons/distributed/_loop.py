"""The epochs of iterative parameter mixing on a Dask cluster, shared by the linear and the
structured perceptron.

Each shard lives on a worker as the result of a future (scattered once, or loaded there from its
files).  A state of 1 MB or more is sent once, at the start; from then on it stays on the
cluster: each round the shards' workers fetch the mixed state from the worker that mixed it,
their own states go up to the mixing tasks (:mod:`perceptrons.distributed._tree`), and the
client receives the counts every epoch and the mixed state every :data:`CHECKPOINT_EVERY`
epochs.  A smaller one the client mixes itself, every round.  A task is a pure function of
(shard, state, epoch), so when a worker is lost its tasks run again elsewhere with the same
result: shards made by a task are recomputed by Dask itself, scattered ones are scattered again
from the client's copy, and the epochs since the last state the client received are re-run from
it.  The result is the undisturbed run's, bit for bit.
"""

import concurrent.futures
import time
from dataclasses import dataclass, field

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.distributed._mixing import mixing_weights, nbytes, outbound
from perceptrons.distributed._tree import record_of, state_of, submit_round

#: times one epoch is re-run after losing a worker before giving up
MAX_RETRIES = 5


def scatter_one(client, obj, **options):
    """``obj`` as one future on one worker: a tuple, a named tuple or a dict given to
    ``scatter`` alone would be scattered value by value, each under its own key, and round the
    workers (a shard's arrays on several of them)."""
    return client.scatter([obj], hash=False, **options)[0]


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
        self._homes = None

    def __len__(self):
        return len(self.futures)

    def refresh(self):
        """Remake the shards whose data went with a lost worker (scattered data cannot be recomputed)."""
        self._homes = None
        for i, f in enumerate(self.futures):
            if f.status in ("cancelled", "lost", "error"):
                self.futures[i] = self.makers[i](self.client)

    def homes(self):
        """Per shard, the workers that hold it (None while it is still being made: asked again
        next time)."""
        if self._homes is None or None in self._homes:
            held = self.client.who_has(self.futures)
            self._homes = [list(held.get(f.key, ())) or None for f in self.futures]
        return self._homes

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
            self._future = scatter_one(client, self.obj, broadcast=True)
        return self._future


@dataclass
class History:
    """What an IPM fit records: each shard's mistakes per epoch, the mixing weights of every
    round (``rounds`` a row per epoch), the bytes an epoch moved."""

    shard_mistakes: list = field(default_factory=list)
    mixing_weights: list = field(default_factory=list)
    bytes_per_epoch: int = 0
    seconds_per_epoch: list = field(default_factory=list)


def rounds_for(shards, size, mix_every, rounds):
    """Mixes an epoch: ``rounds``, or with the estimator's ``mix_every`` the schedule of a fit in
    threads, :func:`~perceptrons.threads.jobs.rounds_of` over the examples of all the shards
    (``size(shard)``, counted where each lives)."""
    if mix_every is None:
        return rounds
    # the bound read at the call, from its module (a test lowers it there)
    from perceptrons.distributed._inputs import MAX_ROUNDS
    from perceptrons.threads.jobs import rounds_of

    n = sum(shards.map(size))
    R = rounds_of(n, len(shards), mix_every)
    if R > MAX_ROUNDS:
        raise PerceptronsError(
            f"mix_every={mix_every} makes {R:,} mixes an epoch of {n:,} examples on {len(shards)} shards; a cluster "
            f"makes at most {MAX_ROUNDS:,} (each a round trip of the state): give a mix_every of at least "
            f"{rounds_of(n, len(shards) * MAX_ROUNDS, 1):,}"
        )
    return R


#: the client receives the mixed state every this many epochs (and at the last), as the point a
#: lost worker's epochs are re-run from; in between it receives the counts only
CHECKPOINT_EVERY = 5


def run_epochs(shards, task, params, state, pairs, *, max_epochs, mixing, on_epoch, rounds=1, every_state=False):
    """Up to ``max_epochs`` IPM epochs from ``state``; stops at an epoch without mistakes.

    ``task(shard, params, state, epoch, index, part) -> (state, mistakes, extra)`` runs part
    ``part = (r, rounds)`` of one perceptron epoch (``params``: what the step needs besides the
    shard and the state, a few hundred bytes, sent with every task) of the serial estimator's
    compiled loop on one shard.  Each epoch is ``rounds`` such parts, each followed by a mix on
    the workers (:mod:`perceptrons.distributed._tree`); the mixed state stays there as the next
    round's and the next epoch's start.  The client learns an epoch's counts, submits the next
    epoch, and only then receives the mixed state, while the workers run that epoch: every
    :data:`CHECKPOINT_EVERY` epochs, at the last, and every epoch with ``every_state``.
    ``on_epoch(epoch, state, mistakes, extras, seconds)`` sees that state (None in the epochs
    between), with the epoch's mistakes per shard; returning ``False`` stops (the epoch under
    way is cancelled).

    Returns
    -------
    state : dict
        The last mixed state.
    history : History
    """
    history = History()
    S = len(shards)
    run = _Epochs(shards, task, params, pairs, mixing, rounds, state)
    pending, t0 = None, time.perf_counter()
    for epoch in range(1, max_epochs + 1):
        pending, (record, moved) = run.wait(epoch, pending, record_of)
        mistakes = np.zeros(S, dtype=np.int64)
        extras = None
        for shards_of_round in record:
            k = np.array([r[0] for r in shards_of_round], dtype=np.int64)
            mistakes += k
            history.mixing_weights.append(mixing_weights(k, mixing))
            part = [r[1] for r in shards_of_round]
            extras = part if extras is None else [None if a is None else a + b for a, b in zip(extras, part)]
        last = epoch == max_epochs or mistakes.sum() == 0
        # a small state is mixed by the client, round by round: nothing to submit ahead
        following = None if last or run.small else run.submit(pending, epoch + 1)
        state = None
        if last or every_state or run.small or epoch % CHECKPOINT_EVERY == 0:
            state, following = run.fetch(epoch, pending, following)
        t1 = time.perf_counter()
        history.shard_mistakes.append(mistakes)
        history.seconds_per_epoch.append(t1 - t0)
        # moved: the state to every shard each round, and the groups' rows up a tree; back: the
        # shards' rows.  Not counted: the state the client receives every few epochs
        back = sum(r[2] for shards_of_round in record for r in shards_of_round)
        history.bytes_per_epoch = moved + back
        t0 = t1
        go_on = on_epoch(epoch, state, mistakes, extras, history.seconds_per_epoch[-1])
        if go_on is False and state is None:
            state, following = run.fetch(epoch, pending, following)
        if go_on is False or last:
            if following is not None:
                following.cancel()
            break
        pending = following
    return state, history


#: states smaller than this go inside each task; larger ones are scattered once
SCATTER_BYTES = 1 << 20


def _send(shards, state):
    """The state as the first round's tasks take it.  A small one travels inside every task (one
    round trip fewer: measured 17 ms against 29 ms per epoch on a 2-worker LocalCluster); a
    large one is scattered once, to the first shard's worker, where the mixing tasks will then
    run (they go where the most bytes are: the state), and the other shards' workers fetch it
    from there rather than S copies leaving the client.
    """
    if nbytes(state) < SCATTER_BYTES:
        return state
    return scatter_one(shards.client, state, workers=shards.homes()[0])


class _Epochs:
    """The epochs of one fit as futures: how to submit one, the last state the client holds,
    and the retries after a lost worker, which re-run the epochs from that state (pure tasks:
    the same results)."""

    def __init__(self, shards, task, params, pairs, mixing, rounds, state):
        self.shards, self.task, self.params, self.pairs = shards, task, params, pairs
        self.mixing, self.rounds = mixing, rounds
        self.saved = (0, state)  # (epoch, the mixed state after it) the client holds
        # a small state is mixed by the client (perceptrons.distributed._tree.submit_round)
        self.small = nbytes(state) < SCATTER_BYTES
        self.strip = nbytes(outbound(state, pairs, len(shards))) < nbytes(state)  # sums the shards do not take

    def submit(self, start, epoch):
        """The future of epoch ``epoch``'s :class:`~perceptrons.distributed._tree.Mixed` from ``start``."""
        for r in range(self.rounds):
            start = submit_round(
                self.shards.client,
                start,
                self.shards,
                self.task,
                self.pairs,
                self.params,
                epoch,
                (r, self.rounds),
                self.mixing,
                self.small,
                self.strip,
            )
        return start

    def again(self, epoch):
        """Epoch ``epoch``'s future, from the state the client holds (the epochs between again)."""
        done, state = self.saved
        start = _send(self.shards, state)
        for e in range(done + 1, epoch + 1):
            start = self.submit(start, e)
        return start

    def wait(self, epoch, pending, fn):
        """``(pending, fn(Mixed))`` computed on the Mixed's worker, for epoch ``epoch`` (``pending``:
        its future, None when not yet submitted; a new one after a retry)."""

        def attempt(retry):
            nonlocal pending
            if pending is None or retry:
                pending = self.again(epoch)
            if self.small:  # the Mixed itself, on the client
                return fn(pending)
            return self.shards.client.submit(fn, pending, pure=False).result()

        out = self._retrying(epoch, attempt)
        return pending, out

    def fetch(self, epoch, pending, following):
        """Epoch ``epoch``'s mixed state, received while ``following`` (the next epoch, or None)
        runs; ``(state, following)``, the latter submitted again if a retry made ``pending`` anew."""
        fresh, state = self.wait(epoch, pending, state_of)
        if fresh is not pending and following is not None:
            following.cancel()
            following = self.submit(fresh, epoch + 1)
        self.saved = (epoch, state)
        return state, following

    def _retrying(self, epoch, attempt):
        for n in range(MAX_RETRIES + 1):
            try:
                if n:
                    self.shards.refresh()
                return attempt(n > 0)
            except (concurrent.futures.CancelledError, OSError) as e:
                # a worker died holding a shard or the state (their futures are cancelled), or while
                # data were sent to it (the connection closed: CommClosedError is an OSError)
                if n == MAX_RETRIES:
                    raise PerceptronsError(
                        f"epoch {epoch}: workers kept failing ({type(e).__name__}: {e}); gave up after {MAX_RETRIES} retries"
                    ) from None
                time.sleep(min(0.25 * 2**n, 4.0))  # time for the nanny to restart it
        raise AssertionError("unreachable")  # pragma: no cover
