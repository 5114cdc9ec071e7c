"""Option types of the CLI's numbers: finite floats and bounded integers, each refusal naming
the option; the bounds of every numeric option, in one place."""

import math
import re

import click

from perceptrons.io.labels import is_float

#: an integer as a user types it: digits, with a sign (``1e20`` and ``3.0`` are not integers)
DIGITS = re.compile(r"^[+-]?[0-9]+$")


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
            if not is_float(text):  # the data files' grammar: ASCII decimal (no 1_000, no ２)
                self.fail(f"{str(value)[:40]!r} is not a number; expected {self.describe()}", param, ctx)
            number = float(text)
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
            if not DIGITS.match(text) or len(text) > 40:
                self.fail(f"{str(value)[:40]!r} is not an integer; expected {self.describe()}", param, ctx)
            number = int(text)
        if not self.low <= number <= self.high:
            self.fail(f"{str(value)[:40]} is out of range; expected {self.describe()}", param, ctx)
        return number


class Jobs(BoundedInt):
    """``--n-jobs``: threads to train in, or −1 for every core."""

    def describe(self):
        return f"a number of threads in [1, {self.high}], or -1 for every core"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number == 0:
            self.fail(f"0 threads; expected {self.describe()}", param, ctx)
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
            self.fail(
                f"{str(value)[:40]!r} is not {' or '.join(repr(w) for w in self.words)} nor {self.number.describe()}",
                param,
                ctx,
            )


#: the bounds of the CLI's numbers, in one place
SEED = BoundedInt(0, 2**32 - 1)  # numpy's RandomState seeds

#: ``train``'s order of the rows.  Shuffled by default: R's tables and many exports come sorted by
#: class, and in the file's order the averaged perceptron sees one class for a whole run of
#: updates (57 R tables with text columns, 70/30 splits: +2.3 points median, titanic 0.65 → 0.79,
#: car's Blackmoor 0.71 → 0.97; 20 tables of numbers: −0.2 median, noise on small test sets)
ORDER_OPTION = click.option(
    "--order",
    type=click.Choice(["cyclic", "shuffle", "random-mistake"]),
    default="shuffle",
    show_default=True,
    help="Each epoch's order of the rows: shuffle draws a new one every epoch (seeded by --seed), which a file "
    "sorted by class needs; cyclic keeps the file's, as the lecture notes' PLA does.  --stream shuffles within "
    "runs of 100,000 rows, or of 64 MB where rows are wide (--shuffle-buffer).",
)
#: ``train``'s seed: 0 unless given, so that a run is the same run again
SEED_OPTION = click.option(
    "--seed", type=SEED, default=0, show_default=True, help="Random seed (shuffle, random-mistake, init)."
)
EPOCHS = BoundedInt(1, 10**9)
COUNT = BoundedInt(1, 2**31 - 1)  # --max-vectors, --patience
BUDGET = BoundedInt(1, 10**7)  # the kernel perceptron allocates its age ring up front
DEGREE = BoundedInt(1, 100)
MARGIN = FiniteFloat(0.0, 1e100)
COEF0 = FiniteFloat(-1e100, 1e100)
GAMMA = FiniteFloat(0.0, 1e100, low_open=True)
CACHE_MB = FiniteFloat(0.0, 2.0**20, low_open=True)  # megabytes: up to 1 TiB of kernel rows
GAMMA_OR_WORD = WordOrFloat(("scale", "auto"), GAMMA)
MAX_POINTS = BoundedInt(1, 30)  # vc tests up to 2^m labelings
DEMO_SEED = BoundedInt(0, 2**32 - 4)
JOBS = Jobs(-1, 256)  # perceptrons.threads.jobs.MAX_THREADS (not imported: --help stays light)


def refuse_unused(ctx, rules):
    """Refuse options given where they have no effect, rather than ignore them silently.

    ``rules`` maps an option's parameter name to ``(applies, where)``: when ``applies`` is false
    and the option was given (command line or environment, not its default), the run stops with
    ``--option: applies only <where>``.
    """
    from click.core import ParameterSource

    for name, (applies, where) in rules.items():
        if not applies and ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT):
            option = next(p for p in ctx.command.params if p.name == name).opts[-1]
            raise click.UsageError(f"{option}: applies only {where}")


class ModelParam(click.ParamType):
    """``NAME=VALUE``: a model parameter that has no option of its own (``--param C=0.5``).

    The value is read as what it looks like: ``true``/``false``, ``none``, an integer, a finite
    number, else a word.  Whether the model takes that name and that value is checked once the
    model is known (:func:`model_params`).
    """

    name = "NAME=VALUE"
    _NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]{0,63}$")

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        name, sep, text = str(value).partition("=")
        name, text = name.strip(), text.strip()
        if not sep or not self._NAME.match(name) or not text:
            self.fail(f"{str(value)[:60]!r} is not NAME=VALUE (for example C=0.5)", param, ctx)
        return name, text, _typed(name, text)


def _typed(name, text):
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    if DIGITS.match(text) and len(text) <= 40:
        return int(text)
    if is_float(text):
        number = float(text)
        if not math.isfinite(number):
            raise click.BadParameter(f"{name}={text[:40]}: not finite; expected a finite number", param_hint="--param")
        return number
    return text


def model_params(given, cls, dedicated):
    """The ``--param`` values as constructor arguments of ``cls``, each checked.

    ``dedicated`` maps a parameter to the option that sets it (``max_epochs`` -> ``--epochs``),
    which ``--param`` does not take.  A name the model does not take, and a value its
    constraints refuse, stop the run in one line naming ``--param``.
    """
    from perceptrons._core.errors import PerceptronsError
    from perceptrons._core.params import validate_params

    names = cls().get_params()
    params = {}
    for name, text, value in given:
        if name not in names or name == "warm_start":
            takes = sorted(n for n in names if n not in dedicated and n != "warm_start")
            raise click.BadParameter(
                f"{name}: {cls.__name__} has no such parameter; it takes {', '.join(takes) or 'none'}",
                param_hint="--param",
            )
        if name in dedicated:
            raise click.BadParameter(f"{name}: set it with {dedicated[name]}", param_hint="--param")
        params[name] = value
        try:
            # every parameter's range (this one's among the defaults); how it goes with the
            # other options, at fit
            validate_params(cls(**{name: value}), cls._parameter_constraints)
        except PerceptronsError as exc:
            why = re.sub(r"^The '\w+' parameter of \w+ must be (.*)\. Got .* instead\.$", r"expected \1", str(exc))
            raise click.BadParameter(f"{name}={text[:40]}: {why}", param_hint="--param") from None
    return params


def options_decorator(options, what):
    """A decorator that gives a command the click ``options`` (in the order ``--help`` lists
    them), documented as giving it ``what``."""

    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f

    decorate.__doc__ = f"Decorate a command with {what}."
    return decorate
