"""The check every writing command makes first: its inputs readable, its output writable and
not one of its inputs, so that a run fails before it has read at length, trained or written."""

import os

import click

from perceptrons._core.errors import PerceptronsError


def check_output_path(output, inputs=(), stream_ok=False, hint="-o", may_be_kept=False, shards_of=None):
    """Refuse, before anything is read at length, trained or written, a run that would fail late
    or destroy one of its inputs.  Every command that writes a file calls this first.

    ``inputs`` are ``(name, path)`` pairs (``DATA``, ``--test``; a ``None`` path is skipped,
    ``-`` is standard input).  Refused, with a one-line error naming the option and the file:

    * an input that does not exist, is a directory or cannot be read; standard input twice;
    * ``output`` that is empty, or ``-`` (or another descriptor) unless ``stream_ok`` — a model file is
      not sent to standard output, where the summary goes;
    * ``output`` that :func:`perceptrons.io.atomic.output_target` refuses (missing directory,
      directory, block device, socket), that exists and is not writable, or whose directory
      does not let a file be created in it (the temporary file goes there);
    * ``output`` that is the same file as an input, also through a symbolic or hard link:
      ``train data.csv -o data.csv`` would replace the data with a model.

    With ``may_be_kept`` (an epoch cache, read back when still valid), an existing ``output``
    need not be writable, nor its directory: a valid cache on a read-only file system is used
    as it is, and a stale one fails when it is rebuilt, naming the file.  ``shards_of``: DATA
    as a directory or glob of shards, among which ``output`` is refused
    (:func:`check_outside_shards`).
    """
    if shards_of is not None:
        check_outside_shards(output, shards_of, hint)
    from perceptrons.io.atomic import output_target

    inputs = [(name, path) for name, path in inputs if path is not None]
    from_stdin = [name for name, path in inputs if path == "-"]
    if len(from_stdin) > 1:
        raise click.BadParameter(
            f"-: standard input can be read only once, but {' and '.join(from_stdin)} both name it",
            param_hint=from_stdin[-1],
        )
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
    if output == "":
        raise click.BadParameter("an empty path; expected a file name", param_hint=hint)
    try:
        kind, where = output_target(output)
    except PerceptronsError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None
    if kind == "stream":
        if not stream_ok:
            raise click.BadParameter(
                f"{output}: a model file is not written to standard output or a descriptor; give a file name",
                param_hint=hint,
            )
        return
    if kind == "device":
        if not os.access(output, os.W_OK):
            raise click.BadParameter(f"{output}: cannot write: permission denied", param_hint=hint)
        return
    directory = os.path.dirname(where)
    kept = may_be_kept and os.path.isfile(where)
    if os.path.exists(where):
        if not kept and not os.access(where, os.W_OK):
            raise click.BadParameter(f"{output}: the file is read-only; refusing to replace it", param_hint=hint)
        for name, path in inputs:
            if _same_file(where, path):
                shown = "standard input" if path == "-" else repr(path)
                raise click.BadParameter(
                    f"{output}: is the same file as {name} ({shown}); writing it would destroy that input",
                    param_hint=hint,
                )
    if not kept and not os.access(directory, os.W_OK | os.X_OK):
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


def check_outside_shards(output, data, hint="-o"):
    """Refuse an ``output`` that DATA's shards would take in on the next run: a visible file of
    DATA's directory, or one DATA's glob matches.  The run itself went through, and the next one
    read the model (or the cache) as a shard of another format, or refused it as DATA itself.
    """
    import fnmatch

    from perceptrons.io.sources import GLOB_CHARS

    if output is None or output == "-" or data == "-":
        return
    out = os.path.abspath(output)
    name = os.path.basename(out)
    if os.path.isdir(data):
        inside = os.path.dirname(os.path.realpath(out)) == os.path.realpath(data) and not name.startswith(".")
    else:
        inside = bool(GLOB_CHARS & set(os.path.basename(data))) and fnmatch.fnmatch(out, os.path.abspath(data))
    if inside:
        raise click.BadParameter(
            f"{output}: is among DATA's shards ({data}); the next run would read it as one: write it elsewhere",
            param_hint=hint,
        )
