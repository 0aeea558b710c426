"""Run privacy models' violation queries against relations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from anonsql.engines import Engine
from anonsql.privacy.base import PrivacyModel
from anonsql.sql import TableName


@dataclass(frozen=True)
class CheckResult:
    """Violating classes per model; the relation satisfies every model iff all counts are 0.
    ``counted`` says what the models counted (rows, or persons by which column), when known."""

    relation: TableName
    violations: Mapping[str, int] = field(default_factory=dict)
    counted: str = ""

    @property
    def holds(self) -> bool:
        return all(n == 0 for n in self.violations.values())


@dataclass(frozen=True)
class PlannedCheck:
    """Models to check on one relation, given its QIDs (and its person column, 1:M data).
    ``label`` names the relation in the violation counts when a release checks several."""

    relation: TableName
    qids: tuple[str, ...]
    models: tuple[PrivacyModel, ...]
    person: str | None = None
    label: str = ""


def check_relation(
    engine: Engine,
    relation: TableName,
    qids: Sequence[str],
    models: Sequence[PrivacyModel],
    *,
    person: str | None = None,
) -> CheckResult:
    """Count each model's violating equivalence classes (or persons, or fingerprint buckets) in
    ``relation``; ``person`` names the column linking one person's rows in 1:M data."""
    return run_checks(
        engine, relation, [PlannedCheck(relation, tuple(qids), tuple(models), person)]
    )


def run_checks(engine: Engine, relation: TableName, checks: Sequence[PlannedCheck]) -> CheckResult:
    """Run planned checks; the result is reported for ``relation`` (the release's main one)."""
    violations: dict[str, int] = {}
    for check in checks:
        for model in check.models:
            ready = model.prepared(engine, check.relation, check.qids)
            sql = ready.violations_sql(engine.sql, check.relation, check.qids, person=check.person)
            key = model.describe() + (f" on {check.label}" if check.label else "")
            violations[key] = engine.count_query_rows(sql)
    return CheckResult(relation=relation, violations=violations)
