"""The resolved job: the spec checked against the catalog, with everything the steps share."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from anonsql.engines import ColumnInfo, Engine
from anonsql.hierarchies.model import Hierarchy
from anonsql.privacy.base import IntArray, PrivacyModel
from anonsql.spec import Spec
from anonsql.sql import Relation, TableName


def new_run_id() -> str:
    return uuid.uuid4().hex[:12]


def work_schema(run_id: str) -> str:
    """The schema holding one run's working tables; dropped when the run ends."""
    return f"anonsql_work_{run_id}"


@dataclass
class Dimension:
    """A quasi-identifier as the algorithms see it: column ``q<index>`` of the working table.

    Numeric dimensions hold the source value; categorical ones hold the value's leaf rank in its
    hierarchy (depth-first order), so every hierarchy node is a contiguous range of codes.
    """

    index: int
    column: str
    kind: Literal["numeric", "categorical"]
    hierarchy: Hierarchy | None = None
    global_min: float = 0.0
    global_max: float = 0.0

    @property
    def code(self) -> str:
        return f"q{self.index}"

    @property
    def is_numeric(self) -> bool:
        return self.kind == "numeric"

    @property
    def span(self) -> float:
        return self.global_max - self.global_min


@dataclass
class SensitiveAttribute:
    """A sensitive column, coded ``s<index>`` in the working table (dense rank, NULL last)."""

    index: int
    column: str
    distinct: int
    numeric: bool
    global_counts: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))

    @property
    def code(self) -> str:
        return f"s{self.index}"


@dataclass
class PersonLink:
    """1:M data: the column linking the rows of one person, and the sensitive column whose
    per-person sets of items (SA fingerprints) are protected, with its hierarchy.

    The working table ``persons`` holds one row per person (``person``, a pseudonymous number;
    ``person_id``, the source's id; the coded quasi-identifiers; ``n``, the person's rows) and
    ``items`` each person's distinct items (``person``, ``leaf`` rank, covering ``node``).
    """

    column: str
    #: None when no model reads fingerprints (only persons are counted).
    sensitive: str | None
    hierarchy: Hierarchy | None
    persons: int
    #: Persons whose rows carried different quasi-identifier vectors (resolved by the spec's
    #: ``varying_qids`` policy; 0 under ``refuse``).
    varying: int = 0


@dataclass
class Job:
    """Everything the pipeline steps share for one run."""

    spec: Spec
    engine: Engine
    source: Relation
    output: TableName
    dimensions: list[Dimension]
    sensitive: list[SensitiveAttribute]
    models: list[PrivacyModel]
    passthrough: list[str]
    dropped: list[str]
    rows: int
    #: The columns of the source relation, in order (a join's columns included).
    catalog: list[ColumnInfo] = field(default_factory=list)
    person: PersonLink | None = None
    #: Columns of the working table ``rows`` that algorithms carry along unchanged, after the
    #: coded quasi-identifiers and sensitive values (the person number in 1:M runs).
    carried: list[str] = field(default_factory=list)
    run_id: str = field(default_factory=lambda: new_run_id())

    @property
    def work_schema(self) -> str:
        return work_schema(self.run_id)

    def work(self, name: str) -> TableName:
        """A working relation of this run (its schema is dropped at the end)."""
        return TableName(name=name, schema=self.work_schema)

    def sensitive_by_column(self, column: str) -> SensitiveAttribute:
        return next(s for s in self.sensitive if s.column == column)

    @property
    def suppression_budget(self) -> int:
        return int(self.spec.suppression_limit * self.rows + 1e-9)
