"""Rounds of training in the threads of one process, each thread making the others' updates.

Each of S threads keeps its own copy of the training state (the estimator's own state is the
first thread's).  An epoch's visit order is cut into rounds of S chunks of ``mix_every``
examples.  In a round, thread i first makes on its copy the updates the other threads made in
the round before, in thread order, then trains its copy on its chunk with the family's compiled
loop (which releases the GIL), logging each update it makes.  So a thread sees its own updates
at once and the others' one round later: the perceptron with delayed updates (Langford, Smola &
Zinkevich 2009), where every update is made on every copy.  At the end of an epoch every copy
makes the last round's updates, so that all hold the same weights.

Why updates rather than weights: a perceptron's update touches few weights (the gold and the
predicted column of an example's features), so making another thread's updates costs what they
cost it, while mixing weight rows costs the whole rows, in every copy and the shared state.
On EWT mixing rows took as long as the training it mixed (about 400 ns a row, each a cache miss
in five arrays).  And threads that decode a whole round with the weights of its start, adding
up their updates, lost 5.8 points of accuracy (0.890 against the serial 0.948): a thread must
see its own updates at once.

Counts: thread i's visits are counted from where the threads before it in the round end, as if
the round's chunks were visited one after the other; so an update is made at the same visit
count on every copy, and the averaging sums (lazy averages, :mod:`perceptrons._core.averaging`)
average the iterates of that order.

Updates of integer size (binary features, unit steps: the tagger) are exact in floating point,
so every copy holds the very same weights whatever order it made them in.  The result depends
on ``n_jobs`` and the seed only, not on how the threads are scheduled.
"""

from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np


class Rounds:
    """Copies of a training state trained in S threads that exchange their updates every round.

    Parameters
    ----------
    copies : list
        S ≥ 2 states, all alike; each has a ``count`` array of shape (1,) (int64, the visits so
        far).  The first is the one the fit ends with.
    train : callable
        ``train(state, chunk) -> (counts, log)``, run in a thread: a pass of the compiled loop
        over the examples ``chunk`` (int64) from ``state.count``; its counts (a tuple of ints)
        and the log of its updates.
    replay : callable
        ``replay(state, log)``: the updates of ``log`` made on ``state``, as they were made.
    mix_every : int
        Examples a thread trains on in a round, on average.

    Notes
    -----
    A round's examples are cut into chunks of equal counts.  Chunks of equal tokens would make
    the threads' rounds last alike (an EWT epoch 100 ms → 84 ms on two threads), but the tagger
    trained so scored 0.12 point lower on EWT test, seed for seed over four seeds, where equal
    counts scored as one thread does (0.9481 against 0.9483 over eight seeds).
    """

    def __init__(self, copies, train, replay, mix_every):
        self.copies = list(copies)
        self.train = train
        self.replay = replay
        self.mix_every = int(mix_every)
        self._pool = ThreadPoolExecutor(len(self.copies), thread_name_prefix="perceptrons-fit")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Let the threads go."""
        self._pool.shutdown(wait=True)

    def epoch(self, order):
        """One epoch over the examples of ``order``, in rounds; after it every copy holds the
        same weights.

        Parameters
        ----------
        order : ndarray of int64
            The examples in the order the serial fit would visit them, cut into as many rounds
            of S·``mix_every`` examples as it takes, of even lengths; round r gives thread i
            the i-th of S contiguous chunks of its examples.

        Returns
        -------
        tuple of int
            The counts summed over the epoch's rounds and threads.
        """
        S, n = len(self.copies), order.shape[0]
        rounds = max(1, -(-n // (S * self.mix_every)))
        count = int(self.copies[0].count[0])
        logs = [None] * S
        totals = None
        for k in range(rounds):
            chunks = np.array_split(order[k * n // rounds : (k + 1) * n // rounds], S)
            first = count + np.cumsum([0] + [c.shape[0] for c in chunks[:-1]])
            results = self._all([(self._round, i, logs, chunks[i], int(first[i])) for i in range(S)])
            logs = [r[1] for r in results]
            count += sum(c.shape[0] for c in chunks)
            counts = np.array([r[0] for r in results], dtype=np.int64).sum(axis=0)
            totals = counts if totals is None else totals + counts
        self._all([(self._round, i, logs, None, count) for i in range(S)])
        return () if totals is None else tuple(int(c) for c in totals)

    def _round(self, i, logs, chunk, first):
        """Thread i's round: the other threads' updates of the round before, then its chunk
        (None: none, at the end of an epoch) from the visit count ``first``.
        """
        state = self.copies[i]
        for j, log in enumerate(logs):
            if j != i and log is not None:
                self.replay(state, log)
        state.count[0] = first
        if chunk is None:
            return (), None
        return self.train(state, chunk)

    def _all(self, calls):
        return run_all(self._pool, calls)


def run_all(pool, calls):
    """``fn(*args)`` of every call, in the threads of ``pool``; their results in order.

    On Ctrl-C or a thread's error the threads still running are waited for before it
    propagates, so that none is left writing to a state once the fit unwinds.
    """
    futures = [pool.submit(fn, *args) for fn, *args in calls]
    try:
        return [f.result() for f in futures]
    except BaseException:
        wait(futures)
        raise
