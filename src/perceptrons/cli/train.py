"""perceptrons train DATA -o MODEL: fit an estimator of the family and save it.

A progress bar shows each epoch's mistakes; the summary gives epochs, updates, convergence and
train/test accuracy.  Ctrl-C ends training and writes nothing.
"""

import click

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.registry import CLI_NAMES, ESTIMATORS, estimator_class
from perceptrons.cli import _calibrate, _distributed, _kernel_cost, _kernel_options, _stream
from perceptrons.cli._common import (
    ENCODING_OPTION,
    ENCODING_WHERE,
    FORMAT_OPTION,
    LABEL_OPTION,
    LABEL_WHERE,
    check_label_text,
    encoding_info,
    interrupt_between_epochs,
    is_text_table,
    labelled_by_name,
    progress_bar,
    weighted_line,
)
from perceptrons.cli._kernel_options import kernel_options
from perceptrons.cli._naming import note_input, note_path
from perceptrons.cli._options import (
    COUNT,
    EPOCHS,
    JOBS,
    MARGIN,
    ORDER_OPTION,
    SEED_OPTION,
    ModelParam,
    model_params,
    refuse_unused,
)
from perceptrons.cli._paths import check_output_path
from perceptrons.cli._prepare import (
    SCALE_CHOICES,
    TABLE_FORMATS,
    compose,
    data_format,
    label_notes,
    read_test,
    read_training,
)
from perceptrons.cli._stream import stream_info, stream_options

#: a model parameter set by an option of its own, which --param does not take
DEDICATED = {
    "max_epochs": "--epochs",
    "fit_intercept": "--intercept/--no-intercept",
    "order": "--order",
    "init": "--init",
    "margin": "--margin",
    "random_state": "--seed",
    "max_vectors": "--max-vectors",
    **{name: "--" + name.replace("_", "-") for name in _kernel_options.PARAMETERS},
}
#: the --model names of the online family, and the models of the linear training protocol (streamed, mixed)
ONLINE = tuple(name for name, cls in CLI_NAMES.items() if ESTIMATORS[cls].module.startswith("perceptrons.online."))
#: the models that train in threads (``--n-jobs``)
THREADED = ("perceptron", "averaged", *ONLINE)
PROTOCOL = ("perceptron", "averaged", "voted", *ONLINE)


@click.command(name="train")
@click.argument("data", type=click.Path(), callback=note_input)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    callback=note_path,
    help="Model file to write (.npz).",
)
@click.option(
    "--model",
    "model_name",
    type=click.Choice(list(CLI_NAMES)),
    default="averaged",
    show_default=True,
    help="averaged predicts with the mean of the PLA's weight vectors, which suits data that are not separable; "
    "perceptron is the PLA's last iterate.  kernel densifies sparse DATA (refused first when two dense copies "
    "would not fit in memory).  The online family: pa (passive-aggressive), arow, cw (confidence-weighted), "
    "scw, sop (second-order perceptron), alma, romma, winnow; their own parameters go in --param.",
)
@click.option(
    "--param",
    "model_param",
    type=ModelParam(),
    multiple=True,
    help="NAME=VALUE: a parameter of the model that has no option of its own, repeatable "
    "(--model pa --param variant=pa2 --param C=0.1; --model arow --param r=0.5).",
)
@LABEL_OPTION
@FORMAT_OPTION
@ENCODING_OPTION
@click.option(
    "--scale",
    type=click.Choice(list(SCALE_CHOICES)),
    default="auto",
    show_default=True,
    help="How columns of numbers are scaled, by a step stored in the model and applied by every command: "
    "auto standardises a CSV/TSV table or a dense .npz and scales sparse data (LIBSVM, VW) by each column's "
    "largest |x|, which keeps zeros zero; --stream and a cluster do so too (sparse rows are not centred, but the "
    "columns of numbers of a table hashed for its text are standardised).  Text columns of a table are one-hot encoded (hashed beyond "
    "100 levels), and missing cells (empty, NA, NaN, null) imputed.",
)
@click.option(
    "--missing-indicator",
    is_flag=True,
    help="Tables: add a 0/1 column for each column of numbers that has missing cells.",
)
@click.option(
    "--drop",
    multiple=True,
    metavar="COLUMN",
    help="Tables: leave this column out (an identifier, say), repeatable; the model then neither reads nor needs it.",
)
@click.option(
    "--epochs",
    type=EPOCHS,
    default=None,
    help="Maximum number of epochs  [default: the model's own: perceptron 1000, pocket 20, the others 10]",
)
@ORDER_OPTION
@click.option("--init", type=click.Choice(["zeros", "random"]), default="zeros", show_default=True)
@SEED_OPTION
@click.option(
    "--margin",
    type=MARGIN,
    default=None,
    help="Update when y·f(x) ≤ margin  [default: the model's own: kernel 1, or 0 with --budget; else 0].",
)
@click.option(
    "--intercept/--no-intercept",
    default=None,
    help="Fold in a bias term, or not  [default: the model's own: yes, except for kernel].",
)
@click.option("--max-vectors", type=COUNT, default=None, help="voted: keep at most this many vectors.")
@kernel_options
@click.option(
    "--test",
    "test_path",
    type=click.Path(dir_okay=False),
    default=None,
    callback=note_path,
    help="Data file to report test accuracy on.",
)
@click.option(
    "--n-jobs",
    type=JOBS,
    default=None,
    help="perceptron, averaged and the online models: threads to train in (-1: every core); each trains on a "
    "share of every epoch and the copies are mixed after it (--param mix_every=N: every N rows)  [default: 1]",
)
@_calibrate.CALIBRATE_OPTION
@stream_options
@_distributed.distributed_options
def command(
    data,
    output,
    model_name,
    model_param,
    label,
    fmt,
    encoding,
    scale,
    missing_indicator,
    drop,
    epochs,
    order,
    init,
    seed,
    margin,
    intercept,
    max_vectors,
    kernel,
    gamma,
    degree,
    coef0,
    averaged,
    voted,
    budget,
    budget_policy,
    cache_size,
    test_path,
    n_jobs,
    calibrate,
    stream,
    cache_path,
    hash_bits,
    shuffle_buffer,
    text_column,
    workers,
    scheduler,
    shards,
    mixing,
    rounds,
):
    """Train a perceptron on DATA (CSV/TSV with header, LIBSVM, or .npz) and save it to the model file -o FILE.

    With --workers N or --scheduler ADDRESS, train by iterative parameter mixing on a Dask
    cluster: DATA read into memory and split into shards, or, when DATA is a directory or a glob
    of several files, each shard's files read by the worker that keeps it.
    """
    kernel_model = model_name == "kernel"
    online_model = model_name in ONLINE
    cluster_files = bool(workers or scheduler) and _sharded(data)
    threads_apply = model_name in THREADED and not (stream or workers or scheduler) and order != "random-mistake"
    refuse_unused(
        click.get_current_context(),
        {
            **_kernel_options.where_used(kernel_model, kernel, budget),
            "init": (
                not kernel_model and not online_model,
                "to the perceptrons (a kernel model starts from no support examples, an online learner from its rule's)",
            ),
            "margin": (
                not online_model,
                "to the perceptrons and the kernel model (an online learner's rule sets its own)",
            ),
            "max_vectors": (model_name == "voted", "with --model voted"),
            "seed": (
                order != "cyclic"
                or (init == "random" and not kernel_model)
                or (kernel_model and budget is not None and budget_policy == "random")
                or (stream and shuffle_buffer is not None),
                "where something is drawn at random: --order shuffle or random-mistake, --init random, "
                "--shuffle-buffer, or a kernel --budget with the random policy",
            ),
            **{k: (stream, "with --stream") for k in ("cache_path", "hash_bits", "text_column")},
            "shuffle_buffer": (stream and order == "shuffle", "with --stream and --order shuffle (the default)"),
            "scale": (
                not cluster_files or scale != "standard" or data_format(data, fmt) in TABLE_FORMATS,
                "as auto, maxabs or none to LIBSVM or VW shard files on a cluster (standard divides sparse "
                "rows by standard deviations that count every zero, which the workers do not send)",
            ),
            "missing_indicator": (
                not stream and not cluster_files and data_format(data, fmt) in TABLE_FORMATS,
                "to a CSV/TSV table read into memory",
            ),
            "drop": (not cluster_files and data_format(data, fmt) in TABLE_FORMATS, "to a CSV, TSV or Parquet table"),
            "label": (labelled_by_name(data, fmt), LABEL_WHERE),
            "encoding": (is_text_table(data, fmt), ENCODING_WHERE),
            "calibrate": (not stream and not (workers or scheduler), "in memory, on this machine"),
            "n_jobs": (
                n_jobs == 1 or threads_apply,
                "with --model perceptron, averaged or an online model, in memory, on this machine, in the order "
                "cyclic or shuffle (random-mistake makes one update an epoch)",
            ),
        },
    )
    cluster = _distributed.wanted(workers, scheduler, shards, mixing, rounds)
    if cluster and stream:
        raise click.UsageError("--stream trains on this machine; --workers/--scheduler read the shards on the workers")
    if cluster and model_name not in PROTOCOL or cluster and model_name == "voted":
        raise click.BadParameter(
            f"--model {model_name} cannot be trained by parameter mixing; perceptron, averaged and the online "
            f"family ({', '.join(ONLINE)}) can",
            param_hint="--workers/--scheduler",
        )
    if online_model and order == "random-mistake":
        raise click.BadParameter(
            f"random-mistake is the perceptrons' order; --model {model_name} visits rows cyclic or shuffle",
            param_hint="--order",
        )
    extra = model_params(model_param, estimator_class(CLI_NAMES[model_name]), DEDICATED)
    threads = threads_apply and n_jobs not in (None, 1)
    _distributed.check_mix_every(extra.get("mix_every"), "--param mix_every", cluster, threads, rounds)
    if cluster and order == "random-mistake":
        raise click.BadParameter(
            "random-mistake cannot be trained by parameter mixing (each step scans every row)", param_hint="--order"
        )
    if stream or cluster:  # DATA may be a directory or a glob of shards
        from perceptrons.io.sources import shard_paths

        tests = shard_paths(test_path) if test_path else []
        inputs = [("DATA", p) for p in shard_paths(data)] + [("--test", p) for p in tests]
        check_output_path(output, inputs, shards_of=data)
        if stream:
            check_output_path(cache_path or f"{output}.cache", inputs, hint="--cache", may_be_kept=True, shards_of=data)
    else:
        check_output_path(output, [("DATA", data), ("--test", test_path)])
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from perceptrons.persistence import save_model

    common = dict(
        fit_intercept=intercept,
        max_epochs=epochs,
        order=order,
        init=None if online_model else init,
        margin=margin,
        random_state=seed,
        **extra,
    )
    if stream:
        voted = {"max_vectors": max_vectors} if model_name == "voted" else {}
        return _train_stream(
            data,
            output,
            model_name,
            label,
            fmt,
            test_path,
            cache_path,
            hash_bits,
            shuffle_buffer,
            text_column,
            scale,
            _given(**common, **voted),
            encoding=encoding,
            drop=drop,
        )
    params = _given(**common, n_jobs=n_jobs if model_name in THREADED else None)  # --n-jobs 1 of pocket: none
    if cluster:
        if cluster_files:
            return _train_cluster_files(
                data,
                output,
                model_name,
                label,
                fmt,
                test_path,
                params,
                workers,
                scheduler,
                shards,
                (mixing, rounds),
                scale,
            )
    # a VW file's importance weights weigh the updates, as in a streamed or distributed fit
    prepared = read_training(
        data, label, fmt, scale, missing_indicator, dense=model_name == "kernel", drop=drop, encoding=encoding
    )
    X, y, weight = prepared.X, prepared.y, prepared.weight
    weighted = {} if weight is None else {"sample_weight": weight}
    check_label_text(y, f"{data}: label")  # predictions are written one per line
    from perceptrons.io.labels import check_classes

    check_classes(y, f"{data}: the label column{f' {prepared.label!r}' if prepared.label else ''}")
    prepared = prepared._replace(lines=[*prepared.lines, *label_notes(y, len(y))])
    test = None
    if test_path:
        # read before training: a missing, unlabelled or wrong-width test file must fail before
        # the model file is written over, not after
        test = read_test(test_path, prepared, label, fmt, encoding)
        if test.y is None:
            raise click.BadParameter(f"{test_path}: has no label column", param_hint="--test")
    cls = CLI_NAMES[model_name]
    if model_name == "voted":
        params["max_vectors"] = max_vectors
    if model_name == "kernel":
        params = _given(
            max_epochs=epochs,
            margin=margin,
            random_state=seed,
            **_kernel_options.kernel_params(
                kernel, gamma, degree, coef0, averaged, voted, budget, budget_policy, cache_size
            ),
            fit_intercept=intercept,
            order=order,
            **extra,
        )
    estimator = estimator_class(cls)(**params)
    if cluster:
        estimator, stopped = _distributed.on_cluster(
            estimator, X, y, shards, scheduler, workers, mixing, weighted, rounds
        )
        model = compose(prepared.prep, estimator)
        scores = _accuracies(model, (prepared.raw, y, weight), test)
        save_model(model, output, info=prepared.info)
        _report(cls, output, prepared, estimator, stopped, scores)
        for line in _distributed.summary(estimator):
            click.echo(line)
        return

    cost = _kernel_cost.kernel_cost(estimator, X) if model_name == "kernel" else None
    if cost is not None:
        _kernel_cost.say_cost(cost)
    # --calibrate: the model is fitted on each fold's training rows, then on every row
    fits = 1 + (_calibrate.FOLDS if calibrate else 0)
    fitted = _calibrate.calibrated(estimator, calibrate, y) if calibrate else estimator
    with (
        interrupt_between_epochs() as check,
        progress_bar("epoch {task.fields[epoch]}", "{task.fields[mistakes]} mistakes") as bar,
    ):
        task = bar.add_task("train", total=estimator.max_epochs * fits, mistakes="-", epoch="0")
        before = {"epochs": 0, "last": 0, "fit": 1}  # epochs of the fits before this one, this one's so far

        def on_epoch(epoch, mistakes, elapsed):
            if epoch <= before["last"]:  # the next fit has begun
                before["epochs"] += before["last"]
                before["fit"] += 1
            before["last"] = epoch
            bar.update(
                task,
                completed=before["epochs"] + epoch,
                mistakes=mistakes,
                epoch=_epoch_text(epoch, estimator, before["fit"], fits),
            )
            check()

        within = {}
        if cost is not None:  # an epoch of the kernel model can take minutes: the bar moves within it

            def within_epoch(epoch, visited, total):
                bar.update(task, completed=before["epochs"] + epoch - 1 + visited / total)
                check()  # Ctrl-C within an epoch of minutes, not at its end

            within = {"progress": within_epoch}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            fitted.fit(X, y, callback=on_epoch, **weighted, **within)
    estimator = _calibrate.inner(fitted)
    model = compose(prepared.prep, fitted)
    scores = _accuracies(model, (prepared.raw, y, weight), test)
    if calibrate:
        scores += [
            _calibrate.log_loss_line(name, model, read[0], read[1])
            for name, read in (("train", (prepared.raw, y)), ("test", test))
            if read is not None
        ]
        scores += _calibrate.summary_lines(calibrate, len(y))
    save_model(model, output, info=prepared.info)
    stopped = any(issubclass(w.category, ConvergenceWarning) for w in caught)
    if cost is not None:
        scores.append(
            f"{'kernel':<10} {estimator.n_kernel_rows_:,} kernel rows computed; {_kernel_cost.cost_line(cost)}"
        )
    _report(cls, output, prepared, estimator, stopped, scores)


def _sharded(data):
    """Whether DATA names several files (a directory or a glob): each worker then reads its own.
    A DATA that names nothing is not judged here: its reader says so, after the options are checked."""
    import os

    from perceptrons.io.sources import shard_paths

    if data == "-" or os.path.isfile(data):
        return False
    try:
        return len(shard_paths(data)) > 1
    except PerceptronsError:
        return False


def _accuracies(model, train, test):
    """The summary's accuracy lines of the ``(X, y, weight)`` of training and of ``--test`` (a
    :class:`~perceptrons.cli._prepare.Read`, or None), computed before the model is written: a
    model that cannot score its data (weights so large that the scores overflow) is refused, and
    nothing is written.  Rows with importance weights get their accuracy by them too."""
    from perceptrons._core.labels import alike, unseen_note
    from perceptrons.stream import WeightedHits

    lines = []
    for name, read in (("train", train), ("test", test)):
        if read is None:
            continue
        X, y, weight = read[:3]
        hits = alike(model.predict(X), y) == y
        lines.append(f"{name + ' acc':<10} {hits.mean():.4f}")
        note = unseen_note(y, model.classes_)  # as evaluate counts them: errors
        lines += [f"{'note':<10} {name} {note}"] if note else []
        if weight is not None:
            tally = WeightedHits()
            tally.add(hits, weight)
            lines.append(weighted_line(tally.accuracy(), f"{name} accuracy", 11))
    return lines


def _report(cls, output, prepared, estimator, stopped, scores):
    X = prepared.X
    _outcome(cls, output, f"{X.shape[0]} samples x {X.shape[1]} features", estimator, stopped)
    for line in [*prepared.lines, *scores]:
        click.echo(line)


def _train_cluster_files(
    data, output, model_name, label, fmt, test_path, params, workers, scheduler, shards, schedule, scale, encoding=None
):
    """``train SHARDS --workers/--scheduler``: each shard's files read by the worker that keeps
    it, and scaled as a streamed fit's are (:func:`_stream.scaled_model`), by statistics merged
    from every shard (means and counts, variances, maxima)."""
    from perceptrons.persistence import save_model

    cls = CLI_NAMES[model_name]
    src, test = (
        _stream.source_of(path, fmt, label, None, None, encoding=encoding, keep_missing=True) if path else None
        for path in (data, test_path)
    )
    estimator = estimator_class(cls)(**params)
    merged = "merged from every worker's shards"
    dense = src.dense_rows
    model, scaled = _stream.scaled_model(estimator, scale, merged, dense, centre=dense, numbers=src.number_columns)
    mixing, rounds = schedule
    model, stopped = _distributed.on_cluster(model, src, None, shards, scheduler, workers, mixing, rounds=rounds)
    estimator = model[-1] if scaled else model
    check_label_text(estimator.classes_, f"{src.spec}: label")
    scores = _stream.test_accuracy(model, test)
    # read later as the workers read it: by the streamed readers (a missing number kept for the imputer)
    columns = src.column_names()
    save_model(model, output, info={**stream_info(label, fmt, None, None, columns), **encoding_info(encoding)})
    _outcome(
        cls, output, f"{src.spec} ({len(src.paths)} files), {estimator.n_features_in_} features", estimator, stopped
    )
    for line in [*_distributed.summary(estimator), *scaled, *scores]:
        click.echo(line)


def _train_stream(
    data,
    output,
    model_name,
    label,
    fmt,
    test_path,
    cache_path,
    hash_bits,
    shuffle_buffer,
    text,
    scale,
    params,
    encoding=None,
    drop=(),
):
    """``train --stream``: the model is fitted from an epoch cache, never from the whole file in
    memory.  Its columns are scaled by a step fitted in a pass over the cache (``--scale``):
    dense rows standardised (auto, standard), as in memory; sparse ones divided by each
    column's largest |x| (auto, maxabs) or its standard deviation (standard), not centred, which
    would fill in every zero; but a hashed table's columns of numbers are standardised (auto,
    standard), as in memory, and its words' slots kept as read."""
    from perceptrons.persistence import save_model

    cls = CLI_NAMES[model_name]
    if model_name not in PROTOCOL:
        raise click.BadParameter(
            f"--model {model_name} cannot train from a stream; perceptron, averaged, voted and the online "
            f"family ({', '.join(ONLINE)}) can",
            param_hint="--stream",
        )
    options = {"encoding": encoding, "keep_missing": True, "drop": tuple(drop)}
    src = _stream.source_of(data, fmt, label, hash_bits, text, **options)
    test = _stream.source_of(test_path, fmt, label, hash_bits, text, **options) if test_path else None
    estimator = estimator_class(cls)(**params)
    dense, numbers = src.dense_rows, src.number_columns
    model, scaled = _stream.scaled_model(estimator, scale, impute=dense, centre=dense, numbers=numbers)
    columns = src.column_names()
    read = _stream.reading_lines(src, label, columns)
    info = {**stream_info(label, fmt, hash_bits, text, columns, drop, src.categories()), **encoding_info(encoding)}

    def finish():  # checks of the fitted model, then the model written: a failure removes the cache this run made
        check_label_text(estimator.classes_, f"{src.spec}: label")
        scores = _stream.test_accuracy(model, test)
        save_model(model, output, info=info)
        return [*label_notes(estimator.classes_), *scores]  # as the in-memory summary notes them

    with interrupt_between_epochs() as check:
        stopped_early, scores = _stream.train(model, src, output, cache_path, shuffle_buffer, check, finish)
    files = "standard input" if src.spec == "-" else f"{src.spec} ({len(src.paths)} file{'s' * (len(src.paths) > 1)})"
    _outcome(cls, output, f"{files}, {estimator.n_features_in_} features", estimator, stopped_early)
    for line in [f"last epoch {estimator.mistakes_per_epoch_[-1]} mistakes", *read, *scaled, *scores]:
        click.echo(line)


def _epoch_text(epoch, estimator, fit, fits):
    """The bar's epoch, and with --calibrate which fit it is (one per fold, then one on every row)."""
    return f"{epoch}/{estimator.max_epochs}" + (f" (fit {fit} of {fits}, --calibrate)" if fits > 1 else "")


def _given(**params):
    """The parameters the user gave; the others are left to the model's own defaults."""
    return {k: v for k, v in params.items() if v is not None}


def _outcome(cls, output, data, estimator, stopped):
    """The summary's first lines: the model written, the data, epochs and convergence."""
    click.echo(f"model      {cls} -> {output}")
    click.echo(f"data       {data}, {len(estimator.classes_)} classes")
    click.echo(
        f"epochs     {estimator.n_epochs_}   updates {estimator.n_updates_}   "
        f"converged {'yes' if estimator.converged_ else 'no'}"
    )
    if stopped and cls == "KernelPerceptron":
        click.echo(
            "note       stopped at --epochs with mistakes left: the data may not be separable in the "
            "kernel's feature space; --averaged predicts with the averaged hypothesis, which suits such data"
        )
    elif stopped:
        click.echo(
            "note       stopped at --epochs with mistakes left: the data may not be linearly separable; "
            "--model averaged or pocket gives a good hypothesis on such data"
        )
