"""Every numeric option of every command, at its edges: its minimum and maximum are accepted,
one step outside either and a value of the wrong type are refused in one line naming the
option and its range, and no message speaks the library's words ("parameter of", "Got …
instead", a class name) instead of the option's.

The table is built from the commands themselves (every option whose type has bounds), so an
option added later is covered, or the test fails naming it.  Each entry gives the arguments
the option needs to take effect (``--budget`` goes with ``--model kernel``); the value is then
really used, not refused as an option that does not apply.
"""

import importlib
import re

import click
import pytest

from perceptrons.cli import COMMANDS
from perceptrons.cli._options import BoundedInt, FiniteFloat, WordOrFloat

SEPARABLE = "a,b,label\n1,2,pos\n2,3,pos\n-1,-2,neg\n-2,-1,neg\n3,1,pos\n-3,-1,neg\n"
CONLLU = "".join(
    f"1\t{w1}\t_\t{t1}\t_\t_\t0\troot\t_\t_\n2\t{w2}\t_\t{t2}\t_\t_\t1\tdep\t_\t_\n\n"
    for w1, t1, w2, t2 in [("the", "DET", "dog", "NOUN"), ("a", "DET", "cat", "NOUN"), ("dogs", "NOUN", "run", "VERB")]
)

#: (command, option) -> arguments before the option, each with {d} the CSV, {m} a model of it,
#: {c} a CoNLL-U file, {p} a points file and {o} an output path
CONTEXT = {
    ("train", "--epochs"): "train {d} -o {o}",
    ("train", "--seed"): "train {d} --order shuffle -o {o}",
    ("train", "--margin"): "train {d} -o {o}",
    ("train", "--max-vectors"): "train {d} --model voted -o {o}",
    ("train", "--gamma"): "train {d} --model kernel --kernel rbf -o {o}",
    ("train", "--degree"): "train {d} --model kernel --kernel poly -o {o}",
    ("train", "--coef0"): "train {d} --model kernel --kernel poly -o {o}",
    ("train", "--budget"): "train {d} --model kernel -o {o}",
    ("train", "--cache-size"): "train {d} --model kernel -o {o}",
    ("train", "--hash-bits"): "train {d} --stream -o {o}",
    ("train", "--shuffle-buffer"): "train {d} --stream -o {o}",
    ("train", "--workers"): "train {d} -o {o}",
    ("train", "--shards"): "train {d} --workers 1 -o {o}",
    ("train", "--n-jobs"): "train {d} -o {o}",
    ("train", "--rounds"): "train {d} --workers 1 -o {o}",
    ("predict", "--hash-bits"): "predict {m} {d} --stream",
    ("evaluate", "--hash-bits"): "evaluate {m} {d} --stream",
    ("trace", "--epochs"): "trace {d}",
    ("trace", "--seed"): "trace {d} --order shuffle",
    ("demo", "--seed"): "demo --out {o}",
    ("analyze", "--max-epochs"): "analyze {d}",
    ("vc", "--max-points"): "vc --concept halfplanes --points {p}",
    ("tag train", "--epochs"): "tag train {c} -o {o}",
    ("tag train", "--patience"): "tag train {c} --dev {c} -o {o}",
    ("tag train", "--seed"): "tag train {c} -o {o}",
    ("tag train", "--chunk-sentences"): "tag train {c} --stream -o {o}",
    ("tag train", "--workers"): "tag train {c} -o {o}",
    ("tag train", "--shards"): "tag train {c} --workers 1 -o {o}",
    ("tag train", "--n-jobs"): "tag train {c} -o {o}",
    ("tag train", "--mix-every"): "tag train {c} --n-jobs 2 -o {o}",
    ("tag train", "--rounds"): "tag train {c} --workers 1 -o {o}",
    ("report", "--epochs"): "report {d} -o {o}",
    ("report", "--seed"): "report {d} -o {o}",
}
#: options whose largest values start as many worker processes: slow
CLUSTER = {"--workers", "--shards", "--rounds"}
#: what a message of the command line never says: the library's own wording and names
LIBRARY_WORDS = re.compile(r"parameter of \w|Got .* instead|n_features_hint|CacheWriter|Traceback|_[a-z]+\(")


def bounded_options():
    """``(command, option, low, high)`` of every option with bounds, read off the commands."""
    found = []

    def walk(cmd, path):
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(None):
                walk(cmd.get_command(None, name), f"{path} {name}")
            return
        for p in cmd.params:
            t = p.type.number if isinstance(p.type, WordOrFloat) else p.type
            if isinstance(t, (BoundedInt, FiniteFloat)):
                found.append((path, p.opts[0], t))

    for name, (module, _) in COMMANDS.items():
        walk(importlib.import_module(module).command, name)
    return found


OPTIONS = bounded_options()


def cmd_type(command, option):
    """The option's own type (a word-or-number option words its refusal its own way)."""
    cmd = importlib.import_module(COMMANDS[command.split()[0]][0]).command
    for name in command.split()[1:]:
        cmd = cmd.get_command(None, name)
    return next(p.type for p in cmd.params if p.opts[0] == option)


def test_every_bounded_option_has_an_entry():
    missing = sorted({(c, o) for c, o, _ in OPTIONS} - set(CONTEXT))
    assert not missing, f"add these to CONTEXT: {missing}"


@pytest.fixture
def files(tmp_path, run_cli):
    d = tmp_path / "d.csv"
    d.write_text(SEPARABLE)
    c = tmp_path / "c.conllu"
    c.write_text(CONLLU)
    p = tmp_path / "p.txt"
    p.write_text("0 0\n1 0\n0 1\n")
    m = tmp_path / "m.npz"
    assert run_cli(["train", str(d), "--stream", "-o", str(m)])[0] == 0
    return {"d": d, "c": c, "p": p, "m": m, "o": tmp_path / "out"}


def _edges(t):
    """``(inside, outside)`` values of an option type: its two ends, and one step past each."""
    if isinstance(t, BoundedInt):
        return [t.low, t.high], [t.low - 1, t.high + 1]
    inside = [v for v in (t.low, t.high) if v is not None]
    step = lambda v: abs(v) * 1e-9 or 1e-300  # noqa: E731 - a relative step past a float end
    outside = [
        t.low - step(t.low) if t.low is not None else None,
        t.high + step(t.high) if t.high is not None else None,
    ]
    if t.low_open:
        inside[0] = t.low + step(t.low)
        outside[0] = t.low
    if t.high_open:
        inside[-1] = t.high - step(t.high)
        outside[1] = t.high
    return inside, [v for v in outside if v is not None]


def _run(run_cli, files, command, option, value):
    args = CONTEXT[(command, option)].format(**files).split() + [
        option,
        repr(value) if isinstance(value, float) else str(value),
    ]
    return run_cli(args)


def _one_line(err):
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert not LIBRARY_WORDS.search(lines[0]), lines[0]
    return lines[0]


CASES = [(c, o, t) for c, o, t in OPTIONS]


@pytest.mark.parametrize("command, option, t", CASES, ids=[f"{c}:{o}" for c, o, _ in CASES])
def test_just_outside_and_wrong_type_are_refused_naming_the_option(run_cli, files, command, option, t):
    _, outside = _edges(t)
    for value in [*outside, "x", "1e400" if isinstance(t, FiniteFloat) else "1.5"]:
        code, out, err = _run(run_cli, files, command, option, value)
        line = _one_line(err)
        assert code == 2 and option in line, (value, line)
        if value != "x" and not str(value).startswith(("1e", "1.5")):
            assert t.describe() in line, line  # the range, as the option's own type says it
            assert "out of range" in line or isinstance(cmd_type(command, option), WordOrFloat), line


def _inside_cases():
    """Each option at each of its ends; the most workers a machine allows start that many
    processes, so those cases are slow."""
    for command, option, t in OPTIONS:
        for value in _edges(t)[0]:
            marks = [pytest.mark.slow] if option in CLUSTER and value > 2 else []
            yield pytest.param(command, option, value, marks=marks, id=f"{command}:{option}={value:g}")


@pytest.mark.parametrize("command, option, value", list(_inside_cases()))
def test_both_ends_are_accepted(run_cli, files, command, option, value):
    code, out, err = _run(run_cli, files, command, option, value)
    if code != 0:  # a refusal for the data's sake may follow (a model of another width), never the value's
        line = _one_line(err)
        assert "Invalid value" not in line and "out of range" not in line, (value, line)
