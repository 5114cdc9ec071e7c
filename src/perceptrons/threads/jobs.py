"""``n_jobs``: how many threads a fit trains in, read as scikit-learn and joblib read it; and
``mix_every``: how many examples each of them trains on between two mixes.
"""

import os
import warnings
from numbers import Integral

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import Interval

#: the most threads a fit trains in.  The mix of the threads' copies is compiled for each number
#: of threads (it takes them as a tuple of arrays): numba took 20 s to compile it for 300 and
#: refuses 1,000 or more, and each thread holds a copy of the weights (128 threads of a tagger on
#: 1,500 sentences: 1.9 GB)
MAX_THREADS = 256
#: the constraint of an estimator's ``n_jobs``: None (one thread), a positive count up to
#: :data:`MAX_THREADS`, or a negative one counted back from the cores (−1: every core, −2: all
#: but one)
N_JOBS = (None, Interval(Integral, 1, MAX_THREADS), Interval(Integral, None, -1))
#: the constraint of an estimator's ``mix_every``: None (the fit's own schedule) or a count
MIX_EVERY = (None, Interval(Integral, 1, None))


def rounds_of(n, S, mix_every):
    """The rounds of an epoch of ``n`` examples in S threads or shards, each training on about
    ``mix_every`` examples between two mixes: ⌈n / (S · mix_every)⌉, at least one.

    The one schedule of :mod:`perceptrons.threads` and of :mod:`perceptrons.distributed`: the
    same ``mix_every`` mixes as often in threads as on a cluster of as many shards.

    Parameters
    ----------
    n, S, mix_every : int

    Returns
    -------
    int
    """
    return max(1, -(-int(n) // (int(S) * int(mix_every))))


def cores():
    """The cores this process may run on (its CPU affinity, where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS and Windows have no affinity call
        return os.cpu_count() or 1


def threads_of(n_jobs, owner, n_cores=None):
    """The threads a fit with this ``n_jobs`` trains in (its range already checked), on a
    machine of ``n_cores`` (None: this process's, :func:`cores`).

    A count is taken as given, above the cores too: the result of a fit depends on its number
    of threads, so ``n_jobs=8`` gives the same model on 2 cores as on 8 (a warning says the
    threads share fewer cores).  A negative count is counted back from the cores, as joblib
    does (−1: every core), and refused when it leaves none; on a machine of more than
    :data:`MAX_THREADS` cores it is that many, with a warning.

    Raises
    ------
    PerceptronsError
        ``n_jobs`` below −(cores).
    """
    if n_jobs is None or n_jobs == 1:
        return 1
    n = cores() if n_cores is None else n_cores
    if n_jobs < 0:
        if n + 1 + n_jobs < 1:
            raise PerceptronsError(
                f"The 'n_jobs' parameter of {owner} is {n_jobs}, which leaves no thread on this machine's "
                f"{n} core(s): -1 is every core, -2 all but one"
            )
        if n + 1 + n_jobs > MAX_THREADS:
            warnings.warn(
                f"{owner}: n_jobs={n_jobs} is {n + 1 + n_jobs} of this machine's {n} cores; a fit trains in at "
                f"most {MAX_THREADS} threads, and this one in {MAX_THREADS}",
                UserWarning,
                stacklevel=5,
            )
            return MAX_THREADS
        return n + 1 + n_jobs
    if n_jobs > n:
        warnings.warn(
            f"{owner}: n_jobs={n_jobs} threads share this process's {n} core(s); the model is the one "
            f"{n_jobs} cores would train, in more time than n_jobs={n} would take",
            UserWarning,
            stacklevel=5,
        )
    return int(n_jobs)
