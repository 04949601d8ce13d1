"""Every store test runs on both backends: a SQLite file and a fresh PostgreSQL database."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.databases import BACKENDS, Backend


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path):
    chosen = Backend(request.param, tmp_path, request)
    yield chosen
    chosen.close()
