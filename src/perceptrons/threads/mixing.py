"""Iterative parameter mixing in the threads of one process: each of S threads trains its own
copy of the state on an S-th of an epoch, then the copies are mixed (McDonald, Hall & Mann
2010), with the mix of :func:`perceptrons.distributed._mixing.mix`, the one the cluster uses.

A linear perceptron's update touches as many weights as its row has values, and on noisy data
a quarter of the rows update: making every update on every copy
(:mod:`perceptrons.threads.rounds`) then costs each thread the whole epoch's updates, and two
threads ran a 2M x 1M sparse epoch slower than one.  Mixing whole weight vectors once an epoch
costs a few passes over them instead.
"""

import numpy as np

from perceptrons.distributed._mixing import mix, mixing_weights
from perceptrons.threads.jobs import rounds_of
from perceptrons.threads.rounds import run_all


class MixedCopies:
    """S copies of a state, each trained by its thread on an S-th of an epoch, mixed after it.

    Parameters
    ----------
    state : dict of str to ndarray
        The estimator's own arrays, overwritten by the mix after every epoch; ``"count"``
        (int64, shape (1,)) counts the visits.
    pairs : sequence of (str, str or None)
        Each weight array's key and its averaging sums' (None: not averaged).
    n_jobs : int
        S, at least 2.
    mixing : {"error", "uniform"}
        The mixing weights μ (:func:`~perceptrons.distributed._mixing.mixing_weights`).
    sizes : ndarray, optional
        What each example costs; an epoch's examples are cut into S chunks of equal total size.
    mix_every : int, optional
        Examples a thread trains on between two mixes, on average (the estimator's
        ``mix_every``): each thread's chunk is cut into :func:`~perceptrons.threads.jobs.rounds_of`
        consecutive parts, and the copies are mixed after each round of parts, as a cluster
        mixes its shards' parts.  None: once an epoch.
    """

    def __init__(self, state, pairs, n_jobs, mixing, sizes=None, mix_every=None):
        from concurrent.futures import ThreadPoolExecutor

        self.state = state
        self.pairs = list(pairs)
        self.mixing = mixing
        self.sizes = sizes
        self.mix_every = mix_every
        self.copies = [{k: v.copy() for k, v in state.items()} for _ in range(int(n_jobs))]
        self._sums = [u for _, u in self.pairs if u is not None and state[u].size > 0]
        self._pool = ThreadPoolExecutor(int(n_jobs), thread_name_prefix="perceptrons-fit")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._pool.shutdown(wait=True)

    def epoch(self, order, train):
        """One epoch: in each round, thread i trains its copy, sent the state (with zero sums:
        the mix adds the state's back), on its part of the i-th chunk of ``order``; then the mix.

        Parameters
        ----------
        order : ndarray of int64
            The examples in the order the serial fit would visit them.
        train : callable
            ``train(copy, chunk) -> counts``, run in a thread: a pass over the examples
            ``chunk`` on ``copy`` (a dict of arrays like the state); its counts, mistakes first.

        Returns
        -------
        tuple of int
            The counts summed over the threads.
        """
        S = len(self.copies)
        chunks = split_by_size(order, S, self.sizes)
        R = 1 if self.mix_every is None else rounds_of(order.shape[0], S, self.mix_every)
        total = None
        for r in range(R):
            counts = self._round([c[r * c.shape[0] // R : (r + 1) * c.shape[0] // R] for c in chunks], train)
            total = counts if total is None else total + counts
        return tuple(int(c) for c in total)

    def _round(self, parts, train):
        """Thread i trains on ``parts[i]``, then the copies are mixed into the state; the
        threads' counts summed.
        """
        S = len(self.copies)
        for copy in self.copies:
            for k, v in self.state.items():
                if k in self._sums:
                    copy[k][...] = 0.0
                else:
                    copy[k][...] = v
        counts = run_all(self._pool, [(train, self.copies[i], parts[i]) for i in range(S)])
        counts = np.array(counts, dtype=np.int64)
        mu = mixing_weights(counts[:, 0], self.mixing)
        # each thread mixes an S-th of the rows: it reads and writes only those
        run_all(self._pool, [(self._mix_part, i, mu) for i in range(S)])
        self.state["count"][0] = int(self.state["count"][0]) + int(
            sum(int(c["count"][0]) - int(self.state["count"][0]) for c in self.copies)
        )
        return counts.sum(axis=0)

    def _mix_part(self, i, mu):
        """Rows i·n/S to (i+1)·n/S of every array mixed into the state."""
        S = len(self.copies)

        def part(a):
            n = a.shape[0]
            return a[i * n // S : (i + 1) * n // S]

        keys = [k for pair in self.pairs for k in pair if k is not None]
        start = {k: part(self.state[k]) for k in keys} | {"count": self.state["count"]}
        parts = [{k: part(c[k]) for k in keys} | {"count": c["count"]} for c in self.copies]
        for k, v in mix(start, parts, mu, self.pairs).items():
            if k != "count":
                start[k][...] = v


def split_by_size(examples, S, sizes=None):
    """``examples`` cut into S contiguous chunks of equal total size (of equal counts when
    ``sizes`` is None): an epoch lasts as long as its slowest thread.
    """
    if sizes is None:
        return np.array_split(examples, S)
    total = np.cumsum(sizes[examples])
    if total.shape[0] == 0:
        return [examples] * S
    return np.split(examples, np.searchsorted(total, total[-1] * np.arange(1, S) / S))
