r"""Train, predict and evaluate on data larger than memory, on the in-memory compiled loops.

A fit makes a first pass over the source that parses every row once and writes it to an
*epoch cache* (:mod:`perceptrons.io.cache`: a compact binary file); every epoch then reads the
cache block by block, a reader thread filling the next block while the compiled loop (which
releases the GIL) works on this one.  Memory is bounded by a few blocks, whatever the file's
size.  The loop run on each block is the in-memory fit's own epoch loop, and the weights, the
visit counter and the averaging sums carry over from block to block, so with the same row
order a streamed fit gives the weights of the in-memory fit **exactly**.

Row order: the file's (``order="cyclic"``), or with ``shuffle_buffer=N`` (or
``order="shuffle"``, N = 100,000 by default, fewer where rows are wide: as many as 64 MB of the
epoch cache holds) the rows are taken in consecutive runs of exactly N (rows 1–N, N+1–2N, …, the
last run shorter) and each run is visited in a seeded random order — a local shuffle, not a
global one: a row never leaves its run, and N = 1 keeps the file's order.  A run is held in
memory (joined from its blocks), so its bytes bound what the shuffle adds to a fit's memory.

Examples
--------
>>> import os, tempfile, numpy as np
>>> from perceptrons import Perceptron
>>> from perceptrons import stream
>>> d = tempfile.mkdtemp()
>>> path = os.path.join(d, "train.svm")
>>> with open(path, "w") as f:
...     _ = f.write("1 1:2 2:1\n-1 1:-1 2:-2\n1 2:3\n-1 1:-3\n")
>>> clf = stream.fit(Perceptron(), path)
>>> clf.predict(np.array([[1.0, 1.0], [-1.0, -1.0]])).tolist()
[1, -1]
>>> stream.evaluate(clf, path)["accuracy"]
1.0
"""

import time
from numbers import Integral

import numpy as np
from sklearn.utils.validation import check_is_fitted

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import largest_magnitude
from perceptrons._core.labels import alike, sample_scale, unseen_note
from perceptrons._core.memory import check_allocation
from perceptrons._core.operands import operand_values
from perceptrons._core.params import CALLBACK, PATH, Interval, Kind, check_param, seed_of, warn_not_converged
from perceptrons.io.block_scaling import (
    BlockScaling,
    fit_scalers,
    imputes,
    pipeline_parts,
    scales_nothing,
    takes_missing,
)
from perceptrons.io.blocks import join
from perceptrons.io.cache import CacheError, epoch_cache
from perceptrons.io.labels import as_classes, file_labels
from perceptrons.io.sources import Source

#: rows shuffled together when ``order="shuffle"`` and no ``shuffle_buffer`` is given, at most
DEFAULT_SHUFFLE_BUFFER = 100_000
#: the epoch cache's bytes of those rows, at most: runs of wide rows (documents of thousands of
#: words) hold fewer rows, so that the shuffle does not take gigabytes
DEFAULT_SHUFFLE_BYTES = 64 << 20


def default_shuffle_buffer(ec):
    """The rows of a run shuffled together by default over an epoch cache: 100,000, or as many
    as :data:`DEFAULT_SHUFFLE_BYTES` holds of its rows (their mean size) where fewer.

    Parameters
    ----------
    ec : perceptrons.io.cache.Cache
        The open epoch cache (its storage, rows, stored values and width).

    Returns
    -------
    int
    """
    if ec.storage == "csr":  # a stored value: its index and its value, at most 4 + 8 bytes; a row: its pointer
        per_row = 12 * ec.nnz / max(ec.n_rows, 1) + 8
    else:
        per_row = ec.n_features * ec.dtype.itemsize
    return int(max(1, min(DEFAULT_SHUFFLE_BUFFER, DEFAULT_SHUFFLE_BYTES // max(per_row, 1))))


def as_source(source, **options):
    """``source`` itself when it is a :class:`~perceptrons.io.sources.Source`, else a Source of it."""
    if isinstance(source, Source):
        return source
    check_param(source, "source", (PATH, Kind(Source, "a Source")))
    return Source(source, **options)


def fit(estimator, source, *, cache=None, shuffle_buffer=None, callback=None, progress=None):
    """Fit ``estimator`` on the rows of ``source`` without holding them in memory.

    Parameters
    ----------
    estimator : Perceptron, AveragedPerceptron or VotedPerceptron, or a Pipeline ending in one
        Its parameters (``max_epochs``, ``order``, ``margin``, ``class_weight`` as a dict, ...)
        apply as in ``fit``.  ``PocketPerceptron`` and ``order="random-mistake"`` are refused with
        the reason: both need every row at hand.  A scikit-learn ``Pipeline``'s steps before the
        estimator must learn from blocks (``partial_fit``) and keep sparse rows sparse:
        ``SimpleImputer(strategy="mean")`` first (dense rows), then
        :class:`~perceptrons.column_scaler.ColumnStandardScaler` (the columns of numbers of hashed
        rows, ``Source.number_columns``), then ``MaxAbsScaler``, or ``StandardScaler``
        (``with_mean=False`` for sparse rows, which centring would make dense).  Each is fitted in one pass over
        the epoch cache, in turn, before the first epoch; every epoch then trains on the
        transformed blocks.
    source : str, path-like or Source
        A file, a directory or glob of shards (see :class:`~perceptrons.io.sources.Source`).
    cache : str or path-like, optional
        Where to keep the epoch cache.  A cache whose source has not changed (size, time
        stamp and a hash of its head and tail) is read instead of parsing again; a stale,
        truncated, damaged or foreign one is rebuilt.  Its checksums catch accidents, not
        tampering (see :mod:`perceptrons.io.cache`).  By default a temporary file, removed
        afterwards.
    shuffle_buffer : int, optional
        Shuffle each run of this many rows (seeded by ``random_state``); see the module notes.
        With ``order="shuffle"`` and none given, :func:`default_shuffle_buffer`.
    callback : callable, optional
        ``callback(epoch, mistakes, elapsed_seconds)`` after every epoch; ``False`` stops.
    progress : callable, optional
        ``progress(phase, rows, epoch, text_bytes)`` after every block: phase ``"parse"`` (the
        first pass; ``text_bytes`` read so far, of the decompressed text, when the reader knows
        it, else 0) or ``"train"`` (``text_bytes`` 0); for a progress display.

    Returns
    -------
    estimator
        Fitted, with ``n_epochs_``, ``mistakes_per_epoch_`` and ``converged_`` as after ``fit``.
    """
    steps, model = pipeline_parts(estimator)
    # a pipeline that imputes reads a missing number as NaN; another refuses it at its line
    src = as_source(source, keep_missing=imputes(steps))
    src.check_labelled("training")
    estimator, pipeline = model, estimator
    if not callable(getattr(estimator, "check_training", None)):  # the linear family's training protocol
        raise PerceptronsError(
            f"{type(estimator).__name__} cannot train from a stream; the linear perceptrons "
            "(Perceptron, AveragedPerceptron, VotedPerceptron) can"
        )
    if isinstance(getattr(estimator, "class_weight", None), str):
        raise PerceptronsError(
            "class_weight='balanced' cannot train from a stream: it needs the class counts before "
            "the first update; pass a dict of weights"
        )
    check_param(shuffle_buffer, "shuffle_buffer", (None, Interval(Integral, 1, None)), "stream.fit")
    check_param(cache, "cache", (None, PATH), "stream.fit")
    check_param(callback, "callback", CALLBACK, "stream.fit")
    check_param(progress, "progress", CALLBACK, "stream.fit")
    estimator.check_training("stream")

    # A cache whose footer checks out can still hold a damaged block, found only when read (each
    # block's CRC): then it is rebuilt from the source once and the fit starts again.
    for rebuild in (False, True):
        with epoch_cache(src, cache, progress, rebuild=rebuild) as (ec, reused):
            try:
                k = len(ec.labels) if len(ec.labels) > 2 else 1  # weight vectors: one, or one a class
                check_allocation(  # the scalers' statistics, then the weights and their sums: before any
                    8 * ec.n_features * (2 * len(steps) + 2 * k),
                    f"{src.spec}: the column scales and the weights of {ec.n_features:,} features",
                    "the largest feature index sets their number: renumber the features, or hash them into fewer",
                )
                fitted = fit_scalers(steps, ec.blocks, ec.n_features, ec.storage == "csr")
                stopped = _epochs(estimator, ec, src, shuffle_buffer, callback, progress, fitted, imputes(steps))
                break
            except CacheError:
                if rebuild:
                    raise
            except PerceptronsError:
                # a cache read back from disk may have been edited where no check can see it (a
                # label, a weight): an error is the data's only if a cache built afresh gives it too
                if rebuild or not reused:
                    raise
    if steps:  # the pipeline's own steps become the fitted ones (scikit-learn's set_params)
        pipeline.set_params(**{name: step for (name, _), step in zip(steps, fitted)})
    warn_not_converged(estimator, stopped, stacklevel=2)
    return pipeline


def _epochs(estimator, ec, src, shuffle_buffer, callback, progress, steps=(), imputed=False):
    """The epochs of a streamed fit, each a pass over the epoch cache ``ec``, through the
    estimator's training protocol (:mod:`perceptrons.linear.trainer`); whether the callback
    stopped it.  ``imputed``: the first of ``steps`` fills missing numbers, which a source
    that keeps them (``keep_missing``) holds as NaN; without it such a block is refused.
    """
    if src.hashed_width is not None and ec.n_features != src.hashed_width:  # the weights are as wide as the hash
        raise CacheError(ec.path, f"{ec.n_features} columns, but the source hashes into {src.hashed_width}")
    classes, rank = _classes(src, ec.labels)
    w_dtype = np.float32 if ec.storage == "csr" else np.float64  # as weight_dtype picks for the in-memory fit
    # a9a's binary columns scale to themselves: the epochs then read the blocks as they are
    scaling = BlockScaling(steps, w_dtype) if steps and not scales_nothing(steps) else None
    estimator.begin(ec.n_features, classes, w_dtype)  # the hash's width, checked above
    buffer = shuffle_buffer or (default_shuffle_buffer(ec) if estimator.order == "shuffle" else None)
    rng = np.random.default_rng(seed_of(estimator.random_state))
    start = time.perf_counter()
    stopped = False
    widest = 0  # columns the rows use, over the first epoch: a width read from the data must be theirs
    for epoch in range(1, estimator.max_epochs + 1):
        mistakes = rows = 0
        for block, perm in _ordered(ec.blocks(), buffer, rng):
            if epoch == 1 and block.indices is not None and block.indices.size:
                widest = max(widest, int(block.indices.max()) + 1)
            if epoch == 1 and src.keep_missing and not imputed and not block.sparse and np.isnan(block.X).any():
                row = int(np.flatnonzero(np.isnan(block.X).any(axis=1))[0])
                raise PerceptronsError(
                    f"{src.spec}, data row {block.line + row}: a missing number, which a fit without an imputer "
                    "cannot take; train a Pipeline whose first step is SimpleImputer(strategy='mean', "
                    "keep_empty_features=True)"
                )
            Xop = block.operand() if scaling is None else scaling.operand(block)
            yi = rank[block.y]
            scale = _block_scale(src, block, estimator.class_weight, yi, classes)
            m = estimator.epoch(Xop, yi, scale, perm)
            if m < 0:
                raise _overflow(src, block, -1 - int(m))
            mistakes += int(m)
            rows += block.n_rows
            if progress is not None:
                progress("train", rows, epoch, 0)
        if epoch == 1 and ec.storage == "csr" and src.hashed_width is None and widest != ec.n_features:
            raise CacheError(ec.path, f"{ec.n_features} columns, but its rows use {widest}")
        estimator.end_epoch(mistakes)
        if callback is not None and callback(epoch, mistakes, time.perf_counter() - start) is False:
            stopped = True
            break
        if mistakes == 0:
            break
    estimator.finish(lambda: _top_feature(ec, scaling))
    return stopped


def _top_feature(ec, scaling=None):
    """The largest ``|x|`` of the epoch cache's rows as the epochs read them: one more pass over
    them, made only for a model whose weights are so small that its scores may have lost their
    features.
    """
    operand = (lambda b: b.operand()) if scaling is None else scaling.operand
    return max((largest_magnitude(operand_values(operand(b))) for b in ec.blocks()), default=0.0)


def predict_blocks(estimator, source):
    """Yield ``(block, predicted labels)`` for each block of ``source``: predictions with
    memory bounded by a block, for a caller that writes them as they come.

    Parameters
    ----------
    estimator : fitted classifier
    source : str, path-like or Source

    Yields
    ------
    block : Block
    labels : ndarray of shape (block.n_rows,)
    """
    check_is_fitted(estimator)  # scikit-learn's NotFittedError, as predict raises it
    imputed = takes_missing(estimator)
    src = as_source(source, keep_missing=imputed)
    d = estimator.n_features_in_
    if src.hashed_width is not None and src.hashed_width != d:
        raise PerceptronsError(
            f"{src.spec}: hashes features into {src.hashed_width} columns, but the model has {d}; "
            "give the --hash-bits the model was trained with"
        )
    for block in src.blocks():
        X = _features(block, d)
        if not block.sparse and not imputed and np.isnan(X).any():  # a Source that keeps them
            row = int(np.flatnonzero(np.isnan(X).any(axis=1))[0])
            raise PerceptronsError(
                f"{block.path}, data row {block.line + row}: a missing number, but the model imputes none (it "
                "was trained on rows without missing cells); expected a number"
            )
        yield block, estimator.predict(X)


def evaluate(estimator, source):
    """Accuracy of ``estimator`` on the labelled rows of ``source``, read block by block.

    Parameters
    ----------
    estimator : fitted classifier
    source : str, path-like or Source

    Returns
    -------
    dict
        ``{"rows": n, "correct": c, "accuracy": c / n, "unseen": u}`` (``u`` rows whose labels
        the model never saw in training, counted as errors), and ``"weighted_accuracy"`` when the
        rows carry importance weights (a Vowpal Wabbit file): the weight of the rows predicted
        right over the weight of all rows, as Vowpal Wabbit weighs its average loss. None when
        the weights sum to 0 or overflow float64.
    """
    check_is_fitted(estimator)
    classes = estimator.classes_
    src = as_source(source, keep_missing=takes_missing(estimator))
    src.check_labelled("evaluation")
    n = correct = unseen = 0
    tally = WeightedHits()
    for block, pred in predict_blocks(estimator, src):
        where = f"{block.path}, data rows from {block.line}"
        y = labels_as_classes(block.y, classes, where)
        if unseen_note(y, classes):  # counted as errors, as every evaluation counts them
            unseen += int((~np.isin(y, alike(classes, y))).sum())
        hits = alike(pred, y) == y
        correct += int(np.count_nonzero(hits))
        n += block.n_rows
        tally.add(hits, block.weight)
    if n == 0:
        raise PerceptronsError(f"{src.spec}: no data rows")
    out = {"rows": n, "correct": correct, "accuracy": correct / n, "unseen": unseen}
    if tally.weighted:
        out["weighted_accuracy"] = tally.accuracy()
    return out


def training_accuracy(estimator, source, cache):
    """Accuracy of a fitted ``estimator`` on the rows it was trained from: the epoch cache
    ``cache`` of ``source`` (one more pass over it, no parsing), as an in-memory fit reports
    its training accuracy.  An averaged model's can differ much from its last epoch's mistakes,
    which count the weights as they moved.

    Parameters
    ----------
    estimator : fitted classifier, or a Pipeline ending in one
        As :func:`fit` returned it.
    source : str, path-like or Source
    cache : str or path-like
        The epoch cache :func:`fit` kept (rebuilt by a first pass if it is not valid any more).

    Returns
    -------
    float
    """
    check_is_fitted(estimator)
    check_param(cache, "cache", (PATH,), "stream.training_accuracy")
    src = as_source(source, keep_missing=takes_missing(estimator))
    d = estimator.n_features_in_
    n = correct = 0
    with epoch_cache(src, cache) as (ec, _):
        classes, rank = _classes(src, ec.labels)
        for block in ec.blocks():
            correct += int(np.count_nonzero(estimator.predict(_features(block, d)) == classes[rank[block.y]]))
            n += block.n_rows
    if n == 0:
        raise PerceptronsError(f"{src.spec}: no data rows")
    return correct / n


class WeightedHits:
    """The weight of the rows predicted right and of all rows, summed block by block; a block
    without weights counts 1 a row.
    """

    def __init__(self):
        self.right = self.total = 0.0
        self.weighted = False

    def add(self, hits, weight):
        """Count one block: ``hits`` its rows predicted right, ``weight`` its rows' weights or None."""
        if weight is None:  # 1 a row: counts, without an array of ones
            self.right += int(np.count_nonzero(hits))
            self.total += len(hits)
            return
        self.weighted = True
        self.right += float(weight[hits].sum())
        self.total += float(weight.sum())

    def accuracy(self):
        """The weighted accuracy, or None when the weights sum to 0 or overflow float64."""
        return self.right / self.total if 0 < self.total < np.inf else None


# ---------------------------------------------------------------------- pieces
def _classes(src, table):
    """The sorted classes and, per label code of the cache, its class index."""
    labels = file_labels(table, src.spec)
    classes, rank = np.unique(labels, return_inverse=True)
    if classes.shape[0] < 2:
        raise PerceptronsError(
            f"{src.spec}: every row has the label {classes.tolist()[0]!r}; a classifier needs at least two classes"
        )
    return classes, rank.ravel().astype(np.int64)


def _ordered(blocks, buffer, rng):
    """``(block, perm)`` pairs: blocks in order with no permutation (cyclic), or the rows in
    consecutive runs of exactly ``buffer`` rows (the last run may be shorter), each run visited
    in a seeded random order and no row moved out of its run.  So ``buffer=1`` keeps the file's
    order, whatever the size of the blocks a reader yields, and a run may span blocks (they
    are joined) or a block hold many runs (each permuted in place).
    """
    if not buffer:
        for block in blocks:
            yield block, None  # None: the block's rows in order
        return
    pending, n = [], 0
    for block in blocks:
        pending.append(block)
        n += block.n_rows
        if n >= buffer:
            joined = join(pending)
            whole = n - n % buffer  # the rows of complete runs; the rest waits for the next block
            yield joined.rows(0, whole), _run_permutation(whole, buffer, rng)
            pending = [joined.rows(whole, n)] if whole < n else []
            n -= whole
    if pending:
        joined = join(pending)
        yield joined, _run_permutation(n, n, rng)


def _run_permutation(n, run, rng):
    """A permutation of ``range(n)`` (n a multiple of ``run``) that shuffles each run of ``run``
    consecutive rows within itself.
    """
    if run == 1:
        return np.arange(n, dtype=np.int64)
    runs = n // run
    within = np.argsort(rng.random((runs, run)), axis=1, kind="stable")
    return (within + np.arange(0, n, run, dtype=np.int64)[:, None]).ravel().astype(np.int64)


def _features(block, d):
    """A block's rows as the estimator's ``predict`` takes them, checked against its width."""
    if not block.sparse:
        if block.X.shape[1] != d:
            raise PerceptronsError(f"{block.path}: {block.X.shape[1]} features, but the model was trained on {d}")
        return block.X
    if block.indices.size and int(block.indices.max()) >= d:
        k = int(np.flatnonzero(block.indices >= d)[0])
        row = int(np.searchsorted(block.indptr, k, side="right")) - 1
        raise PerceptronsError(
            f"{block.path}, data row {block.line + row}: feature index {int(block.indices[k]) + 1} exceeds "
            f"the model's {d} features"
        )
    return block.csr(d)


def labels_as_classes(y, classes, where="the labels"):
    """Labels read from a file, in the type of the model's classes: text typed as the in-memory
    readers type it, LIBSVM/VW floats as :func:`~perceptrons.io.labels.float_labels` does
    (``where`` names the data in its error), so that a model trained in memory scores a
    stream of the same file alike, and the other way round.
    """
    y = np.asarray(y)
    if y.dtype.kind == "f" and classes.dtype.kind == "f":  # a model file whose classes are floats
        return y
    return as_classes(file_labels(y, where), classes)


def _block_scale(src, block, class_weight, yi, classes):
    """:func:`sample_scale` of a block, its refusal named in the user's source."""
    try:
        return sample_scale(block.weight, class_weight, yi, classes, block.n_rows)
    except PerceptronsError as exc:
        where = f"{src.spec}, data rows {block.line}–{block.line + block.n_rows - 1}"
        raise PerceptronsError(f"{where}: {exc}") from None


def _overflow(src, block, row):
    """The error for a row whose score overflowed, named in the user's source (the epoch cache's
    blocks count the rows of every file in order, from 1).
    """
    where = f"{src.spec}, data row {block.line + row}"
    if len(src.paths) > 1:
        where += " (counting the rows of its files in order)"
    return PerceptronsError(
        f"{where}: a score overflowed float64 (the features are too large for these weights); scale the features down"
    )
