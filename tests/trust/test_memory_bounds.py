"""No input allocates more than the check that guards it allows.

A sparse input of a few bytes can stand for a dense array of terabytes (one feature index of
3·10⁸ in a LIBSVM file).  Every densification goes through one guarded function
(:func:`perceptrons._core.memory.densify`), which is proved here three ways: no other code
densifies (a scan of the source), every library entry that densifies refuses before it
allocates, and every command that densifies refuses in a real process whose peak memory stays
that of a small run.
"""

import ast
import pathlib
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import KernelPerceptron
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import densify
from perceptrons.report.data import report_data
from perceptrons.theory import analyze, is_separable, radius
from tests.zipf_data import run_with_peak_rss

SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "perceptrons"
GUARD = SRC / "_core" / "memory.py"

#: rows × columns that no machine holds densely: 400 × 3·10⁸ float64 values are 960 GB
ROWS, COLUMNS = 400, 300_000_000


def wide_sparse():
    X = sp.csr_matrix((np.ones(2 * ROWS), (np.repeat(np.arange(ROWS), 2), np.tile([0, COLUMNS - 1], ROWS))))
    y = np.where(np.arange(ROWS) % 2 == 0, 1, -1)
    return X, y


def test_every_densification_is_the_guarded_one():
    """``.toarray()`` and ``.todense()`` appear in one function only: the guard."""
    found = []
    for path in SRC.rglob("*.py"):
        if path == GUARD:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr in ("toarray", "todense"):
                found.append(f"{path.relative_to(SRC)}:{node.lineno} .{node.attr}")
    assert not found, found


def peak_of(call):
    tracemalloc.start()
    try:
        with pytest.raises(PerceptronsError) as info:
            call()
        return tracemalloc.get_traced_memory()[1], str(info.value)
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "name, call",
    [
        ("densify", lambda X, y: densify(X)),
        ("densify max_values", lambda X, y: densify(X[:2, :1000], max_values=100)),
        ("radius", lambda X, y: radius(X)),
        ("is_separable", lambda X, y: is_separable(X, y)),
        ("analyze", lambda X, y: analyze(X, y)),
        ("KernelPerceptron", lambda X, y: KernelPerceptron(max_epochs=1).fit(X, y)),
        ("report_data", lambda X, y: report_data(X, y)),
    ],
)
def test_library_refuses_before_allocating(name, call):
    X, y = wide_sparse()
    peak, message = peak_of(lambda: call(X, y))
    assert peak < 50 << 20, (name, peak)  # what the sparse input itself takes, not the dense array
    assert "dense values" in message, message


def test_densify_counts_the_copies_and_passes_dense_input_through():
    X = np.ones((3, 2))
    assert densify(X) is X
    S = sp.csr_matrix(np.eye(3, dtype=np.float32))
    D = densify(S)
    assert D.dtype == np.float32 and D.flags.c_contiguous and np.array_equal(D, np.eye(3))
    # copies multiply the need: one copy of this fits anywhere, 10^13 copies nowhere
    with pytest.raises(PerceptronsError, match="10000000000000 copies"):
        densify(S, copies=10**13)


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["report", "{data}", "-o", "{out}/r.html"],
        ["analyze", "{data}"],
        ["trace", "{data}"],
        ["train", "{data}", "--model", "kernel", "-o", "{out}/k.npz"],
    ],
    ids=["report", "analyze", "trace", "train-kernel"],
)
def test_commands_refuse_before_allocating(tmp_path, command):
    data = tmp_path / "wide.svm"
    data.write_text("".join(f"{1 - 2 * (i % 2)} 1:1 {COLUMNS}:1\n" for i in range(ROWS)))
    args = [a.format(data=data, out=tmp_path) for a in command]
    code, _, peak, out, err = run_with_peak_rss("perceptrons", args)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and str(data) in lines[0] and "dense values" in lines[0], (code, err)
    assert peak < 1024, f"{command[0]} reached {peak:.0f} MiB before refusing"  # a small run's memory
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wide.svm"]  # nothing written
