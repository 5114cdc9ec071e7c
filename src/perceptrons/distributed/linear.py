"""Iterative parameter mixing for the linear perceptrons (``Perceptron``, ``AveragedPerceptron``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError, shown
from perceptrons._core.finite import assert_finite, largest_magnitude
from perceptrons._core.labels import fit_labels, sample_scale
from perceptrons._core.operands import operand_values, to_operand, weight_dtype
from perceptrons._core.params import warn_not_converged
from perceptrons.distributed import _linear_shards as ls
from perceptrons.distributed._engine import connect
from perceptrons.distributed._inputs import (
    check_run,
    check_schedule,
    check_shards,
    check_source_options,
    default_workers,
    looks_like_files,
    mixing_seed,
    split_rows,
)
from perceptrons.distributed._loop import Shards, rounds_for, run_epochs, scatter_one
from perceptrons.io.block_scaling import (
    COLUMN_SCALER,
    imputes,
    max_abs_scaler,
    mean_imputer,
    pipeline_parts,
    standard_scaler,
)
from perceptrons.io.sources import Source, shard_paths
from perceptrons.linear._base import LinearPerceptronBase
from perceptrons.linear.trainer import MIXED, LinearState

if TYPE_CHECKING:
    from collections.abc import Callable


def fit(
    estimator,
    X,
    y=None,
    *,
    sample_weight=None,
    shards: int | None = None,
    client=None,
    n_workers: int | None = None,
    mixing: str = "error",
    callback: Callable[[int, int, float], object] | None = None,
    source_options: dict | None = None,
    dashboard: bool | str = False,
    rounds: int = 1,
):
    """Fit a linear perceptron by iterative parameter mixing (IPM) on a Dask cluster.

    The rows are split into S shards that stay on the workers.  Each epoch, every shard runs one
    epoch of the estimator's own compiled loop, starting from the mixed weights; then the
    client mixes, ``w = Σᵢ μᵢ wᵢ``, with ``μᵢ = kᵢ / Σk`` (``mixing="error"``, kᵢ the shard's
    mistakes in the epoch) or ``1/S`` (``"uniform"``).  An epoch in which no shard errs ends the
    fit: the mixed weights then separate every row.  For ``AveragedPerceptron`` the averaging
    sums are mixed too, so that ``coef_`` is the mean of every iterate visited on every shard.
    With one shard the result is the serial ``fit``'s, bit for bit.

    Parameters
    ----------
    estimator : Perceptron, AveragedPerceptron, a learner of the online family, or a Pipeline
        of a ``SimpleImputer(strategy="mean", keep_empty_features=True)`` and one scaler, a
        ``MaxAbsScaler``, a ``StandardScaler()`` (dense rows) or a
        :class:`~perceptrons.column_scaler.ColumnStandardScaler` (either or both, in that order)
        and one of them.  An online learner's shards run its rule (:mod:`perceptrons.online`);
        its ``extra`` array, a covariance say, is mixed as the weights are, and an epoch without
        mistakes ends the fit.  With a ``MaxAbsScaler`` the workers send each column's largest
        absolute value and scale their shards by the merged maxima; with a standardiser each
        fits a ``ColumnStandardScaler`` on its shard, and the client merges them (Chan et al.'s
        formula); the fitted Pipeline is returned.  With the imputer they keep a missing number
        of a table as NaN and send each column's sum and count, and fill their shards with the
        merged means.
        Its parameters apply as in ``fit``: ``max_epochs``, ``fit_intercept``, ``margin``,
        ``class_weight``, ``init``, ``order`` ("cyclic", or "shuffle": each shard's rows in an
        order drawn from (random_state, epoch, shard)).  ``order="random-mistake"``, the pocket
        and the voted perceptron are refused: their state is not a vector that mixes.
    X : array-like, sparse matrix, Dask collection, or files
        In-memory rows (split into ``shards`` contiguous shards, scattered once); a
        ``dask.array`` (its row chunks, persisted, are the shards) or ``dask.dataframe`` (its
        partitions; ``y`` a column name or a Series); or a path, glob, directory or list of
        files, each read **on a worker** with the streaming readers (LIBSVM, VW, CSV, Parquet),
        one file or group of consecutive files per shard.
    y : array-like, Dask collection, str or None
        Labels; None for files; a column name for a Dask DataFrame.
    sample_weight : array-like, optional
        In-memory rows only.
    shards : int, optional
        S.  Default: the number of workers for in-memory rows, the number of files, the number
        of partitions of a Dask collection.
    client : distributed.Client, str or None
        A client, a scheduler address (``"tcp://host:8786"``), or None to start a
        ``LocalCluster`` of ``n_workers`` single-threaded processes for this fit.
    n_workers : int, optional
        Workers of the LocalCluster started when ``client`` is None (default: S, at most the
        machine's cores).
    mixing : {"error", "uniform"}, default="error"
    callback : callable, optional
        ``callback(epoch, mistakes, elapsed_seconds)`` after each epoch; ``False`` stops.
    source_options : dict, optional
        For files: ``fmt``, ``label``, ``hash_bits``, ``text`` as
        :class:`~perceptrons.io.sources.Source` takes them.
    dashboard : bool or str, default=False
        Start the LocalCluster's dashboard (on Dask's default port, or this address).
    rounds : int, default=1
        Mixes an epoch: each shard's epoch is cut into this many consecutive parts, and the
        states are mixed after each (each part a task).  More rounds keep the shards closer to
        the serial fit, at a round trip of the state each.  The estimator's ``mix_every``, when
        set, sets them instead, as it does in threads: rows each shard trains on between two
        mixes, ⌈n / (S · mix_every)⌉ rounds (give one of the two).

    Returns
    -------
    estimator
        Fitted as by ``fit`` (``coef_``, ``n_updates_``, ...), plus
        ``shard_mistakes_`` (n_epochs, S), ``mixing_weights_`` (n_epochs, S), ``n_shards_``,
        ``bytes_per_epoch_`` (weights and sums sent to the shards and back in the last epoch; not
        the state the client receives every few epochs) and
        ``seconds_per_epoch_``.

    References
    ----------
    McDonald, R., Hall, K. and Mann, G. (2010). "Distributed Training Strategies for the
    Structured Perceptron". NAACL-HLT, §4 (iterative parameter mixing, Theorem 3).

    Examples
    --------
    >>> from perceptrons import Perceptron, distributed
    >>> from perceptrons.datasets import gormley_example
    >>> X, y = gormley_example()
    >>> clf = distributed.fit(Perceptron(fit_intercept=False), X, y, shards=2, n_workers=1)  # doctest: +SKIP
    >>> clf.predict(X).tolist() == y.tolist()  # doctest: +SKIP
    True
    """
    steps, estimator, pipeline = _scaled(estimator)
    _check(estimator)
    check_run(
        "distributed.fit",
        client=client,
        n_workers=n_workers,
        mixing=mixing,
        callback=callback,
        dashboard=dashboard,
        rounds=rounds,
    )
    check_schedule(estimator, rounds, "distributed.fit")
    kind = _kind(X)
    options = check_source_options(source_options, "distributed.fit", kind == "files")
    fills = imputes(steps) or any(type(step).__name__ == COLUMN_SCALER for _, step in steps)
    if kind == "files" and fills:  # the workers keep a missing number, for the imputer (or at the mean)
        options = {**(options or {}), "keep_missing": True}
    S = check_shards(shards)
    if kind == "arrays":
        X, y = estimator.check_data(X, y, reset=True, finite=False)
        if not imputes(steps):  # an imputer's missing numbers are NaN, filled below
            assert_finite(X)
    elif sample_weight is not None:
        raise PerceptronsError("sample_weight applies to in-memory rows; files carry their own weights")
    files = _file_makers(X, S, options) if kind == "files" else None  # the files' options checked here
    if kind == "arrays" and steps:  # rows in memory: the steps fitted here, as fit would, each on the last's output
        from sklearn.base import clone

        fitted = []
        for _, step in steps:
            fitted.append(clone(step).fit(X))
            X = fitted[-1].transform(X)
        assert_finite(X)
    with connect(client, default_workers(n_workers, client, S), dashboard) as c:
        if S is None and kind == "arrays":
            S = len(c.scheduler_info()["workers"])
        if kind == "arrays":
            shard_set, classes, d = _from_arrays(c, estimator, X, y, sample_weight, S)
        else:
            makers, width = files or (_dask_makers(c, X, y, S), None)
            shard_set, classes, d, fitted = _from_raw(c, estimator, makers, width, steps)
        fit = _train(estimator, shard_set, classes, d, mixing, callback, rounds)
    if not steps:
        return fit
    pipeline.set_params(**{name: step for (name, _), step in zip(steps, fitted)})  # scikit-learn's set_params
    return pipeline


def _train(estimator, shard_set, classes, d, mixing, callback, rounds):
    """The IPM epochs through the estimator's training protocol (:mod:`perceptrons.linear.trainer`):
    the workers run its pure step, the client its book-keeping.
    """
    state = estimator.begin(d, classes, shard_set.w_dtype)
    params = estimator.step_params(mixing_seed(estimator.random_state))
    elapsed = [0.0]
    stopped = [False]

    def on_epoch(epoch, mixed, mistakes, updates, seconds):
        estimator.end_epoch(int(mistakes.sum()), int(sum(updates)))
        elapsed[0] += seconds
        if callback is not None and callback(epoch, int(mistakes.sum()), elapsed[0]) is False:
            stopped[0] = True
            return False
        return True

    rounds = rounds_for(shard_set, ls.shard_rows, getattr(estimator, "mix_every", None), rounds)
    state, history = run_epochs(
        shard_set,
        ls.on_worker_epoch,
        params,
        state._asdict(),
        MIXED,
        max_epochs=estimator.max_epochs,
        mixing=mixing,
        on_epoch=on_epoch,
        rounds=rounds,
    )
    estimator.finish(shard_set.top_feature, state=LinearState(**state))
    estimator.n_shards_ = len(shard_set)
    estimator.shard_mistakes_ = np.array(history.shard_mistakes, dtype=np.int64)
    estimator.mixing_weights_ = np.array(history.mixing_weights)
    estimator.bytes_per_epoch_ = history.bytes_per_epoch
    estimator.seconds_per_epoch_ = list(history.seconds_per_epoch)
    warn_not_converged(estimator, stopped[0], stacklevel=3)
    return estimator


# ---------------------------------------------------------------------- checks and inputs
def _check(estimator):

    if not isinstance(estimator, LinearPerceptronBase):
        raise PerceptronsError(
            "The 'estimator' parameter of distributed.fit must be a Perceptron, AveragedPerceptron or a "
            f"learner of the online family (PassiveAggressive, AROW, ...). Got {shown(estimator)} instead."
        )
    estimator.check_training("mixing")  # before a cluster starts: max_epochs=0 was refused by the first epoch


def _kind(X):

    if looks_like_files(X) or isinstance(X, Source):
        return "files"
    return "dask" if hasattr(X, "__dask_graph__") else "arrays"


def _from_arrays(client, estimator, X, y, sample_weight, S):
    classes, yi = fit_labels(y)
    scale = sample_scale(sample_weight, estimator.class_weight, yi, classes, X.shape[0])
    pieces = ls.array_shards(X, yi, scale, S)
    shard_set = Shards(client, [lambda c, p=p: scatter_one(c, p) for p in pieces])

    shard_set.w_dtype = weight_dtype(pieces[0].X)
    shard_set.top_feature = lambda: largest_magnitude(operand_values(to_operand(X)))
    return shard_set, classes, X.shape[1]


def _file_makers(X, S, options):
    specs = [X.spec] if isinstance(X, Source) else [X] if isinstance(X, (str, os.PathLike)) else list(X)
    if any(os.fspath(spec) == "-" for spec in specs):
        raise PerceptronsError("-: the workers read their shards from files; standard input cannot be shared out")
    for spec in specs:
        if (
            not isinstance(spec, Source)
            and os.path.exists(spec)
            and not os.path.isdir(spec)
            and not os.path.isfile(spec)
        ):
            raise PerceptronsError(f"{spec}: not a regular file; the workers read their shards from files")
    if isinstance(X, Source):
        paths, first = [os.path.abspath(p) for p in X.paths], X
    else:
        specs = [X] if isinstance(X, (str, os.PathLike)) else list(X)
        paths = [os.path.abspath(p) for spec in specs for p in shard_paths(spec)]
        first = Source(paths[0], **dict(options or {}))  # the options checked here, before a worker reads
    # every shard read as the first file reads, its columns' kinds too (a shard whose codes are
    # all numbers is still read as words)
    opts = first.reader_options() | {k: v for k, v in (options or {}).items() if k == "keep_missing" and v}
    width = first.hashed_width
    S = S or len(paths)
    if S > len(paths):
        raise PerceptronsError(
            f"shards={S} but only {len(paths)} file(s): each shard reads whole files; split the data into "
            "more files, or load it and pass arrays"
        )
    groups = [paths[a:b] for a, b in split_rows(len(paths), S)]
    return [lambda c, g=g: c.submit(ls.on_worker_read, g, opts, pure=False) for g in groups], width


def _dask_makers(client, X, y, S):
    import dask

    if isinstance(y, str):  # a DataFrame and its label column
        y, X = X[y], X.drop(columns=[y])
    if y is None:
        raise PerceptronsError("a Dask collection needs its labels: y as a Dask array/Series, or a column name")
    chunks = getattr(X, "chunks", None)  # a dask.array's; a DataFrame's partitions hold whole rows
    if chunks is not None and len(chunks) == 2 and len(chunks[1]) > 1:
        X = X.rechunk({1: -1})  # a shard holds whole rows
    X, y = client.persist([X, y])
    xs, ys = _partitions(X), _partitions(y)
    if len(xs) != len(ys):
        raise PerceptronsError(f"X has {len(xs)} row partitions but y has {len(ys)}; partition them alike")
    if S is not None and S != len(xs):
        raise PerceptronsError(f"shards={S}, but the Dask collection has {len(xs)} partitions: repartition it to {S}")
    make = dask.delayed(ls.on_worker_from_arrays, pure=True)
    # each maker holds the persisted collections: their partitions live as long as the shards may
    # need remaking
    return [lambda c, i=i, held=(X, y): c.compute(make(xs[i], ys[i], f"partition {i}")) for i in range(len(xs))]


def _standardiser(step, summaries, rows):
    """``step`` (a StandardScaler of dense rows, or a ColumnStandardScaler) fitted on the
    workers' ColumnStandardScalers, merged: a StandardScaler behind the imputer sees each
    missing number at its column's mean, whose variance the merged one holds.
    """
    parts = [s["moments"] for s in summaries]
    if summaries[0]["sparse"] and type(step).__name__ == "StandardScaler":
        raise PerceptronsError("StandardScaler(with_mean=True) cannot scale sparse rows: centring makes them dense")
    widths = sorted({part.n_features_in_ for part in parts})
    if len(widths) > 1:
        raise PerceptronsError(f"some shards have {widths[0]} columns and others {widths[-1]}; give every shard one")
    merged = parts[0]
    for part in parts[1:]:
        merged.merge(part)
    if type(step).__name__ == COLUMN_SCALER:
        return merged
    return standard_scaler(step, merged.mean_, merged.var_, rows)


def _partitions(collection):
    """A Dask collection's row partitions as delayed objects (an array's come as a grid)."""
    parts = collection.to_delayed()
    return parts.ravel().tolist() if hasattr(parts, "ravel") else list(parts)


#: the steps before the estimator that the workers' statistics fit: a mean imputer, then one scaler
_SCALERS = ("MaxAbsScaler", "StandardScaler", COLUMN_SCALER)


def _scaled(estimator):
    """``(steps, our estimator, the pipeline)`` of a Pipeline whose steps before the estimator
    are a mean imputer, one scaler of :data:`_SCALERS`, or both (the imputer first), or
    ``([], estimator, None)``.  Only these: the workers' column sums, counts and maxima merge
    into the whole data's exactly, and their means and sums of squared deviations by Chan et
    al.'s formula (:meth:`~perceptrons.column_scaler.ColumnStandardScaler.merge`).
    """
    if type(estimator).__name__ != "Pipeline":
        return [], estimator, None
    steps, final = pipeline_parts(estimator)  # column scalers only, refused otherwise
    names = [type(step).__name__ for _, step in steps]
    scalers = names[1:] if names[:1] == ["SimpleImputer"] else names
    standard = [step for _, step in steps if type(step).__name__ == "StandardScaler"]
    if len(scalers) > 1 or any(name not in _SCALERS for name in scalers):
        raise PerceptronsError(
            "distributed.fit imputes with a SimpleImputer and scales columns with one MaxAbsScaler, StandardScaler "
            f"or ColumnStandardScaler before the estimator, whose shards' statistics merge; got {' then '.join(names)}"
        )
    if standard and not (standard[0].with_mean and standard[0].with_std):
        raise PerceptronsError(
            "distributed.fit standardises dense rows with StandardScaler() (with_mean and with_std); "
            "scale sparse rows with a MaxAbsScaler"
        )
    return steps, final, estimator


def _from_raw(client, estimator, makers, width, steps=()):
    """Shards read on the workers: their summaries decide the classes, the width and the
    column scales (``steps``: a max-abs scaler, fitted on the maxima they send), then each is
    encoded where it lives.  Returns ``(shards, classes, width, fitted scalers)``.
    """
    raw = Shards(client, makers)
    scaler = [step for _, step in steps if type(step).__name__ == "MaxAbsScaler"]
    # a StandardScaler's statistics: a ColumnStandardScaler of every column, fitted a shard
    standard = [step for _, step in steps if type(step).__name__ in ("StandardScaler", COLUMN_SCALER)]
    moments = None if not standard else (standard[0] if type(standard[0]).__name__ == COLUMN_SCALER else None, width)
    summaries = raw.map(ls.on_worker_summary, bool(scaler), imputes(steps), moments)
    for s in summaries:
        if not s["finite"]:
            raise PerceptronsError(f"{s['where']}: the data hold NaN or infinity; expected finite values")
    if len({s["sparse"] for s in summaries}) > 1:
        raise PerceptronsError("some shards are dense and others sparse; give every shard one format")
    classes, counts = ls.classes_of(summaries)
    cw = ls.balanced(classes, counts) if estimator.class_weight == "balanced" else estimator.class_weight
    d = width or max(s["features"] for s in summaries)
    if max(s["features"] for s in summaries) > d:  # pragma: no cover - a hashing reader stays within its width
        raise PerceptronsError(f"a shard has features beyond the hashed width {d}")
    # encoded where each raw shard lives; the raw futures are then let go (the shard keeps their
    # arrays), and a lost shard is recomputed by Dask from its lineage: read, then encode
    fitted = []
    rows = sum(s["rows"] for s in summaries)
    if imputes(steps):  # the means of every shard's values, then their missing numbers filled with them
        if summaries[0]["sparse"]:
            raise PerceptronsError("SimpleImputer applies to dense rows; sparse shards have no missing number to fill")
        sums = sum(s["sums"][0] for s in summaries)
        counts = sum(s["sums"][1] for s in summaries)
        fitted.append(mean_imputer(steps[0][1], sums, counts))
    if scaler:
        top = np.zeros(d)
        for s in summaries:
            np.maximum(top[: s["max_abs"].shape[0]], s["max_abs"], out=top[: s["max_abs"].shape[0]])
        if fitted:  # a column's filled cells hold its mean: the largest |x| is that, where larger
            top = np.where(counts < rows, np.maximum(top, np.abs(fitted[0].statistics_)), top)
        dtypes = {s["dtype"] for s in summaries} - {None}
        dtype = np.float64 if "<f8" in dtypes else np.float32
        fitted.append(max_abs_scaler(scaler[0], top, rows, dtype))
    if standard:
        fitted.append(_standardiser(standard[0], summaries, rows))
    makers = [
        lambda c, f=f, st=s["stamps"]: c.submit(ls.on_worker_encode, f, classes, cw, d, st, fitted, pure=False)
        for f, s in zip(raw.futures, summaries)
    ]
    ready = Shards(client, makers)
    # the weights' dtype by the rule of the in-memory fit (perceptrons._core.operands.weight_dtype)
    float32 = summaries[0]["sparse"] and {s["dtype"] for s in summaries} <= {None, "<f4"}
    ready.w_dtype = np.float32 if float32 else np.float64
    ready.top_feature = lambda: max(s["top"] for s in summaries)
    return ready, classes, d, fitted
