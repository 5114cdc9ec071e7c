"""Pieces the CLI commands share: estimator names, data loading, output-path checks."""

import contextlib
import os

import click

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


def check_output_path(path):
    """Refuse an output path whose directory is missing *before* any work is done."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise click.BadParameter(f"{path}: the directory {directory!r} does not exist", param_hint="output")
    if os.path.isdir(path):
        raise click.BadParameter(f"{path}: is a directory, expected a file name", param_hint="output")


def load_classifier(path):
    """(estimator, info) of a classifier model file."""
    from perceptrons.persistence import load_model

    return load_model(path, expect=CLASSIFIERS, with_info=True)


def read_for_model(path, model, label, fmt, info=None):
    """(X, y) for a fitted model; y is None for a CSV holding features only.

    Without ``--label``, a CSV/TSV's label column is the one the model was trained with.
    """
    from perceptrons.io.readers import read_data

    label = label or (info or {}).get("label_column")
    X, y = read_data(path, label=label, fmt=fmt, n_features=model.n_features_in_)
    if X.shape[1] != model.n_features_in_:
        raise click.BadParameter(
            f"{path}: {X.shape[1]} features, but the model was trained on {model.n_features_in_}",
            param_hint="DATA",
        )
    return X, y


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
