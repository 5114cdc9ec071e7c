"""The ``perceptrons`` command line: one module per command, loaded only when it runs.

Each module defines ``command`` (a click command).  The table below holds the one-line help
shown by ``perceptrons --help`` so that listing commands imports nothing heavy.
"""

import atexit
import gc
import os
import sys
from importlib import import_module

import click

COMMANDS = {
    "train": ("perceptrons.cli.train", "Train a perceptron on a data file and save the model."),
    "predict": ("perceptrons.cli.predict", "Predict labels for a data file with a saved model."),
    "evaluate": ("perceptrons.cli.evaluate", "Accuracy and confusion matrix of a saved model on a data file."),
    "trace": ("perceptrons.cli.trace", "Print every update of the PLA, as the lecture notes show it."),
    "demo": ("perceptrons.cli.demo", "Run the embedded demo: no files needed."),
    "analyze": (
        "perceptrons.cli.analyze",
        "Radius, separability certificate, margin and mistake bounds of a data set.",
    ),
    "vc": ("perceptrons.cli.vc", "Labelings a concept class realises on a point set (VC dimension)."),
    "tag": ("perceptrons.cli.tag", "Part-of-speech tagging with the structured perceptron."),
    "report": ("perceptrons.cli.report", "Interactive HTML report of the PLA and its theory on a data set."),
}


#: exit status when the reader of standard output goes away: that of a process killed by SIGPIPE
#: (128 + 13), what ``cat`` or ``seq`` give under ``set -o pipefail``.  Not 0: a reader that
#: stopped early may have crashed, and a script must be able to tell.
PIPE_CLOSED = 141


class PipeClosed(Exception):
    """Standard output's reader has gone; carried past click, which would turn it into status 1."""


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        return import_module(COMMANDS[name][0]).command

    def invoke(self, ctx):
        """Run the command holding back Python warnings: after a success each is shown as one
        ``warning:`` line; after a failure they are dropped, so the error is the only line.
        A closed standard output leaves as :class:`PipeClosed` (click would exit 1 on it)."""
        import warnings

        with warnings.catch_warnings(record=True) as held:
            try:
                result = super().invoke(ctx)
            except BrokenPipeError:
                raise PipeClosed from None
            except OSError as exc:
                if exc.filename is None and _raised_by_echo(exc):
                    raise _stdout_error(exc) from None
                exc.perceptrons_paths = dict(ctx.meta)  # for main: which file to name
                raise
            except UnicodeEncodeError as exc:
                # inputs are decoded and files written in UTF-8: what fails to encode is a
                # terminal or pipe in ASCII (PYTHONIOENCODING=ascii), not the input file's fault
                from perceptrons.io.atomic import unencodable

                raise unencodable("standard output", exc) from None
            except (ValueError, MemoryError) as exc:
                exc.perceptrons_paths = dict(ctx.meta)  # for main: which file to name
                raise
        shown = set()
        for w in held:
            text = (str(w.message).strip().splitlines() or [""])[0]
            if (w.category, text) not in shown:
                shown.add((w.category, text))
                click.echo(f"warning: {w.category.__name__}: {text}", err=True)
        return result

    def format_commands(self, ctx, formatter):
        rows = [(name, help_) for name, (_, help_) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="perceptrons")
def cli():
    """perceptrons: the perceptron family — train, trace, analyse and tag."""


#: characters of an error line kept; a value quoted from a hostile file can be megabytes long
MAX_MESSAGE = 400


def fail(message, code=2):
    """Print a one-line error and exit (the only place, with ``main``, that exits)."""
    if len(message) > MAX_MESSAGE:
        message = f"{message[:MAX_MESSAGE]}… ({len(message) - MAX_MESSAGE:,} more characters)"
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _raised_by_echo(exc):
    """Whether ``exc`` came out of ``click.echo``: a command's output to standard output (a full
    disk or a device error behind it), not a file of its own, which errors name."""
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "echo" and code.co_filename.replace("\\", "/").endswith("click/utils.py"):
            return True
        tb = tb.tb_next
    return False


def _stdout_error(exc):
    """The one-line error for a failed write to standard output; what was buffered is dropped,
    so that flushing at exit does not raise once more."""
    from perceptrons._core.errors import PerceptronsError

    _discard_stdout()
    return PerceptronsError(f"standard output: cannot write: {exc.strerror or exc}")


#: new container objects between two collections of the youngest generation during a run of the
#: program (Python's default is 700)
YOUNG_THRESHOLD = 300_000


def _short_lived():
    """Garbage-collector settings for a run of the program, which lasts seconds and then ends.

    Importing numba and loading its registries builds some 200,000 long-lived objects, which the
    collector walked again and again while freeing next to nothing: at the default thresholds,
    0.3 s of a 3.8 s ``tag train`` during the run, and another 0.3 s after the command had
    finished, in the passes of the interpreter's shutdown.  So during the run the youngest
    generation is collected every 300,000 new objects instead of every 700: none of those passes
    in a ``tag train`` or ``tag predict`` on EWT, and 15 MB more at the peak of a first run that
    compiles (475 against 460 MB; 1,000,000 cost 65 MB).  Cycles are still freed, in fewer
    passes.  The interpreter's shutdown, which would walk them all again, is skipped
    (:func:`_leave`), when no exit handler was registered before the program started (a
    wrapper's, or coverage's in a measured subprocess): one would run after ``_leave``, that is
    never.  Then the objects left are frozen at exit instead (:func:`gc.freeze`), which spares
    the shutdown its passes over them (0.31 s → 0.04 s after numba's registries).  Only when
    :func:`main` is the program: a caller passing ``argv`` keeps its own collector and exit.
    """
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    registered = getattr(atexit, "_ncallbacks", None)  # CPython's count; elsewhere, leave as Python leaves
    atexit.register(_leave if registered is not None and registered() == 0 else gc.freeze)  # first, so run last


#: the exit status of this run of the program, once :func:`main` knows it
_STATUS = []


def _leave():
    """The program's last exit handler: flush standard output and error, then end the process
    with the run's status (:func:`os._exit`), skipping the interpreter's shutdown.

    By then the work is done and written, the threads Python waits for have ended, and every
    other exit handler (numba's, pyarrow's, the temporary files', all registered after this
    one) has run.
    What the shutdown would still do is tear down the modules and run the C++ destructors of
    the native libraries, and there pyarrow's thread pools may abort the process (SIGABRT,
    "terminate called without an active exception", apache/arrow#34314): a streamed
    ``predict`` from standard input, after writing every label, died so about twice in 500
    runs under load.  The teardown also cost 0.3 s of collector passes after numba's imports.
    """
    if not _STATUS:  # main never ran to an exit: leave as Python leaves
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can reach it
            pass
    os._exit(_STATUS[-1])


def _status(code):
    """The process status of ``sys.exit(code)``: 0 for None, the number, or 1 for a message."""
    if code is None:
        return 0
    return code & 0xFF if isinstance(code, int) else 1


def main(argv=None):
    """Entry point: turn library errors into one-line messages and exit status 2.

    A library error about a parameter names the CLI option that set it (``--seed``, not
    ``random_state``): see ``perceptrons.cli._naming.PARAM_OPTIONS``.
    """
    if argv is not None:
        return _run(argv)
    _short_lived()
    try:
        _run(None)
    except SystemExit as exc:
        _STATUS.append(_status(exc.code))
        raise
    except BaseException:  # a bug: Python prints its traceback and exits 1
        _STATUS.append(1)
        raise


def _run(argv):
    args = list(sys.argv[1:] if argv is None else argv)
    before = len(_written())
    try:
        cli.main(args=argv, standalone_mode=False)
        try:
            sys.stdout.flush()  # here, not at exit, so that a closed pipe is handled below
        except BrokenPipeError:
            raise
        except OSError as exc:  # a full disk or a device error behind standard output
            raise _stdout_error(exc) from None
    except (PipeClosed, BrokenPipeError):
        _pipe_closed()
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        # click turns Ctrl-C into Abort; the interrupt it came from may name a file the run
        # keeps (a whole epoch cache: cli._stream.Interrupted)
        kept = getattr(exc.__cause__ or exc, "kept", None)
        done = _written()[before:]  # put in place before the interrupt came (a demo's first figures)
        if kept:  # the epoch cache, written whole, and what it is for
            message = f"interrupted; no model was written; {kept}"
        elif done:
            message = f"interrupted after writing {', '.join(done[:5])}{' ...' if len(done) > 5 else ''}"
        else:
            message = "interrupted; nothing was written"
        click.echo(message, err=True)
        sys.exit(130)
    except click.UsageError as exc:
        fail(" ".join(exc.format_message().split()), exc.exit_code)
    except click.ClickException as exc:
        fail(" ".join(exc.format_message().split()), exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except (ValueError, OSError, MemoryError, OverflowError) as exc:
        from perceptrons.cli._naming import command_name, name_input, name_options

        text = str(exc).strip().splitlines()
        if isinstance(exc, MemoryError):
            text = [f"out of memory{': ' + text[0] if text else ''}; the input or a parameter is too large"]
        if text:
            text = [name_input(name_options(text[0], command_name(args)), getattr(exc, "perceptrons_paths", {}))]
        fail(text[0] if text else type(exc).__name__)
    sys.exit(0)


def _written():
    """The files put in place so far in this process (none while nothing has imported the writer:
    not imported here for it, which would cost every run its imports)."""
    atomic = sys.modules.get("perceptrons.io.atomic")
    return atomic.written() if atomic is not None else ()


def _pipe_closed():
    """``perceptrons predict ... | head -1``: end quietly, with no traceback and no message."""
    _discard_stdout()
    sys.exit(PIPE_CLOSED)


def _discard_stdout():
    """Point standard output at /dev/null, as the Python documentation advises (signal module,
    "Note on SIGPIPE"), so that flushing it at exit does not raise once more."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no descriptor (a test's capture): nothing to flush
        pass
