"""The ``--stream`` side of ``train``, ``predict`` and ``evaluate``: files larger than memory.

Training parses the file once into an epoch cache (by default ``MODEL.cache`` beside the model)
and reads that back each epoch; prediction writes its labels as it reads.  Ctrl-C or SIGTERM
leaves neither a model nor a half-written cache (a whole one stays, for the restart); a run that
fails on its data or options leaves no cache it made.
"""

import os

import click

from perceptrons._core.errors import PerceptronsError
from perceptrons.cli._common import progress_bar, weighted_line
from perceptrons.cli._naming import note_path
from perceptrons.cli._options import BoundedInt, options_decorator
from perceptrons.cli._prepare import dropped_lines, final
from perceptrons.io.hashing import MAX_HASH_BITS

HASH_BITS = BoundedInt(1, MAX_HASH_BITS)
#: the shortest time a rate is shown over
MIN_RATE_SECONDS = 0.1
SHUFFLE_BUFFER = BoundedInt(1, 2**40)

STREAM_OPTIONS = (
    click.option("--stream", is_flag=True, help="Read DATA block by block (files larger than memory)."),
    click.option(
        "--cache",
        "cache_path",
        type=click.Path(dir_okay=False),
        default=None,
        callback=note_path,
        help="--stream: epoch cache file (default: MODEL.cache beside the model).",
    ),
    click.option(
        "--hash-bits",
        type=HASH_BITS,
        default=None,
        help="--stream: hash feature names into 2^B columns (default 18 where names must be hashed).",
    ),
    click.option(
        "--shuffle-buffer",
        type=SHUFFLE_BUFFER,
        default=None,
        help="--stream: shuffle each run of N rows (seeded; a local, not a global shuffle).",
    ),
    click.option("--text", "text_column", default=None, help="--stream: a CSV/Parquet column of raw text to hash."),
)


stream_options = options_decorator(STREAM_OPTIONS, "the streaming options")


def stream_info(label, fmt, hash_bits, text_column, columns=None, drop=(), categories=None):
    """The model's ``info`` of a streamed fit: the reader's options, so that ``predict`` and
    ``evaluate`` read a file as training did without being told them again.  ``columns``: a
    table's column names (the label's among them, those dropped not), which a later file is held
    to, since the streamed readers take columns by position; the label column is then named, not
    "the last".  ``drop``: the columns ``--drop`` left out, which a later file's reader leaves out
    too; ``categories``: a table's columns read as words, which a later file's reader reads so
    (and its other columns as numbers), whatever their cells there."""
    stream = {"format": fmt, "hash_bits": hash_bits, "text_column": text_column}
    if columns is not None:
        stream["columns"] = list(columns)
        label = label if label is not None else columns[-1]
    if drop:  # only then: a model without it reads as before
        stream["drop"] = list(drop)
    if categories is not None:
        stream["categories"] = list(categories)
    return {"label_column": label, "stream": stream}


def reading_lines(src, label, columns):
    """The summary's lines on how ``src`` is read: the label column it took when none was
    given (``columns``, its names), as the in-memory summary names it, and its columns that
    are not plain numbers or text (:meth:`~perceptrons.io.sources.Source.reading_notes`)."""
    lines = []
    if label is None and columns is not None:
        lines.append(f"{'label':<10} {columns[-1]!r}, the last column (--label NAME picks another)")
    lines += dropped_lines(list(src.drop))
    words = src.categories() or []
    if words:  # the columns hashed as categories, as the in-memory summary lists its encodings
        shown = ", ".join(map(repr, words[:8])) + (f" and {len(words) - 8} more" if len(words) > 8 else "")
        lines.append(f"{'words':<10} {shown}: text, each value hashed into one of {src.hashed_width:,} slots")
    return lines + [f"{'read':<10} {name}: {how}" for name, how in src.reading_notes().items()]


def columns_to_read(info, src, data, rows_to_predict, n_features):
    """``(label, labelled)`` to read DATA (a :class:`~perceptrons.io.sources.Source` ``src``,
    read with the stored label) for a streamed model of ``n_features`` inputs: its training
    columns in their order, with the label column or, for rows to predict, without it.  A
    model that did not keep its columns reads as before.

    Raises
    ------
    click.BadParameter
        Columns other than training's, or, for dense rows, in another order: the streamed
        readers take a dense row's columns by position, so the model would read one as another
        (hashed rows take them by name, in any order).
    """
    opts = info.get("stream") or {}
    trained, label = opts.get("columns"), info.get("label_column")
    if trained is None:
        return label, True
    names = src.column_names()
    # hashed rows (wider than the columns) take each column by its name, dense rows by position
    by_name = n_features != len(trained) - 1
    same = (lambda a, b: sorted(a) == sorted(b)) if by_name else (lambda a, b: a == b)
    if same(names, trained):
        return label, True
    features = [n for n in trained if n != label]
    if rows_to_predict and same(names, features):
        return None, False
    shown = ", ".join(map(repr, trained[:12])) + (", ..." if len(trained) > 12 else "")
    missing = [n for n in (features if rows_to_predict else trained) if n not in names]
    extra = [n for n in names if n not in trained]
    if missing:
        why = f"it lacks {', '.join(map(repr, missing[:5]))}"
    else:
        why = f"it has {', '.join(map(repr, extra[:5]))} besides" if extra else "they are in another order"
    without = f", or without the label {label!r}" if rows_to_predict else ""
    # hashed rows read each column by its name, in any order; dense rows by position
    how = "by name, in any order" if by_name else "by position"
    raise click.BadParameter(
        f"{data}: its columns differ from the model's ({why}); a streamed model reads the training's columns {how}: "
        f"give them as in training, {shown}{without}",
        param_hint="DATA",
    )


def stored_stream(info, model_path):
    """``(format, hash_bits, text_column)`` a streamed model was trained with, checked (its
    ``columns`` and ``drop`` too); None for a model fitted in memory.

    Raises
    ------
    PerceptronsError
        A malformed ``info.stream`` field, naming it.
    """
    from perceptrons.io.readers import FORMATS

    opts = info.get("stream")
    if opts is None:
        return None

    def names(key, least=1):  # an absent list of column names, or one of names
        values = opts.get(key)
        return values is None or (
            isinstance(values, list)
            and least <= len(values) <= 1 << 20
            and all(isinstance(c, str) and len(c) < 4096 for c in values)
        )

    base = {"format", "hash_bits", "text_column"}
    ok = (
        isinstance(opts, dict)
        and base <= set(opts) <= base | {"columns", "drop", "categories"}
        and names("columns")
        and names("drop")
        and names("categories", least=0)
        and (opts["format"] is None or opts["format"] in FORMATS)
        and (opts["hash_bits"] is None or (type(opts["hash_bits"]) is int and 1 <= opts["hash_bits"] <= MAX_HASH_BITS))
        and (opts["text_column"] is None or (isinstance(opts["text_column"], str) and len(opts["text_column"]) < 4096))
    )
    if not ok:
        raise PerceptronsError(
            f"{model_path}: model field info.stream: expected an object of format (a data format or null), "
            f"hash_bits (1 to {MAX_HASH_BITS} or null), text_column (a string or null) and, for a table, "
            "columns, drop and categories (lists of column names)"
        )
    return opts["format"], opts["hash_bits"], opts["text_column"]


def read_options(info, model_path, data, stream, fmt, hash_bits, text_column):
    """``(stream, fmt, hash_bits, text_column)`` for reading DATA for a saved model: what the
    command line gave, else what a streamed model was trained with (its format only for
    standard input, which has no extension).  A streamed model reads DATA by the stream's
    reader even without ``--stream``: hashed features exist only there."""
    stored = stored_stream(info, model_path)
    if stored is None:
        from perceptrons.cli._prepare import table_info

        table = table_info(info, model_path)
        if stream and table is not None and "text" in table[2]:
            # its column pipeline takes the table's cells; the streamed readers hash text columns
            raise click.BadParameter(
                f"{model_path}: was trained in memory on a table with text columns, which --stream reads "
                "hashed; read DATA without --stream (or train the model with --stream)",
                param_hint="--stream",
            )
        return stream, fmt, hash_bits, text_column
    s_fmt, s_bits, s_text = stored
    if hash_bits is not None and s_bits is not None and hash_bits != s_bits:
        raise click.BadParameter(
            f"{hash_bits}: the model was trained with --hash-bits {s_bits}; its features are hashed so",
            param_hint="--hash-bits",
        )
    if fmt is None and data == "-":
        fmt = s_fmt
    return True, fmt, s_bits if hash_bits is None else hash_bits, text_column if text_column is not None else s_text


def source_of(
    data,
    fmt,
    label,
    hash_bits,
    text_column,
    require_labels=True,
    encoding=None,
    keep_missing=False,
    labelled=True,
    drop=(),
    categories=None,
):
    """The :class:`~perceptrons.io.sources.Source` of DATA; its errors become one-line CLI errors.
    ``keep_missing``: a table's missing numbers are kept (NaN in dense rows, left out of hashed
    ones) for a model that imputes them, rather than refused.  ``labelled`` False: a table to
    predict that has no label column.  ``drop``: a table's columns left out (``--drop``, or a
    streamed model's); ``categories``: a streamed model's columns of words
    (:func:`stored_reading`)."""
    from perceptrons.io.sources import Source

    return Source(
        data,
        fmt,
        label=label,
        hash_bits=hash_bits,
        text=text_column,
        require_labels=require_labels,
        encoding=encoding or "utf-8",
        keep_missing=keep_missing,
        labelled=labelled,
        drop=drop,
        categories=categories,
    )


def label_to_read(info, model_path, data, fmt, label):
    """The label column a streamed read of DATA takes: ``--label``, else the model's own.  A
    model trained on a table reads a matrix file (LIBSVM, VW) by position only in memory: a
    streamed read takes a table's columns by name, and the error said ``--label`` was given.
    """
    from perceptrons.cli._prepare import data_format

    stored = info.get("label_column")
    kind = data_format(data, fmt)
    if label is None and stored is not None and kind in ("libsvm", "vw"):
        in_memory = stored_stream(info, model_path) is None  # else it was trained streamed, and reads so
        raise click.BadParameter(
            f"{data}: is {kind}, but the model was trained on a table, whose columns a streamed read takes by "
            "name; give a CSV, TSV or Parquet file with them"
            + (f", or read the {kind} file without --stream (by position)" if in_memory else ""),
            param_hint="DATA",
        )
    return label if label is not None else stored


def stored_reading(info):
    """How a streamed model's later files are read, as :func:`source_of` takes it: the columns
    its training left out (``drop``) and those it read as words (``categories``); nothing for
    any other model (:func:`stored_stream` checked them)."""
    opts = info.get("stream") or {}
    categories = opts.get("categories")
    return {"drop": tuple(opts.get("drop") or ()), "categories": None if categories is None else tuple(categories)}


def train(estimator, src, output, cache_path, shuffle_buffer, check, finish):
    """Fit ``estimator`` from ``src`` with a progress bar of rows/s, epochs and mistakes, then
    call ``finish()``, whose checks may still refuse the model and which writes it; returns
    (whether the fit ended without converging, the training accuracy's line (a pass over the
    epoch cache) and what ``finish`` returned)."""
    cache_path = cache_path or f"{output}.cache"
    if os.path.abspath(cache_path) in {os.path.abspath(p) for p in src.paths}:
        raise click.BadParameter(f"{cache_path}: is an input file; choose another cache path", param_hint="--cache")
    if os.path.abspath(cache_path) == os.path.abspath(output):
        raise click.BadParameter(
            f"{cache_path}: is the model file (-o); choose another cache path", param_hint="--cache"
        )
    # A run that fails on its data, its options or its output leaves nothing new behind: a cache
    # it made goes with it (rerun as it is, it would fail the same way).  An interrupted run
    # keeps a whole cache for the restart, and says so; a cache kept from an earlier run stays.
    made = not os.path.exists(cache_path)
    try:
        stopped = _fit(estimator, src, cache_path, shuffle_buffer, check)
        from perceptrons.stream import training_accuracy

        accuracy = f"{'train acc':<10} {training_accuracy(estimator, src, cache_path):.4f}"
        return stopped, [accuracy, *finish()]
    except KeyboardInterrupt:
        if made and os.path.isfile(cache_path):  # whole: a first pass cut short leaves none
            raise Interrupted(f"the epoch cache {cache_path} is kept, to start again from") from None
        raise
    except (PerceptronsError, click.ClickException, OSError, ValueError, MemoryError):
        if made and os.path.isfile(cache_path):
            os.remove(cache_path)
        raise


class Interrupted(KeyboardInterrupt):
    """Ctrl-C after a run wrote a file it keeps: the message names it (not "nothing was written")."""

    def __init__(self, kept):
        super().__init__(kept)
        self.kept = kept


def _fit(estimator, src, cache_path, shuffle_buffer, check):
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from perceptrons import stream
    from perceptrons.io.chunks import is_gzip

    total_bytes = sum(os.path.getsize(p) for p in src.paths)
    gz = any(is_gzip(p) for p in src.paths)  # the decompressed size is not known beforehand
    with progress_bar(
        "{task.description}",
        "{task.fields[rows]:,} rows  {task.fields[rate]}",
        "{task.fields[mistakes]}",
        remaining=True,
    ) as bar:
        task = bar.add_task(
            f"parse {total_bytes / 1e6:,.0f} MB", total=None if gz else total_bytes, rows=0, rate="", mistakes=""
        )
        state = {"t0": None, "rows": 0, "epoch": 0, "r0": 0, "b0": 0}
        max_epochs = final(estimator).max_epochs  # a Pipeline's last step: the --scale step is before it

        def progress(phase, rows, epoch, text_bytes):
            import time

            now = time.perf_counter()
            if state["t0"] is None or epoch != state["epoch"]:
                # the clock starts at the first report of a pass, which comes after its first
                # block: the rates count the rows since then, not that block's over no time
                state.update(t0=now, epoch=epoch, r0=rows, b0=text_bytes)
                if phase == "train":
                    bar.reset(task, description=f"epoch {epoch}/{max_epochs}", total=state["rows"])
            seconds = now - state["t0"]
            measured = seconds >= MIN_RATE_SECONDS
            row_rate = f"{(rows - state['r0']) / seconds:,.0f} rows/s" if measured else ""
            if phase == "parse":
                state["rows"] = rows
                byte_rate = f"  {(text_bytes - state['b0']) / seconds / 1e6:,.0f} MB/s" if measured else ""
                bar.update(task, completed=text_bytes, rows=rows, rate=row_rate + byte_rate)
            else:
                bar.update(task, completed=rows, rows=rows, rate=row_rate)
            check()

        def on_epoch(epoch, mistakes, elapsed):
            bar.update(task, mistakes=f"{mistakes:,} mistakes (epoch {epoch})")
            check()

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            stream.fit(
                estimator, src, cache=cache_path, shuffle_buffer=shuffle_buffer, callback=on_epoch, progress=progress
            )
    return any(issubclass(w.category, ConvergenceWarning) for w in caught)


def scaled_model(
    estimator, scale, fitted="fitted in a pass over the epoch cache", impute=False, centre=False, numbers=()
):
    """``(the model a streamed or sharded fit trains, its summary lines)``: the estimator behind
    the ``--scale`` step in a Pipeline, or alone with ``--scale none``; ``fitted`` says how the
    step learns.  With ``impute`` (dense rows of a table), a first step fills each missing
    number with its column's mean, as the in-memory column pipeline does.  With ``centre``
    (a stream of dense rows), ``auto`` and ``standard`` standardise, as in memory.  With
    ``numbers`` (the columns of numbers of hashed rows) they standardise those columns alone
    (:class:`~perceptrons.column_scaler.ColumnStandardScaler`), which keeps the rows sparse and
    the words' slots as read, as the in-memory column pipeline leaves its one-hot columns.  Other
    sparse rows are not centred, which would fill in their zeros, and sharded ones are scaled by
    maxima, which merge exactly."""
    from sklearn.pipeline import Pipeline

    steps, lines = [], []
    if impute:
        from sklearn.impute import SimpleImputer

        steps.append(("impute", SimpleImputer(strategy="mean", keep_empty_features=True)))
        lines.append(f"{'missing':<10} a missing number takes its column's mean, {fitted}")
    if scale != "none":
        from sklearn.preprocessing import MaxAbsScaler, StandardScaler

        standardised = "standardised (its mean subtracted, divided by its standard deviation)"
        if numbers and scale in ("auto", "standard"):  # the columns of numbers among hashed text
            from perceptrons.column_scaler import ColumnStandardScaler

            step, how = (
                ColumnStandardScaler(columns=list(numbers)),
                f"column of numbers {standardised}, the words' slots",
            )
            how += " kept as read"
        elif centre and scale in ("auto", "standard"):
            step, how = StandardScaler(), standardised
        elif scale == "standard":
            step, how = StandardScaler(with_mean=False), "divided by its standard deviation (not centred)"
        else:
            step, how = MaxAbsScaler(), "divided by its largest |x|"
        steps.append(("scale", step))
        lines.append(f"{'columns':<10} each {how}, {fitted}; --scale none keeps them as read")
    if not steps:
        return estimator, []
    return Pipeline([*steps, ("model", estimator)]), lines


def test_accuracy(estimator, test):
    """The test accuracy lines of a streamed source (none without ``--test``), before the model is written."""
    from perceptrons import stream

    if test is None:
        return []
    res = stream.evaluate(estimator, test)
    lines = [f"test acc   {res['accuracy']:.4f}"]
    if res["unseen"]:
        lines.append(f"{'note':<10} {res['unseen']:,} test rows have labels not seen in training: counted as errors")
    if "weighted_accuracy" in res:
        lines.append(weighted_line(res["weighted_accuracy"], "test accuracy", 11))
    return lines
