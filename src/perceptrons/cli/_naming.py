"""Errors that name what the user typed: the CLI option behind a library parameter
(``--seed``, not ``random_state``), and the input file when a library message names none."""

import re

import click

#: per command, the library parameter → the CLI option that sets it.  A library error about a
#: parameter ("The 'random_state' parameter of Perceptron must be ...") that escapes a command
#: is rewritten by :func:`name_options` to name the option the user typed.
PARAM_OPTIONS = {
    "train": {
        "max_epochs": "--epochs",
        "random_state": "--seed",
        "margin": "--margin",
        "order": "--order",
        "init": "--init",
        "fit_intercept": "--intercept/--no-intercept",
        "max_vectors": "--max-vectors",
        "kernel": "--kernel",
        "gamma": "--gamma",
        "degree": "--degree",
        "coef0": "--coef0",
        "budget": "--budget",
        "budget_policy": "--budget-policy",
        "cache_size": "--cache-size",
        "averaged": "--averaged",
        "voted": "--voted",
        "shuffle_buffer": "--shuffle-buffer",
        "cache": "--cache",
        "n_workers": "--workers",
        "client": "--scheduler",
    },
    "trace": {
        "max_epochs": "--epochs",
        "order": "--order",
        "random_state": "--seed",
        "fit_intercept": "--no-intercept",
    },
    "analyze": {"max_epochs": "--max-epochs", "fit_intercept": "--no-intercept"},
    "vc": {"max_points": "--max-points", "concept": "--concept"},
    "demo": {"random_state": "--seed"},
    "tag train": {
        "max_epochs": "--epochs",
        "random_state": "--seed",
        "templates": "--templates",
        "clusters": "--clusters",
        "decoder": "--decoder",
        "patience": "--patience",
        "tag_dict": "--tag-dict",
        "edges": "--edges",
        "markov_order": "--second-order",
        "column": "--column",
        "n_workers": "--workers",
        "client": "--scheduler",
    },
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
    names one of them is not given the input file's name.

    An empty path is refused here, for every path option alike: the file checks further on
    would name it as nothing (": no such file").
    """
    if value == "":
        hint = param.opts[0] if isinstance(param, click.Option) else param.name.upper()  # not a "[MODEL]" metavar
        raise click.BadParameter("an empty path; expected a file name", param_hint=hint)
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
    if message.startswith(("standard output", "standard input")):
        return message
    if any(p and p in message for p in meta.get("perceptrons.paths", [])):
        return message
    return f"{data}: {message}"


def name_options(message, command):
    """``message`` with the library's parameter names replaced by ``command``'s option names,
    and its advice to scale the features with scikit-learn by ``train``'s own ``--scale``."""
    if command == "train":
        from perceptrons._core.finite import SCALE_FEATURES

        message = message.replace(SCALE_FEATURES, "scale the features with --scale standard or --scale maxabs")
    for param, option in PARAM_OPTIONS.get(command, {}).items():
        p = re.escape(param)
        message = re.sub(rf"\bThe '{p}' parameter(?: of [\w.]+)?", option, message)
        message = re.sub(rf"'{p}' parameter", option, message)
        message = re.sub(rf"(?<![\w-]){p}=", f"{option}=", message)
        message = re.sub(rf"^{p}(?=\s)", option, message)
    return message
