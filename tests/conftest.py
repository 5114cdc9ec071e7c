"""Shared fixtures: where the real data sets live (``../shared/data`` beside the project).

A test that reads a real data set asks the ``shared_data`` fixture for it and is marked
``data``: ``shared_data("a9a")`` is the folder, or the test skips, naming it ("needs
../shared/data/a9a (absent)").  ``PERCEPTRONS_SHARED_DATA`` points the tests at another folder.
CI has the data (it sets ``CI=true``): there, a test skipped for a missing data set fails the
run, so that a broken path cannot pass as a skip.
"""

import os
from pathlib import Path

import pytest

#: model files and the script that wrote them: data for the tests, not tests
collect_ignore = ["fixtures"]

REPOSITORY = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PERCEPTRONS_SHARED_DATA") or REPOSITORY.parent / "shared" / "data")


def _shown(path):
    """A path as the skip reason names it: relative to the repository when it is beside it."""
    if Path(path).resolve().is_relative_to(REPOSITORY.parent):
        return os.path.relpath(path, REPOSITORY)
    return str(path)


#: every skip for a missing data set starts so (the CI check below finds them by it)
MISSING = f"needs {_shown(DATA)}"


def need_shared_data(name):
    """The data set ``name`` (a folder of the shared data), or skip the test naming it."""
    path = DATA / name
    if not path.is_dir():
        pytest.skip(f"needs {_shown(path)} (absent)")
    return path


@pytest.fixture(scope="session")
def shared_data():
    """``shared_data("ud-english-ewt")``: that data set's folder, or the test skips naming it."""
    return need_shared_data


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


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by the marks
def pytest_collection_modifyitems(config, items):
    """A docstring example that warns is a bad example: its warnings are errors.  A case named in
    its module's ``SLOW_CASES`` (cases that a decorator such as scikit-learn's
    ``parametrize_with_checks`` makes, or stacked parametrizations, where no case can carry a mark)
    is marked ``slow``.  And a test that reads the shared data must be marked ``data``, so that
    ``-m "not data"`` leaves it out."""
    unmarked = []
    for item in items:
        if type(item).__name__ == "DoctestItem":
            item.add_marker(pytest.mark.filterwarnings("error"))
            continue
        if item.name in getattr(getattr(item, "module", None), "SLOW_CASES", ()):
            item.add_marker(pytest.mark.slow)
        if "shared_data" in getattr(item, "fixturenames", ()) and item.get_closest_marker("data") is None:
            unmarked.append(item.nodeid)
    if unmarked:
        raise pytest.UsageError("tests that use shared_data must be marked data: " + ", ".join(unmarked))


#: the tests skipped here for a missing data set (in the process that reports: xdist's controller)
_missing_data = []


def pytest_runtest_logreport(report):
    if report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2]).removeprefix("Skipped: ")
        if reason.startswith(MISSING):
            _missing_data.append((report.nodeid, reason))


def _ci():
    return os.environ.get("CI", "").lower() == "true"


def pytest_sessionfinish(session):
    if _ci() and _missing_data and not hasattr(session.config, "workerinput"):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config):
    if _ci() and _missing_data and not hasattr(config, "workerinput"):
        terminalreporter.section("shared data missing under CI=true", red=True)
        for nodeid, reason in _missing_data:
            terminalreporter.line(f"SKIPPED, which fails the run: {nodeid}: {reason}")
