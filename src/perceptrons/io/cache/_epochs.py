"""The epoch cache of a streamed source: read back while it is valid for the source, else built
by a first pass over it (:func:`epoch_cache`, what :func:`perceptrons.stream.fit` trains from).
"""

import contextlib
import os
import tempfile

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.cache._fingerprint import READ_RULES, fingerprint
from perceptrons.io.cache._format import MAGIC
from perceptrons.io.cache._reader import open_cache
from perceptrons.io.cache._writer import CacheWriter


@contextlib.contextmanager
def epoch_cache(src, path=None, progress=None, rebuild=False):
    """``(cache, reused)``: the epoch cache of ``src`` at ``path``, reused (read back from disk)
    when valid for this source and not ``rebuild``, else (re)built by a first pass; a temporary
    file removed on exit when ``path`` is None.

    A first pass that fails (a bad row, Ctrl-C, SIGTERM) leaves no cache file.
    """
    fp = source_fingerprint(src)
    tmpdir = cache = None
    if path is None:
        tmpdir = tempfile.TemporaryDirectory(prefix="perceptrons-cache-")
        path = os.path.join(tmpdir.name, "epochs.cache")
    try:
        cache, why = (None, "a block failed its check") if rebuild else open_cache(path, fp)
        if cache is not None and cache.storage == "dense" and _width(src) != cache.n_features:
            cache.close()
            cache, why = None, "its width is not the data's"  # rebuilt
        reused = cache is not None
        if cache is None and _foreign(path):
            raise PerceptronsError(
                f"{path}: exists and is not an epoch cache; a cache is never written over another "
                "file: choose another cache path, or remove that file"
            )
        if cache is None and os.path.isfile(path) and not os.access(path, os.W_OK):
            # a read-only cache is kept as its owner left it (or lies on a read-only file system)
            raise PerceptronsError(
                f"{path}: the epoch cache cannot be used: {why}; it is read-only, so it is not replaced"
            )
        if cache is None:
            rows, done, file_bytes = 0, 0, 0  # bytes of the files before the current one
            with CacheWriter(path, fp, n_features_hint=src.hashed_width) as writer:
                for block in src.blocks():
                    writer.append(block)
                    rows += block.n_rows
                    if block.end < done - file_bytes:  # the next shard began
                        file_bytes = done
                    done = file_bytes + block.end
                    if progress is not None:
                        progress("parse", rows, 0, done)
            cache, reason = open_cache(path, fp)
            if cache is None:  # pragma: no cover - a cache just written is valid
                raise PerceptronsError(f"{path}: the epoch cache just written cannot be read back ({reason})")
        if cache.n_rows == 0:
            raise PerceptronsError(f"{src.spec}: no data rows")
        yield cache, reused
    finally:
        if cache is not None:
            cache.close()
        if tmpdir is not None:
            tmpdir.cleanup()


def source_fingerprint(src):
    """The :func:`~perceptrons.io.cache.fingerprint` of a :class:`~perceptrons.io.sources.Source`
    that its epoch cache must hold: its files, its options, and the readers' rules
    (:data:`~perceptrons.io.cache.READ_RULES`)."""
    return fingerprint(src.paths, {**src.options(), "rules": READ_RULES})


def _width(src):
    """The columns of a dense source's first block (a block of a few MB parsed): what a cache
    read back must agree with, since a footer can be edited so that its records read alike.
    """
    with contextlib.closing(src.blocks()) as blocks:
        first = next(blocks, None)
    return None if first is None or first.X is None else first.X.shape[1]


def _foreign(path):
    """Whether ``path`` is a file with content that is not an epoch cache, whole or truncated:
    its first bytes are not the cache's magic (a stale or damaged cache of ours is rebuilt).
    """
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        head = f.read(len(MAGIC))
    return len(head) > 0 and not MAGIC.startswith(head)
