"""Run privacy models' violation queries against a relation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from anonsql.engines import Engine
from anonsql.privacy.base import PrivacyModel
from anonsql.sql import TableName


@dataclass(frozen=True)
class CheckResult:
    """Violating classes per model; the relation satisfies every model iff all counts are 0."""

    relation: TableName
    violations: dict[str, int]

    @property
    def holds(self) -> bool:
        return all(n == 0 for n in self.violations.values())


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
    violations = {
        model.describe(): engine.count_query_rows(
            model.violations_sql(engine.sql, relation, qids, person=person)
        )
        for model in models
    }
    return CheckResult(relation=relation, violations=violations)
