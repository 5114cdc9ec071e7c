"""Pieces the CLI commands share: estimator names, the data options, reading data for a model,
predicting in chunks, Ctrl-C between epochs.  Option types are in ``_options``, the output
check in ``_paths``, the naming of options and files in errors in ``_naming``."""

import contextlib
import os
import sys

import click

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.registry import CLASSIFIERS

FORMAT_OPTION = click.option(
    "--format",
    "fmt",
    type=click.Choice(["csv", "tsv", "libsvm", "npz", "vw", "parquet"]),
    default=None,
    help="Data format; by default chosen from the file extension.",
)
LABEL_OPTION = click.option("--label", default=None, help="CSV/TSV: name of the label column (default: the last).")


def _checked_encoding(ctx, param, value):
    from perceptrons.io.encodings import check_encoding

    if value is None:
        return None
    try:
        return check_encoding(value, "--encoding")
    except PerceptronsError as exc:
        raise click.BadParameter(str(exc).removeprefix("--encoding: "), param_hint="--encoding") from None


ENCODING_OPTION = click.option(
    "--encoding",
    default=None,
    callback=_checked_encoding,
    help="CSV/TSV: the file's text encoding, e.g. cp1252 for a CSV Excel saved on Windows  [default: utf-8; "
    "for a saved model, the one it was trained on]",
)


def stored_encoding(info, model_path):
    """The text encoding a model's training table was read in (UTF-8 when the model does not say).

    Raises
    ------
    PerceptronsError
        A malformed ``info.encoding`` field, naming it.
    """
    from perceptrons.io.encodings import DEFAULT_ENCODING, check_encoding

    name = info.get("encoding", DEFAULT_ENCODING)
    try:
        return check_encoding(name, f"{model_path}: model field info.encoding")
    except PerceptronsError:
        raise PerceptronsError(
            f"{model_path}: model field info.encoding: expected the name of a text encoding that writes ASCII as "
            "ASCII does (utf-8, cp1252, ...)"
        ) from None


def stored_zero_based(info, model_path=None):
    """Whether a model's LIBSVM training file was 0-based (``info.libsvm_zero_based``; absent: no).

    Raises
    ------
    PerceptronsError
        A malformed field, naming it.
    """
    flag = (info or {}).get("libsvm_zero_based", False)
    if not isinstance(flag, bool):
        where = f"{model_path}: " if model_path else ""
        raise PerceptronsError(f"{where}model field info.libsvm_zero_based: expected true or false")
    return flag


def read_any_base(read):
    """``(read(zero_based), zero_based)``: a LIBSVM file read 1-based, or 0-based when it holds
    feature index 0 (as scikit-learn's ``dump_svmlight_file`` writes by default).  A model
    stores the answer, so the files read for it later are read alike."""
    from perceptrons.io.libsvm import IndexZero

    try:
        return read(False), False
    except IndexZero:
        return read(True), True


def encoding_info(encoding):
    """The model's ``info`` entry for the encoding its data was read in: none for UTF-8."""
    return {} if encoding in (None, "utf-8") else {"encoding": encoding}


LABEL_WHERE = "to CSV, TSV and Parquet data (a LIBSVM or VW line starts with its label; an npz holds y)"


ENCODING_WHERE = "to CSV and TSV files (LIBSVM and VW lines are read as UTF-8, Parquet stores it)"


def is_text_table(path, fmt):
    """Whether DATA is a CSV or TSV file, whose text encoding ``--encoding`` may name, as
    ``--format`` or the file's extension says (standard input, a directory or a glob: not judged here)."""
    import os

    from perceptrons.io.readers import guess_format

    if fmt is None and (path == "-" or not os.path.isfile(path)):
        return True
    return (fmt or guess_format(path)) in ("csv", "tsv")


def labelled_by_name(path, fmt):
    """Whether DATA's label column is chosen by name (``--label``): CSV, TSV or Parquet, as
    ``--format`` or the file's extension says (a directory or glob of shards: not judged here)."""
    import os

    from perceptrons.io.readers import guess_format

    if fmt is None and (path == "-" or not os.path.isfile(path)):
        return True
    return (fmt or guess_format(path)) in ("csv", "tsv", "parquet")


def load_classifier(path):
    """(estimator, info) of a classifier model file whose labels can be written one per line."""
    from perceptrons.persistence import load_model

    est, info = load_model(path, expect=CLASSIFIERS, with_info=True)
    check_label_text(est.classes_, f"{path}: model class label")
    return est, info


def check_label_text(labels, what, field=False):
    """Refuse text labels the CLI cannot write: one per line (predictions), or as a CoNLL-U field
    (``field``: tags).  Such a label is empty, or holds a line break or another control
    character, a lone surrogate (UTF-8 cannot write it) or (a field) a space; written out, it
    would split or shift the lines.

    Raises
    ------
    PerceptronsError
        One line: ``what``, the label seen, what is expected.
    """
    import unicodedata

    import numpy as np

    for label in np.unique(np.asarray(labels)).tolist() if len(labels) else ():
        if not isinstance(label, str):
            if field:  # a tagger fitted through the API on tags that are numbers
                raise PerceptronsError(
                    f"{what} {label!r} is of type {type(label).__name__}; expected text tags, as a CoNLL-U file holds"
                )
            continue
        bad = label == "" or any(
            unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or (field and ch.isspace()) for ch in label
        )
        if bad:
            shown = repr(label[:40]) + ("..." if len(label) > 40 else "")
            breaks = "spaces" if field else "line breaks"
            raise PerceptronsError(
                f"{what} {shown} cannot be written out; expected non-empty text without {breaks}, control "
                "characters or lone surrogates"
            )


def read_for_model(path, model, label, fmt, info=None, require_labels=True, return_weight=False, encoding=None):
    """(X, y) for a fitted model; y is None for a CSV holding features only.  With
    ``require_labels`` False (``predict``) rows may lack a label (see ``read_data``).

    Without ``--label``, a CSV/TSV's label column is the one the model was trained with.
    Labels are typed per file (integers when every label of *that* file is one), so when the
    model's classes are text and this file's labels happen to be all integers, they are
    compared as text: classes '0', '1', '1.5' and a file of 0s and 1s agree.  With
    ``return_weight``, also the rows' importance weights (a Vowpal Wabbit file's) or None;
    ``encoding``: a CSV/TSV file's.
    """
    X, y, *weight = read_for_width(
        path,
        model.n_features_in_,
        label,
        fmt,
        info,
        require_labels=require_labels,
        return_weight=return_weight,
        encoding=encoding,
    )
    classes = getattr(model, "classes_", None)
    if y is not None and classes is not None and classes.dtype.kind == "U" and y.dtype.kind in "iu":
        y = y.astype(str)
    return X, y, *weight


def read_for_width(
    path,
    n_features,
    label,
    fmt,
    info=None,
    hint="DATA",
    against="the model was trained on",
    require_labels=True,
    return_weight=False,
    encoding=None,
):
    """(X, y) of a file that must have ``n_features`` columns: :func:`read_for_model` without a
    model yet (``train --test`` is read before training, so a bad test file costs nothing)."""
    from perceptrons.io.readers import read_data

    label = label or (info or {}).get("label_column")
    X, y, *weight = read_data(
        path,
        label=label,
        fmt=fmt,
        n_features=n_features,
        require_labels=require_labels,
        return_weight=return_weight,
        encoding=encoding or "utf-8",
        zero_based=stored_zero_based(info),
    )
    if X.shape[1] != n_features:
        shown = "standard input" if path == "-" else path
        raise click.BadParameter(f"{shown}: {X.shape[1]} features, but {against} {n_features}", param_hint=hint)
    return X, y, *weight


def weighted_line(accuracy, what="accuracy", width=10):
    """The line reporting an accuracy weighted by the rows' importance weights (None: undefined),
    its value in the column ``width`` of the lines around it."""
    shown = "undefined (the weights sum to 0 or overflow)" if accuracy is None else f"{accuracy:.4f}"
    return f"{'weighted':<{width}}{shown}  ({what} by the rows' importance weights)"


#: bytes of class scores a prediction may hold at once (``predict`` builds an n × k score matrix)
PREDICT_CHUNK_BYTES = 64 << 20


def predict_in_chunks(estimator, X):
    """``estimator.predict(X)`` a block of rows at a time, so that the n × k scores of a model
    with many classes (10,000 classes × 20,000 rows: 1.6 GB) never exist at once."""
    import numpy as np

    n, k = X.shape[0], max(len(getattr(estimator, "classes_", ())), 1)
    step = max(1, PREDICT_CHUNK_BYTES // (8 * k))
    if n <= step:
        return estimator.predict(X)
    return np.concatenate([estimator.predict(X[i : i + step]) for i in range(0, n, step)])


@contextlib.contextmanager
def interrupt_between_epochs():
    """Within the block, Ctrl-C sets a flag instead of raising at once; ``check()`` (called from
    the epoch callback) raises ``KeyboardInterrupt`` when it is set.

    An interrupt raised at an arbitrary bytecode can land inside the progress bar's lock, which
    its refresh thread then waits on forever; raised from the callback, it leaves between epochs.
    The compiled epoch loops do not see Python signals anyway, so no response time is lost.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    hit = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: hit.set())

    def check():
        if hit.is_set():
            raise KeyboardInterrupt

    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, previous)
    check()


def progress_bar(first, *texts, remaining=False):
    """A transient ``rich`` progress bar on standard error, shown only when that is a terminal.

    Columns: the text ``first``, the bar, each of ``texts``, the time elapsed and, with
    ``remaining``, the time left; the texts are ``rich`` format strings of the task.

    Redirected to a file or a pipe, a bar has nothing to redraw, and ``rich`` would still write
    an empty line where it was: the line above a one-line error message.  There ``rich`` is not
    even imported (~25 ms of a command's start), and a bar that does nothing stands in.
    """
    if not sys.stderr.isatty() and not os.environ.get("FORCE_COLOR") and not os.environ.get("TTY_COMPATIBLE"):
        return _NoBar()
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    class Bar(Progress):  # defined here: rich is imported only for a terminal
        """A bar that is redrawn at each update where no thread can be started to redraw it."""

        def start(self):
            try:
                super().start()
            except RuntimeError:  # a process at its thread limit: rich's refresh thread not started
                self.live.auto_refresh = False

        def update(self, *args, **kwargs):
            super().update(*args, **kwargs)
            if not self.live.auto_refresh:
                self.refresh()

    console = Console(stderr=True)
    columns = [TextColumn(first), BarColumn(), *map(TextColumn, texts), TimeElapsedColumn()]
    if remaining:
        columns.append(TimeRemainingColumn())
    return Bar(*columns, console=console, transient=True, disable=not console.is_terminal)


class _NoBar:
    """The calls of ``rich.progress.Progress`` that the commands make, doing nothing."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, *args, **kwargs):
        return 0

    def start(self):
        pass

    stop = start

    def update(self, *args, **kwargs):
        pass

    reset = update
