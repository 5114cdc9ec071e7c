"""What the linear and the structured trainers share about their inputs: which are files, how
rows (or files, or sentences) split into S shards, how many workers a LocalCluster gets, and
whether a shard's files are still the ones first seen."""

import os

import numpy as np

from perceptrons._validation import PerceptronsError


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


def split_rows(n, S):
    """S contiguous ranges of near-equal size over n items (rows, files or sentences)."""
    if S > n:
        raise PerceptronsError(f"shards={S} is more than the {n} rows; give at most {n} shards")
    edges = np.linspace(0, n, S + 1).round().astype(np.int64)
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
    from perceptrons.io.cache import file_stamp

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
