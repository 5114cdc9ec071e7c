"""The ``perceptrons`` command line: one module per command, loaded only when it runs.

Each module defines ``command`` (a click command).  The table below holds the one-line help
shown by ``perceptrons --help`` so that listing commands imports nothing heavy.
"""

import sys
from importlib import import_module

import click

COMMANDS = {
    "train": ("perceptrons.cli.train", "Train a perceptron on a data file and save the model."),
    "predict": ("perceptrons.cli.predict", "Predict labels for a data file with a saved model."),
    "evaluate": ("perceptrons.cli.evaluate", "Accuracy and confusion matrix of a saved model on a data file."),
    "trace": ("perceptrons.cli.trace", "Print every update of the PLA, as the lecture notes show it."),
    "demo": ("perceptrons.cli.demo", "Run the embedded demo: no files needed."),
    "analyze": ("perceptrons.cli.analyze", "Radius, separability certificate, margin and mistake bounds of a data set."),
    "vc": ("perceptrons.cli.vc", "Labelings a concept class realises on a point set (VC dimension)."),
    "tag": ("perceptrons.cli.tag", "Part-of-speech tagging with the structured perceptron."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        return import_module(COMMANDS[name][0]).command

    def format_commands(self, ctx, formatter):
        rows = [(name, help_) for name, (_, help_) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="perceptrons")
def cli():
    """perceptrons: the perceptron family — train, trace, analyse and tag."""


def fail(message, code=2):
    """Print a one-line error and exit (the only place, with ``main``, that exits)."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def main(argv=None):
    """Entry point: turn library errors into one-line messages and exit status 2."""
    try:
        cli.main(args=argv, standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted; nothing was written", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("interrupted; nothing was written", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        fail(" ".join(exc.format_message().split()), exc.exit_code)
    except click.ClickException as exc:
        fail(" ".join(exc.format_message().split()), exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except (ValueError, OSError, MemoryError) as exc:
        text = str(exc).strip().splitlines()
        fail(text[0] if text else type(exc).__name__)
    sys.exit(0)
