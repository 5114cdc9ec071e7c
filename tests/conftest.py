"""Shared fixtures: where the real data sets live (``../shared/data`` beside the project)."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def data_dir():
    if not DATA.is_dir():
        pytest.fail(f"real data sets expected in {DATA} (the project's shared/data folder)")
    return DATA
