"""The verify step: every declared privacy model re-checked by SQL on the released relations,
the layout's own checks, every source row (and person) accounted for, and the linkage gate
(:mod:`anonsql.measure.linkage`): no published row's quasi-identifier recovered through the
columns published unchanged, the models holding on the classes they refine. A failure raises
:class:`~anonsql.errors.VerificationError` (the linkage gate:
:class:`~anonsql.resolve.linked.LinkageError`) inside the swap, so nothing is published."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from anonsql.engines import Engine
from anonsql.errors import VerificationError
from anonsql.measure.linkage import Linkage, built_target, measure_linkage
from anonsql.privacy.check import CheckResult, run_checks
from anonsql.publish import BuiltRelease
from anonsql.resolve.linked import LinkageError
from anonsql.sql import TableName


@dataclass(frozen=True)
class Verification:
    """The checks' result on the release, the rows of its main relation, and the linkage
    gate's measures."""

    check: CheckResult
    published_rows: int
    counts: Mapping[str, int]
    linkage: Linkage | None = None


def verify(release: BuiltRelease) -> Verification:
    """Run the layout's checks and row accounting on the release as built. The rows of the
    measured relation are summed from its class table, grouped from that relation by the
    publish step (one pass over it instead of two)."""
    engine, built = release.engine, release.built
    checks = release.layout.checks(built, release.kind)
    models = run_checks(engine, built.main, checks, release.checked_grouping)
    check = CheckResult(built.main, {**models.violations, **release.layout.violations(built)})
    if not check.holds:
        raise VerificationError(dict(check.violations))
    # before the row accounting: the guard withholds the refined classes the gate refuses
    linkage = measure_linkage(built_target(release))
    if not linkage.holds:
        raise LinkageError(linkage.findings, published=True)
    expected = release.layout.expected_rows(built)
    measured = release.layout.measured(built)
    counts = {
        what: class_rows(engine, built.classes)
        if relation == measured
        else engine.count_rows(relation)
        for what, (relation, _) in expected.items()
    }
    for what, (_, rows) in expected.items():
        if counts[what] != rows:
            raise VerificationError({what: abs(counts[what] - rows)})
    main = next(what for what, (relation, _) in expected.items() if relation == built.main)
    return Verification(
        check=CheckResult(release.names.main, check.violations),
        published_rows=counts[main],
        counts=counts,
        linkage=linkage,
    )


def class_rows(engine: Engine, classes: TableName) -> int:
    """Rows of the relation a class table was grouped from: the sum of its class sizes."""
    return int(engine.query("publish/class_rows", classes=classes)[0][0])
