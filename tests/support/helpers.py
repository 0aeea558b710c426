"""Small builders shared by the pipeline tests."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from anonsql.engines import Engine
from anonsql.privacy.check import CheckResult, Grouping, PlannedCheck
from anonsql.sql import TableName

CITY_HIERARCHY = """Lyon;FR;EU;*
Paris;FR;EU;*
Nice;FR;EU;*
Rome;IT;EU;*
Milan;IT;EU;*
Boston;US;NA;*
Austin;US;NA;*
Toronto;CA;NA;*
"""


def people(n: int = 400, seed: int = 0) -> pa.Table:
    """A small person table: numeric age and income, a city with a 3-level hierarchy."""
    rng = random.Random(seed)
    cities = [line.split(";")[0] for line in CITY_HIERARCHY.splitlines()]
    diseases = ["flu", "cold", "asthma", "diabetes", "ulcer"]
    return pa.table(
        {
            "name": [f"person {i}" for i in range(n)],
            "age": [rng.randint(18, 90) for _ in range(n)],
            "city": [rng.choice(cities) for _ in range(n)],
            "income": [rng.randint(10, 200) * 1000 for _ in range(n)],
            "disease": [rng.choice(diseases) for _ in range(n)],
            "note": [rng.choice(["a", "b"]) for _ in range(n)],
        }
    )


def load_people(
    engine: Engine, table: TableName = TableName("people", "main"), **kwargs: Any
) -> TableName:
    engine.load_arrow(table, people(**kwargs))
    return table


def people_spec(tmp: Path, *, k: int = 5, **overrides: Any) -> dict[str, Any]:
    hierarchy = tmp / "city.csv"
    hierarchy.write_text(CITY_HIERARCHY, encoding="utf-8")
    spec: dict[str, Any] = {
        "source": "main.people",
        "output": {"schema": "anon", "name": "people"},
        "columns": {
            "name": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": str(hierarchy)},
            "income": {"role": "quasi_identifier", "type": "numeric"},
            # random beside the quasi-identifiers, the disease gives a few ages away in a table
            # this small, and the note refines the classes below k (tests/pipeline/
            # test_linkage.py): the tests that use this spec publish them acknowledged
            "disease": {"role": "sensitive", "acknowledge_linked": True},
            "note": {"role": "insensitive", "acknowledge_linked": True},
        },
        "privacy": [{"k_anonymity": {"k": k}}],
    }
    spec.update(overrides)
    return spec


def snapshot(engine: Engine, relation: TableName) -> list[tuple[Any, ...]]:
    """All rows of a relation, sorted, to compare before/after."""
    return sorted(engine.query("select_all", relation=relation), key=repr)


def work_schemas(engine: Engine) -> list[tuple[Any, ...]]:
    """Working schemas left behind by runs (there should be none)."""
    return engine.fetchall(
        "SELECT schema_name FROM information_schema.schemata "
        "WHERE schema_name LIKE 'anonsql_work_%'"
    )


#: What a spy on the publish gate's checks sees of each call: the engine, the release's main
#: relation, the planned checks and the grouping the checks may read instead of the rows.
GateCall = Callable[[Engine, TableName, Sequence[PlannedCheck], Grouping | None], None]


def spy_gate_checks(monkeypatch: pytest.MonkeyPatch, during: GateCall) -> None:
    """Call ``during`` with each of the verify step's ``run_checks`` calls, while the release's
    relations exist, before the checks run as they would."""
    verify_step = importlib.import_module("anonsql.verify.verify")  # the function shadows it
    original = verify_step.run_checks

    def spy(
        e: Engine,
        relation: TableName,
        checks: Sequence[PlannedCheck],
        grouping: Grouping | None = None,
    ) -> CheckResult:
        during(e, relation, checks, grouping)
        result: CheckResult = original(e, relation, checks, grouping)
        return result

    monkeypatch.setattr(verify_step, "run_checks", spy)
