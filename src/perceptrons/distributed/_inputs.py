"""What the linear and the structured trainers share about their inputs: which are files, how
rows (or files, or sentences) split into S shards, how many workers a LocalCluster gets, and
whether a shard's files are still the ones first seen."""

import os
import re
from numbers import Integral

import numpy as np

from perceptrons._core.errors import PerceptronsError, shown
from perceptrons._core.params import CALLBACK, Interval, Kind, Options, check_param, max_workers, seed_of
from perceptrons.io.cache import file_stamp

MIXINGS = ("error", "uniform")
#: what ``source_options`` may set: the reading options of a :class:`~perceptrons.io.sources.Source`
SOURCE_OPTIONS = ("fmt", "label", "hash_bits", "text", "encoding", "keep_missing")
_HOST = r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.\-_]*)"
_SCHEDULER = re.compile(rf"(tcp://)?{_HOST}:(\d{{1,5}})")
_DASHBOARD = re.compile(rf"{_HOST}?:(\d{{1,5}})")


#: the most mixes an epoch a cluster makes (``rounds``, or what ``mix_every`` comes to): each is
#: a round trip of the state, tens of milliseconds
MAX_ROUNDS = 10_000


def check_schedule(estimator, rounds, owner):
    """``rounds`` or the estimator's ``mix_every`` sets an epoch's mixes, not both."""
    every = getattr(estimator, "mix_every", None)
    if every is not None and rounds != 1:
        raise PerceptronsError(
            f"{owner}: rounds={rounds} and the estimator's mix_every={every} both set the mixes of an epoch; give one"
        )


def check_run(owner, *, client, n_workers, mixing, callback, dashboard, rounds=1):
    """The arguments every distributed fit shares, checked before a cluster starts, a file is
    read or a byte is sent: one line naming the argument, as the estimators' own checks."""
    check_param(mixing, "mixing", (Options(*MIXINGS),), owner)
    check_param(rounds, "rounds", (Interval(Integral, 1, MAX_ROUNDS),), owner)
    check_param(callback, "callback", CALLBACK, owner)
    check_n_workers(n_workers, owner)
    if not isinstance(dashboard, bool) and not (isinstance(dashboard, str) and _address(_DASHBOARD, dashboard)):
        raise PerceptronsError(
            f"The 'dashboard' parameter of {owner} must be a bool or an address ':port' or 'host:port' "
            f"(port 0-65535). Got {shown(dashboard)} instead."
        )
    check_client(client, owner)
    if client is not None and (n_workers is not None or dashboard is not False):
        raise PerceptronsError(
            f"{owner}: n_workers and dashboard apply to the LocalCluster started when client is None; "
            "a cluster given by its client keeps its own workers and dashboard"
        )


def check_n_workers(n_workers, owner=None):
    """``n_workers`` as given: None, or an int from 1 to :func:`~perceptrons._core.params.max_workers`."""
    return check_param(n_workers, "n_workers", (None, Interval(Integral, 1, max_workers())), owner)


def mixing_seed(random_state):
    """The seed of the shards' shuffles: drawn once per fit when ``random_state`` is None, so that
    a re-run epoch (a lost worker's task) draws the same order.
    """
    s = seed_of(random_state)
    return int(np.random.SeedSequence().entropy % 2**63) if s is None else int(s)


def require_dask():
    """Import dask.distributed, or say which extra provides it."""
    try:
        import distributed
    except ImportError as e:  # pragma: no cover - the test environment has the extra
        raise PerceptronsError(
            "distributed training needs dask.distributed: pip install 'perceptrons[distributed]'"
        ) from e
    return distributed


def check_client(client, owner):
    """A running ``distributed.Client``, a scheduler address ``[tcp://]host:port``, or None."""
    if client is None:
        return
    if isinstance(client, str) and _address(_SCHEDULER, client):
        return
    if isinstance(client, require_dask().Client):
        if client.status in ("closing", "closed"):
            raise PerceptronsError(
                f"The 'client' parameter of {owner} is a Client that is {client.status}; connect a new one"
            )
        return
    raise PerceptronsError(
        f"The 'client' parameter of {owner} must be a dask.distributed.Client or a scheduler address "
        f"'tcp://host:port' (for TLS or another protocol, pass a Client connected with its security "
        f"settings). Got {shown(client)} instead."
    )


def _address(pattern, text):
    match = pattern.fullmatch(text)
    return match is not None and int(match.group(match.lastindex)) <= 65535


def check_source_options(options, owner, files):
    """``source_options`` as given: None, or a dict of :data:`SOURCE_OPTIONS` for files (their
    values are checked by the :class:`~perceptrons.io.sources.Source` built from them)."""
    if options is None:
        return None
    check_param(options, "source_options", (Kind(dict, "a dict"),), owner)
    if not files:
        raise PerceptronsError(
            f"{owner}: source_options apply to files (how a worker reads them); rows in memory or in a "
            "Dask collection are read already"
        )
    unknown = [k for k in options if k not in SOURCE_OPTIONS]
    if unknown:
        raise PerceptronsError(
            f"source_options: unknown option {shown(unknown[0])}; expected some of {list(SOURCE_OPTIONS)}"
        )
    return options


def looks_like_files(x):
    """Whether ``x`` names files: a path, or a non-empty list of paths."""
    if isinstance(x, (str, os.PathLike)):
        return True
    return isinstance(x, (list, tuple)) and bool(x) and all(isinstance(p, (str, os.PathLike)) for p in x)


def check_shards(S):
    """``shards`` as given: None or a positive integer."""
    if S is not None and (isinstance(S, bool) or not isinstance(S, (int, np.integer)) or S < 1):
        raise PerceptronsError(f"shards must be a positive integer; got {S!r}")
    return S


def split_rows(n, S, items="rows"):
    """S contiguous ranges of near-equal size over n ``items`` (rows, files or sequences): the
    first n mod S one item longer, as ``numpy.array_split`` cuts them, so that S shards hold the
    rows S threads train on (:func:`perceptrons.threads.mixing.split_by_size`)."""
    if S > n:
        raise PerceptronsError(f"shards={S} is more than the {n} {items}; give at most {n} shards")
    sizes = np.full(S, n // S, dtype=np.int64)
    sizes[: n % S] += 1
    edges = np.concatenate([[0], np.cumsum(sizes)])
    return list(zip(edges[:-1].tolist(), edges[1:].tolist()))


def default_workers(n_workers, client, S):
    """Workers of the LocalCluster started when no client is given: S, at most the cores."""
    if n_workers is not None or client is not None:
        return n_workers
    cores = os.cpu_count() or 1
    return min(S or cores, cores)


def file_stamps(paths):
    """Each file's size and time written as this machine sees it (``None``: not to be had), as
    ``{path: (size, mtime_ns)}``: what a worker elsewhere that shares the files sees alike."""

    out = {}
    for path in paths:
        try:
            out[path] = file_stamp(os.stat(path))
        except OSError:
            out[path] = None
    return out


def first_changed(paths, then, now):
    """The first of ``paths`` whose stamp in ``now`` is not its stamp in ``then`` (both as
    :func:`file_stamps` gives them; a file missing from either counts as changed), or ``None``."""
    return next(
        (p for p in paths if then.get(p) is None or now.get(p) is None or tuple(now[p]) != tuple(then[p])), None
    )
