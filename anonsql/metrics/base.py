"""The metric interface: utility and risk measures as SQL aggregates plus a small Python finish."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from anonsql.engines import Engine
from anonsql.spec.dependencies import FunctionalDependency
from anonsql.sql import TableName


@dataclass(frozen=True)
class QidInfo:
    """What a metric knows of a published quasi-identifier."""

    column: str
    kind: str  # "numeric" | "categorical"
    min_value: float | None = None
    max_value: float | None = None
    leaf_count: int | None = None

    @property
    def span(self) -> float:
        if self.min_value is None or self.max_value is None:
            return 0.0
        return self.max_value - self.min_value


@dataclass(frozen=True)
class MetricContext:
    """A published relation and the facts needed to measure it.

    ``hierarchy_nodes`` is a table of (attribute, label, leaf_count, ncp) for categorical
    quasi-identifiers; ``source_rows`` counts the rows (the persons, for 1:M data) before
    suppression; ``fingerprints`` is a 1:M release's table of generalized fingerprint items;
    ``risk`` how re-identification risk is measured (:func:`anonsql.metrics.risk.risk_settings`:
    threshold and population size; empty for the defaults).
    """

    engine: Engine
    relation: TableName
    qids: list[QidInfo]
    hierarchy_nodes: TableName | None
    source_rows: int
    k: int | None = None
    fingerprints: TableName | None = None
    #: The spec's functional dependencies and the source relation (original values) they are
    #: measured against; none when the release declares no dependency.
    functional_dependencies: tuple[FunctionalDependency, ...] = ()
    source: TableName | None = None
    risk: Mapping[str, Any] = field(default_factory=dict)
    #: The equivalence classes of ``relation`` (its QID columns and ``class_size``), built from
    #: it by the measure step; class-based metrics read it instead of re-grouping
    #: ``relation``. None (a release read back, a bare relation): they group ``relation``.
    classes: TableName | None = None


@dataclass(frozen=True)
class MetricValue:
    name: str
    attribute: str | None
    value: float


class Metric(ABC):
    """Base class of metrics: ``name`` and :meth:`compute` over a :class:`MetricContext`.

    A metric declares ``reference`` (the paper) and ``zero_when_exact``: the values it reports
    that are 0 on a release that generalizes nothing and suppresses nothing (the conformance
    suite holds every metric to it, and to hand-computed fixtures).
    """

    name: ClassVar[str]
    reference: ClassVar[str] = ""
    zero_when_exact: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def compute(self, ctx: MetricContext) -> list[MetricValue]: ...
