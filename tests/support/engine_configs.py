"""One test configuration per engine: how the tests open it, and its known gaps.

Every test that takes the ``engine`` fixture runs on every configured engine. A known gap is a
test (by node-name pattern) that is expected to fail on that engine: it is marked as a strict
expected failure, so a gap that silently closes fails the run and must be removed here.
Every engine in anonsql's registry must have a configuration (tests/conformance checks it).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from anonsql.engines import ENGINES, Engine


@dataclass(frozen=True)
class EngineConfig:
    name: str
    #: Opens a fresh, empty database with a schema ``main``.
    open: Callable[[pytest.FixtureRequest], Engine]
    #: node-name pattern (fnmatch, without the engine parameter) -> why it fails there.
    known_gaps: dict[str, str] = field(default_factory=dict)

    def gap(self, test_name: str) -> str | None:
        base = test_name.split("[")[0]
        for pattern, reason in self.known_gaps.items():
            if fnmatch.fnmatchcase(test_name, pattern) or fnmatch.fnmatchcase(base, pattern):
                return reason
        return None


def _duckdb(request: pytest.FixtureRequest) -> Engine:
    return ENGINES.get("duckdb")(":memory:")


def _postgres(request: pytest.FixtureRequest) -> Engine:
    return ENGINES.get("postgres")(request.getfixturevalue("pg_database"))


CONFIGS: dict[str, EngineConfig] = {
    "duckdb": EngineConfig("duckdb", _duckdb),
    "postgres": EngineConfig("postgres", _postgres),
}
