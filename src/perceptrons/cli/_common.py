"""Pieces the CLI commands share: estimator names, data loading, output-path checks, the
option types that refuse non-finite or absurd numbers, and the library-parameter → option map."""

import contextlib
import math
import os
import re

import click


# ----------------------------------------------------------------------------- option types
class FiniteFloat(click.ParamType):
    """A finite float, optionally within ``[low, high]`` (either end open).

    ``inf``, ``nan`` and anything that overflows to them (``1e400``) are refused with the option
    named, as is a value outside the range: a NaN kernel parameter would otherwise train to NaN
    scores and report "converged".
    """

    name = "float"

    def __init__(self, low=None, high=None, low_open=False, high_open=False):
        self.low, self.high, self.low_open, self.high_open = low, high, low_open, high_open

    def describe(self):
        if self.low is None and self.high is None:
            return "a finite number"
        if self.high is None:
            return f"a finite number {'>' if self.low_open else '≥'} {_num(self.low)}"
        if self.low is None:
            return f"a finite number {'<' if self.high_open else '≤'} {_num(self.high)}"
        left, right = "(" if self.low_open else "[", ")" if self.high_open else "]"
        return f"a finite number in {left}{_num(self.low)}, {_num(self.high)}{right}"

    def convert(self, value, param, ctx):
        if isinstance(value, bool):
            self.fail(f"{value!r} is not a number; expected {self.describe()}", param, ctx)
        if isinstance(value, (int, float)):
            number = float(value)
        else:
            text = str(value).strip()
            try:
                number = float(text)
            except (ValueError, OverflowError):
                self.fail(f"{str(value)[:40]!r} is not a number; expected {self.describe()}", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{str(value)[:40]} is not finite; expected {self.describe()}", param, ctx)
        too_low = self.low is not None and (number <= self.low if self.low_open else number < self.low)
        too_high = self.high is not None and (number >= self.high if self.high_open else number > self.high)
        if too_low or too_high:
            self.fail(f"{str(value)[:40]} is out of range; expected {self.describe()}", param, ctx)
        return number


def _num(x):
    return str(int(x)) if x == int(x) and abs(x) < 1e15 else f"{x:g}"


class BoundedInt(click.ParamType):
    """An integer written as digits (``1e20`` and ``3.0`` are refused) within ``[low, high]``.

    Every integer option has an upper bound, so that a huge value gives a clear message instead
    of an allocation or an overflow deep inside a fit.
    """

    name = "integer"
    _DIGITS = re.compile(r"^[+-]?[0-9]+$")

    def __init__(self, low, high):
        self.low, self.high = low, high

    def describe(self):
        return f"an integer in [{self.low}, {self.high}]"

    def convert(self, value, param, ctx):
        if isinstance(value, bool):
            self.fail(f"{value!r} is not an integer; expected {self.describe()}", param, ctx)
        if isinstance(value, int):
            number = value
        else:
            text = str(value).strip()
            if not self._DIGITS.match(text) or len(text) > 40:
                self.fail(f"{str(value)[:40]!r} is not an integer; expected {self.describe()}", param, ctx)
            number = int(text)
        if not self.low <= number <= self.high:
            self.fail(f"{str(value)[:40]} is out of range; expected {self.describe()}", param, ctx)
        return number


class WordOrFloat(click.ParamType):
    """One of a few words (``scale``, ``auto``) or a number of a :class:`FiniteFloat` type."""

    name = "text"

    def __init__(self, words, number):
        self.words, self.number = tuple(words), number

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value.strip() in self.words:
            return value.strip()
        try:
            return self.number.convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"{str(value)[:40]!r} is not {' or '.join(repr(w) for w in self.words)} nor "
                      f"{self.number.describe()}", param, ctx)


#: the bounds of the CLI's numbers, in one place
SEED = BoundedInt(0, 2**32 - 1)  # numpy's RandomState seeds
EPOCHS = BoundedInt(1, 10**9)
COUNT = BoundedInt(1, 2**31 - 1)  # --max-vectors, --patience
BUDGET = BoundedInt(1, 10**7)  # the kernel perceptron allocates its age ring up front
DEGREE = BoundedInt(1, 100)
MARGIN = FiniteFloat(0.0, 1e100)
COEF0 = FiniteFloat(-1e100, 1e100)
GAMMA = FiniteFloat(0.0, 1e100, low_open=True)
CACHE_MB = FiniteFloat(0.0, 2.0**20, low_open=True)  # megabytes: up to 1 TiB of kernel rows
GAMMA_OR_WORD = WordOrFloat(("scale", "auto"), GAMMA)
MAX_POINTS = BoundedInt(1, 30)  # vc tests 2^m labelings
DEMO_SEED = BoundedInt(0, 2**32 - 4)  # the demo also seeds seed+1 … seed+3


# ----------------------------------------------------------------------------- parameter names
#: per command, the library parameter → the CLI option that sets it.  A library error about a
#: parameter ("The 'random_state' parameter of Perceptron must be ...") that escapes a command
#: is rewritten by :func:`name_options` to name the option the user typed.
PARAM_OPTIONS = {
    "train": {"max_epochs": "--epochs", "random_state": "--seed", "margin": "--margin", "order": "--order",
              "init": "--init", "fit_intercept": "--no-intercept", "max_vectors": "--max-vectors",
              "kernel": "--kernel", "gamma": "--gamma", "degree": "--degree", "coef0": "--coef0",
              "budget": "--budget", "budget_policy": "--budget-policy", "cache_size": "--cache-size",
              "averaged": "--averaged", "voted": "--voted"},
    "trace": {"max_epochs": "--epochs", "order": "--order", "random_state": "--seed",
              "fit_intercept": "--no-intercept"},
    "analyze": {"max_epochs": "--max-epochs", "fit_intercept": "--no-intercept"},
    "vc": {"max_points": "--max-points", "concept": "--concept"},
    "demo": {"random_state": "--seed"},
    "tag train": {"max_epochs": "--epochs", "random_state": "--seed", "templates": "--templates",
                  "clusters": "--clusters", "decoder": "--decoder", "patience": "--patience",
                  "tag_dict": "--tag-dict", "edges": "--edges", "markov_order": "--second-order",
                  "column": "--column"},
    "tag predict": {"column": "--column"},
    "tag evaluate": {"column": "--column"},
}


def command_name(argv):
    """``"train"``, ``"tag train"``, … from the arguments after the program name."""
    words = [str(a) for a in argv if not str(a).startswith("-")][:2]
    if not words:
        return ""
    return " ".join(words) if words[0] == "tag" and len(words) > 1 else words[0]


def note_input(ctx, param, value):
    """Click callback of a command's input-file argument: remembered (in ``ctx.meta``, shared by
    the whole context tree) so that a library error that names no file can be given this one,
    e.g. "d.csv: y has 1 class (0); ..."."""
    if value is not None:
        ctx.meta["perceptrons.input"] = str(value)
        note_path(ctx, param, value)
    return value


def note_path(ctx, param, value):
    """Click callback of any other path argument (model, output, --test, …): an error that
    names one of them is not given the input file's name."""
    if value is not None:
        ctx.meta.setdefault("perceptrons.paths", []).append(str(value))
    return value


def name_input(message, meta):
    """``message`` prefixed with the command's input file when it names no file and no option."""
    data = meta.get("perceptrons.input")
    if not data or "--" in message or re.search(r"\bThe '\w+' parameter", message):
        return message
    if data == "-" and "standard input" in message:  # read_data("-") names it so already
        return message
    if any(p and p in message for p in meta.get("perceptrons.paths", [])):
        return message
    return f"{data}: {message}"


def name_options(message, command):
    """``message`` with the library's parameter names replaced by ``command``'s option names."""
    for param, option in PARAM_OPTIONS.get(command, {}).items():
        p = re.escape(param)
        message = re.sub(rf"\bThe '{p}' parameter(?: of \w+)?", option, message)
        message = re.sub(rf"'{p}' parameter", option, message)
        message = re.sub(rf"(?<![\w-]){p}=", f"{option}=", message)
        message = re.sub(rf"^{p}(?=\s)", option, message)
    return message

#: --model name -> (module, class)
MODELS = {
    "perceptron": ("perceptrons.linear.perceptron", "Perceptron"),
    "pocket": ("perceptrons.linear.pocket", "PocketPerceptron"),
    "averaged": ("perceptrons.linear.averaged", "AveragedPerceptron"),
    "voted": ("perceptrons.linear.voted", "VotedPerceptron"),
    "kernel": ("perceptrons.kernel.perceptron", "KernelPerceptron"),
}

#: the classifiers `predict` and `evaluate` accept (the tagger has its own commands)
CLASSIFIERS = ("Perceptron", "PocketPerceptron", "AveragedPerceptron", "VotedPerceptron", "KernelPerceptron")

FORMAT_OPTION = click.option(
    "--format", "fmt", type=click.Choice(["csv", "tsv", "libsvm", "npz"]), default=None,
    help="Data format; by default chosen from the file extension.",
)
LABEL_OPTION = click.option("--label", default=None, help="CSV/TSV: name of the label column (default: the last).")


def check_output_path(output, inputs=(), stream_ok=False, hint="-o"):
    """Refuse, before anything is read at length, trained or written, a run that would fail late
    or destroy one of its inputs.  Every command that writes a file calls this first.

    ``inputs`` are ``(name, path)`` pairs (``DATA``, ``--test``; a ``None`` path is skipped,
    ``-`` is standard input).  Refused, with a one-line error naming the option and the file:

    * an input that does not exist, is a directory or cannot be read; standard input twice;
    * ``output`` that is ``-`` (or another descriptor) unless ``stream_ok`` — a model file is
      not sent to standard output, where the summary goes;
    * ``output`` that :func:`perceptrons.io.atomic.output_target` refuses (missing directory,
      directory, block device, socket), that exists and is not writable, or whose directory
      does not let a file be created in it (the temporary file goes there);
    * ``output`` that is the same file as an input, also through a symbolic or hard link:
      ``train data.csv -o data.csv`` would replace the data with a model.
    """
    from perceptrons._validation import PerceptronsError
    from perceptrons.io.atomic import output_target

    inputs = [(name, path) for name, path in inputs if path is not None]
    from_stdin = [name for name, path in inputs if path == "-"]
    if len(from_stdin) > 1:
        raise click.BadParameter(f"-: standard input can be read only once, but {' and '.join(from_stdin)} both "
                                 "name it", param_hint=from_stdin[-1])
    for name, path in inputs:
        if path == "-":
            continue
        what = "model file" if name == "MODEL" else "file"
        if not os.path.exists(path):
            raise click.BadParameter(f"{path}: no such {what}", param_hint=name)
        if os.path.isdir(path):
            raise click.BadParameter(f"{path}: is a directory, expected a {what}", param_hint=name)
        if not os.access(path, os.R_OK):
            raise click.BadParameter(f"{path}: cannot read: permission denied", param_hint=name)
    if output is None:
        return
    try:
        kind, where = output_target(output)
    except PerceptronsError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None
    if kind == "stream":
        if not stream_ok:
            raise click.BadParameter(f"{output}: a model file is not written to standard output or a descriptor; "
                                     "give a file name", param_hint=hint)
        return
    if kind == "device":
        if not os.access(output, os.W_OK):
            raise click.BadParameter(f"{output}: cannot write: permission denied", param_hint=hint)
        return
    directory = os.path.dirname(where)
    if os.path.exists(where):
        if not os.access(where, os.W_OK):
            raise click.BadParameter(f"{output}: the file is read-only; refusing to replace it", param_hint=hint)
        for name, path in inputs:
            if _same_file(where, path):
                shown = "standard input" if path == "-" else repr(path)
                raise click.BadParameter(f"{output}: is the same file as {name} ({shown}); writing it would destroy "
                                         "that input", param_hint=hint)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise click.BadParameter(f"{output}: cannot create a file in {directory!r}: permission denied", param_hint=hint)


def _same_file(output, path):
    """Whether ``path`` (``-``: the file standard input reads, if any) is ``output``'s file."""
    try:
        if path == "-":
            import sys

            a, b = os.stat(output), os.fstat(sys.stdin.fileno())
            return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
        return os.path.samefile(output, path)
    except (OSError, ValueError, AttributeError):  # no such file, stdin closed or not a descriptor
        return False


def load_classifier(path):
    """(estimator, info) of a classifier model file."""
    from perceptrons.persistence import load_model

    return load_model(path, expect=CLASSIFIERS, with_info=True)


def read_for_model(path, model, label, fmt, info=None):
    """(X, y) for a fitted model; y is None for a CSV holding features only.

    Without ``--label``, a CSV/TSV's label column is the one the model was trained with.
    Labels are typed per file (integers when every label of *that* file is one), so when the
    model's classes are text and this file's labels happen to be all integers, they are
    compared as text: classes '0', '1', '1.5' and a file of 0s and 1s agree.
    """
    X, y = read_for_width(path, model.n_features_in_, label, fmt, info)
    classes = getattr(model, "classes_", None)
    if y is not None and classes is not None and classes.dtype.kind == "U" and y.dtype.kind in "iu":
        y = y.astype(str)
    return X, y


def read_for_width(path, n_features, label, fmt, info=None, hint="DATA", against="the model was trained on"):
    """(X, y) of a file that must have ``n_features`` columns: :func:`read_for_model` without a
    model yet (``train --test`` is read before training, so a bad test file costs nothing)."""
    from perceptrons.io.readers import read_data

    label = label or (info or {}).get("label_column")
    X, y = read_data(path, label=label, fmt=fmt, n_features=n_features)
    if X.shape[1] != n_features:
        shown = "standard input" if path == "-" else path
        raise click.BadParameter(f"{shown}: {X.shape[1]} features, but {against} {n_features}",
                                 param_hint=hint)
    return X, y


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
    return np.concatenate([estimator.predict(X[i:i + step]) for i in range(0, n, step)])


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
