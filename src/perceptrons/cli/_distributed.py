"""The options of training on a Dask cluster (``train`` and ``tag train``), and the fit with a
progress bar per epoch."""

import contextlib

import click

from perceptrons._core.params import max_workers
from perceptrons.cli._common import progress_bar
from perceptrons.cli._options import BoundedInt, options_decorator

WORKERS = BoundedInt(1, max_workers())  # the library's own bound: 8 a core
SHARDS = BoundedInt(1, 1 << 20)
ROUNDS = BoundedInt(1, 100)  # each a round trip of the state: tens of milliseconds

DISTRIBUTED_OPTIONS = [
    click.option(
        "--workers",
        type=WORKERS,
        default=None,
        help="Train by parameter mixing on a local Dask cluster of N worker processes.",
    ),
    click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Train by parameter mixing on the Dask cluster at ADDRESS (tcp://host:8786).",
    ),
    click.option(
        "--shards",
        type=SHARDS,
        default=None,
        help="--workers/--scheduler: shards of the data [default: the workers, or one per file].",
    ),
    click.option(
        "--mixing",
        type=click.Choice(["error", "uniform"]),
        default="error",
        show_default=True,
        help="--workers/--scheduler: weight each shard by its mistakes, or equally.",
    ),
    click.option(
        "--rounds",
        type=ROUNDS,
        default=1,
        show_default=True,
        help="--workers/--scheduler: mixes an epoch (each shard's epoch cut into that many parts).",
    ),
]


distributed_options = options_decorator(DISTRIBUTED_OPTIONS, "the distributed-training options")


def wanted(workers, scheduler, shards, mixing, rounds=1):
    """Whether the options ask for a distributed fit; their conflicts refused first."""
    if workers is not None and scheduler is not None:
        raise click.UsageError("give --workers (a local cluster) or --scheduler (an existing one), not both")
    if workers is None and scheduler is None:
        if shards is not None or mixing != "error" or rounds != 1:
            raise click.UsageError("--shards, --mixing and --rounds go with --workers or --scheduler")
        return False
    return True


def check_mix_every(mix_every, option, cluster, threads, rounds):
    """``mix_every`` (given as ``option``) applies to a fit in threads or on a cluster, and says
    what ``--rounds`` says: refused elsewhere, and beside a --rounds of its own."""
    if mix_every is None:
        return
    if not (cluster or threads):
        raise click.UsageError(f"{option}: applies only with --n-jobs 2 or more (in memory), or --workers/--scheduler")
    if rounds != 1:
        raise click.UsageError(f"give --rounds or {option}, not both: each sets the mixes of an epoch")


def fit(fit_function, max_epochs, check, **kwargs):
    """``fit_function(..., callback=...)`` with a progress bar per epoch; Ctrl-C (``check``)
    leaves between epochs, and the cluster started for the fit is closed on the way out.

    Returns
    -------
    (fitted, stopped_at_max_epochs)
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from perceptrons.distributed import WorkerLostWarning

    with progress_bar(
        "epoch {task.completed}/{task.total}", "{task.fields[mistakes]} mistakes", "{task.fields[shards]}"
    ) as bar:
        task = bar.add_task("train", total=max_epochs, mistakes="-", shards="starting the cluster")

        def on_epoch(epoch, mistakes, elapsed):
            bar.update(task, completed=epoch, mistakes=f"{mistakes:,}", shards=f"{elapsed / epoch:.2f} s/epoch")
            check()

        with warnings.catch_warnings(record=True) as caught, scheduler_errors():
            warnings.simplefilter("always", ConvergenceWarning)
            warnings.simplefilter("always", WorkerLostWarning)
            fitted = fit_function(callback=on_epoch, **kwargs)
    for w in caught:  # one line of our own, where Dask printed its records with timestamps
        if issubclass(w.category, WorkerLostWarning):
            click.echo(f"note: {w.message}", err=True)
    return fitted, any(issubclass(w.category, ConvergenceWarning) for w in caught)


@contextlib.contextmanager
def scheduler_errors():
    """An unreachable scheduler is the --scheduler option's fault: said as such."""
    from perceptrons.distributed._engine import SchedulerUnreachable

    try:
        yield
    except SchedulerUnreachable as e:
        raise click.BadParameter(str(e), param_hint="--scheduler") from None


def summary(model):
    """The lines that say how the distributed fit went."""
    b = model.bytes_per_epoch_
    moved = f"{b / 1e6:,.1f} MB" if b >= 1e6 else f"{b / 1e3:,.1f} kB"
    return [
        f"shards     {model.n_shards_}   weights moved {moved}/epoch   "
        f"{sum(model.seconds_per_epoch_) / max(len(model.seconds_per_epoch_), 1):.3f} s/epoch"
    ]


def on_cluster(model, X, y, shards, scheduler, workers, mixing, weighted=None, rounds=1):
    """``distributed.fit`` of ``model`` (an estimator, or a Pipeline ending in one) with the epoch
    bar; Ctrl-C between epochs.  Returns ``(fitted, stopped at --epochs)``."""
    from perceptrons import distributed
    from perceptrons.cli._common import interrupt_between_epochs

    final = model.steps[-1][1] if hasattr(model, "steps") else model
    with interrupt_between_epochs() as check:
        return fit(
            distributed.fit,
            final.max_epochs,
            check,
            estimator=model,
            X=X,
            y=y,
            **(weighted or {}),
            shards=shards,
            client=scheduler,
            n_workers=workers,
            mixing=mixing,
            rounds=rounds,
        )
