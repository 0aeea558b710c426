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


#: The column of a grouping of rows (``publish/refined``) counting each group's rows.
GROUP_ROWS = "__anonsql_rows"


@dataclass(frozen=True)
class Grouping:
    """``of``'s rows grouped by ``columns`` with ``weight`` rows per group, built from them in
    the transaction that checks them (``publish/refined``). A check on ``of`` whose class keys
    and sensitive column are all among ``columns`` gives the same answer on the grouping for a
    :attr:`~anonsql.privacy.base.PrivacyModel.weighted` model (its classes are unions of
    groups, its counts sums of their weights), and reads far fewer rows: the release's rows are
    grouped once, not once per model and once more for the gate."""

    relation: TableName
    #: The relation grouped, or None for a grouping kept up to date from changed rows (a later
    #: version's, :mod:`anonsql.versions`), which stands in for no check.
    of: TableName | None
    columns: frozenset[str]
    weight: str = GROUP_ROWS

    def serves(self, check: PlannedCheck, model: PrivacyModel) -> bool:
        """Whether ``model`` of ``check`` may read the grouping instead of the rows."""
        if self.of is None or check.relation != self.of:
            return False
        if check.person is not None or not model.weighted:
            return False
        read = {*check.qids, *([model.sensitive_column] if model.needs_sensitive else [])}
        return None not in read and read <= self.columns


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


def run_checks(
    engine: Engine,
    relation: TableName,
    checks: Sequence[PlannedCheck],
    grouping: Grouping | None = None,
) -> CheckResult:
    """Run planned checks; the result is reported for ``relation`` (the release's main one).
    A model that ``grouping`` serves (:meth:`Grouping.serves`) reads it instead of the rows."""
    violations: dict[str, int] = {}
    for check in checks:
        for model in check.models:
            if grouping is not None and grouping.serves(check, model):
                sql = model.violations_sql(
                    engine.sql, grouping.relation, check.qids, weight=grouping.weight
                )
            else:
                ready = model.prepared(engine, check.relation, check.qids)
                sql = ready.violations_sql(
                    engine.sql, check.relation, check.qids, person=check.person
                )
            key = model.describe() + (f" on {check.label}" if check.label else "")
            violations[key] = engine.count_query_rows(sql)
    return CheckResult(relation=relation, violations=violations)
