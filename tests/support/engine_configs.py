"""One test configuration per engine: how the tests open it, and its known gaps.

Every test that takes the ``engine`` fixture runs on every configured engine. A known gap is a
test (by node-name pattern) that is expected to fail on that engine with a given exception: it
is marked as a strict expected failure raising that exception, so a gap that silently closes
fails the run and must be removed here, and so does a gapped test failing for another reason.
Every engine in anonsql's registry must have a configuration (tests/conformance checks it).

Each engine has a pytest marker of its name (registered in pyproject.toml), and ``selected()``
decides the engines a session runs on (see tests/conftest.py): ``ANONSQL_TEST_ENGINES``
(comma-separated, e.g. ``duckdb,spark``) when set; otherwise every engine that is not opt-in,
plus an opt-in engine (slow to start: Spark's JVM, ~20-60 s) whose marker the ``-m`` expression
asks for (``-m spark``). ``make test`` runs the Spark tests in a session of their own.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

import pytest
from _pytest.mark.expression import Expression  # pytest's -m grammar; it has no public parser

from anonsql.engines import Engine, connect
from anonsql.errors import SpecError


class Gap(NamedTuple):
    """Why a test fails on an engine, and the exception it fails with (``xfail(raises=...)``)."""

    reason: str
    raises: type[BaseException]


@dataclass(frozen=True)
class EngineConfig:
    name: str
    #: Opens a fresh, empty database with a schema ``main``.
    open: Callable[[pytest.FixtureRequest], Engine]
    #: node-name pattern (fnmatch, with or without the parameters) -> why and how it fails there.
    known_gaps: dict[str, Gap] = field(default_factory=dict)
    #: Run only when ``ANONSQL_TEST_ENGINES`` names it or ``-m`` asks for its marker.
    opt_in: bool = False
    #: The session fixture of the engine's server: a test that needs it gets the engine's marker.
    fixture: str | None = None
    #: Random tables per property test (hypothesis examples): fewer where every statement is a
    #: distributed job (Spark), the same first ones (derandomized).
    examples: int = 15
    #: Whether hypothesis shrinks a failing example (dozens more runs: not where each is slow).
    shrink: bool = True

    def gap(self, test_name: str) -> Gap | None:
        base = test_name.split("[")[0]
        for pattern, gap in self.known_gaps.items():
            if fnmatch.fnmatchcase(test_name, pattern) or fnmatch.fnmatchcase(base, pattern):
                return gap
        return None


def _duckdb(request: pytest.FixtureRequest) -> Engine:
    return connect("duckdb", database=":memory:")


def _postgres(request: pytest.FixtureRequest) -> Engine:
    return connect("postgres", database=request.getfixturevalue("pg_database"))


def _spark(request: pytest.FixtureRequest) -> Engine:
    """A fresh catalog on the session's one local[2] Spark (started once: a JVM is slow)."""
    engine = connect("spark", session=request.getfixturevalue("spark_session"))
    for schema in engine.schemas_starting_with(""):
        if schema != "default":
            engine.run("drop_schema", schema=schema)
    engine.create_schema("main")
    return engine


_NO_RECURSIVE_LATERAL = Gap(
    "Spark cannot plan eir_l_diversity's hitting-set search (a recursive CTE whose step joins a "
    "correlated LATERAL ... ORDER BY ... LIMIT 1): the engine declares "
    "recursive_lateral_joins = False and the model is refused with a SpecError",
    SpecError,
)

CONFIGS: dict[str, EngineConfig] = {
    "duckdb": EngineConfig("duckdb", _duckdb),
    "postgres": EngineConfig("postgres", _postgres, fixture="pg_server"),
    "spark": EngineConfig(
        "spark",
        _spark,
        fixture="spark_session",
        known_gaps={
            "*[[]spark-eir_l_diversity[]]": _NO_RECURSIVE_LATERAL,
            "*[[]spark-*-eir_l_diversity[]]": _NO_RECURSIVE_LATERAL,
        },
        opt_in=True,
        examples=4,
        shrink=False,
    ),
}


def asks_for(markexpr: str, marker: str) -> bool:
    """Whether the ``-m`` expression needs ``marker``: some test that it deselects is selected once
    the marker is added (``spark``, ``spark and slow``, ``spark or postgres``; not ``not spark``
    nor ``not postgres``, which a test without any engine marker passes too)."""
    if not markexpr.strip():
        return False
    expression = Expression.compile(markexpr)
    others = sorted(expression.idents() - {marker})

    def selects(markers: set[str]) -> bool:
        return expression.evaluate(lambda name, /, **kwargs: name in markers)

    return any(
        selects({*present, marker}) and not selects(set(present))
        for n in range(len(others) + 1)
        for present in itertools.combinations(others, n)
    )


def choose(markexpr: str = "") -> list[str]:
    """The engines a session with this ``-m`` expression runs on."""
    chosen = os.environ.get("ANONSQL_TEST_ENGINES")
    if not chosen:
        return [
            name
            for name, config in CONFIGS.items()
            if not config.opt_in or asks_for(markexpr, name)
        ]
    names = [n.strip() for n in chosen.split(",") if n.strip()]
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        raise ValueError(
            f"ANONSQL_TEST_ENGINES names unknown engines {unknown}; use {list(CONFIGS)}"
        )
    return names


#: Set by tests/conftest.py's ``pytest_configure`` from the session's ``-m`` expression.
_session_engines: list[str] | None = None


def configure(markexpr: str) -> None:
    global _session_engines
    _session_engines = choose(markexpr)


def selected() -> list[str]:
    """The engines this test session runs on (test modules are imported after configure())."""
    return _session_engines if _session_engines is not None else choose()


Test = TypeVar("Test", bound=Callable[..., object])


def on_session_engines(test: Test) -> Test:
    """Marks a test that opens every engine of the session itself (not through the ``engine``
    fixture) with their markers, so that ``-m`` selects it like the fixture's tests."""
    for kind in selected():
        test = getattr(pytest.mark, kind)(test)
    return test
