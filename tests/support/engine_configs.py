"""One test configuration per engine: how the tests open it, and its known gaps.

Every test that takes the ``engine`` fixture runs on every configured engine. A known gap is a
test (by node-name pattern) that is expected to fail on that engine: it is marked as a strict
expected failure, so a gap that silently closes fails the run and must be removed here.
Every engine in anonsql's registry must have a configuration (tests/conformance checks it).

Engines that are slow to start (Spark: a JVM, ~20 s) are opt-in: ``ANONSQL_TEST_ENGINES``
(comma-separated, e.g. ``duckdb,spark``) chooses the engines a session runs on; by default every
engine that is not opt-in. ``make test`` runs the conformance suites once more with Spark.
"""

from __future__ import annotations

import fnmatch
import os
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
    #: Run only when ``ANONSQL_TEST_ENGINES`` names it.
    opt_in: bool = False
    #: Random tables per property test (hypothesis examples): fewer where every statement is a
    #: distributed job (Spark), the same first ones (derandomized).
    examples: int = 15
    #: Whether hypothesis shrinks a failing example (dozens more runs: not where each is slow).
    shrink: bool = True

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


def _spark(request: pytest.FixtureRequest) -> Engine:
    """A fresh catalog on the session's one local[2] Spark (started once: a JVM is slow)."""
    engine = ENGINES.get("spark")(session=request.getfixturevalue("spark_session"))
    for schema in engine.schemas_starting_with(""):  # type: ignore[attr-defined]
        if schema != "default":
            engine.run("drop_schema", schema=schema)
    engine.create_schema("main")
    return engine


_NO_RECURSIVE_LATERAL = (
    "Spark cannot plan eir_l_diversity's hitting-set search (a recursive CTE whose step joins a "
    "correlated LATERAL ... ORDER BY ... LIMIT 1): the engine declares "
    "recursive_lateral_joins = False and the model is refused with a SpecError"
)

CONFIGS: dict[str, EngineConfig] = {
    "duckdb": EngineConfig("duckdb", _duckdb),
    "postgres": EngineConfig("postgres", _postgres),
    "spark": EngineConfig(
        "spark",
        _spark,
        known_gaps={
            "*[[]spark-eir_l_diversity[]]": _NO_RECURSIVE_LATERAL,
            "*[[]spark-*-eir_l_diversity[]]": _NO_RECURSIVE_LATERAL,
        },
        opt_in=True,
        examples=4,
        shrink=False,
    ),
}


def selected() -> list[str]:
    """The engines this test session runs on."""
    chosen = os.environ.get("ANONSQL_TEST_ENGINES")
    if not chosen:
        return [name for name, config in CONFIGS.items() if not config.opt_in]
    names = [n.strip() for n in chosen.split(",") if n.strip()]
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        raise ValueError(
            f"ANONSQL_TEST_ENGINES names unknown engines {unknown}; use {list(CONFIGS)}"
        )
    return names
