"""Shared fixtures. ``engine`` is the conformance fixture: every engine anonsql supports."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from anonsql.engines import DuckDBEngine, Engine


@pytest.fixture(params=["duckdb"])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    eng = DuckDBEngine(":memory:")
    try:
        yield eng
    finally:
        eng.close()
