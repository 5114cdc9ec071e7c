"""Shared fixtures: where the real data sets live (``../shared/data`` beside the project)."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def data_dir():
    if not DATA.is_dir():
        pytest.fail(f"real data sets expected in {DATA} (the project's shared/data folder)")
    return DATA


@pytest.fixture
def run_cli(capsys):
    """Run the CLI in-process through its real entry point; returns (exit code, stdout, stderr)."""
    from perceptrons.cli import main

    def run(argv):
        try:
            main(list(argv))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def pytest_collection_modifyitems(items):
    """A docstring example that warns is a bad example: its warnings are errors."""
    for item in items:
        if type(item).__name__ == "DoctestItem":
            item.add_marker(pytest.mark.filterwarnings("error"))
