"""The run's workspace: its working tables in the engine and what the algorithms know of them.

Everything here is frozen: an algorithm that needs a different view of the workspace (the 1:M
algorithm codes persons by their fingerprint bucket) makes a new one with
:func:`dataclasses.replace`, it never changes the one it was given.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from anonsql.arrays import IntArray
from anonsql.engines import Engine
from anonsql.hierarchies.model import Hierarchy
from anonsql.privacy.base import PrivacyModel
from anonsql.spec.dependencies import FunctionalDependency
from anonsql.sql import CountedRows, Relation, TableName

#: Prefix of the schemas holding runs' working tables.
WORK_SCHEMA_PREFIX = "anonsql_work_"


def new_run_id() -> str:
    return uuid.uuid4().hex[:12]


def work_schema(run_id: str) -> str:
    """The schema holding one run's working tables; dropped when the run ends."""
    return f"{WORK_SCHEMA_PREFIX}{run_id}"


@dataclass(frozen=True)
class Dimension:
    """A quasi-identifier as the algorithms see it: column ``q<index>`` of the working table.

    Numeric dimensions hold the source value; categorical ones hold the value's leaf rank in its
    hierarchy (depth-first order), so every hierarchy node is a contiguous range of codes.
    ``hierarchy`` is None until the hierarchies are loaded (and always for numeric ones).
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


@dataclass(frozen=True)
class SensitiveAttribute:
    """A sensitive column, coded ``s<index>`` in the working table (dense rank, NULL last);
    ``global_counts[code]`` counts its values over the table once the working table exists."""

    index: int
    column: str
    distinct: int
    numeric: bool
    global_counts: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))

    @property
    def code(self) -> str:
        return f"s{self.index}"


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Workspace:
    """The working tables of one run (in schema :func:`work_schema`) and their facts.

    ``rows`` is the working table algorithms partition (``pid``, coded quasi-identifiers
    ``q<i>``, coded sensitive values ``s<j>``, then :attr:`carried` columns); the 1:M workspace
    also has ``persons`` and ``items``, from which its algorithm builds ``rows``.
    """

    engine: Engine
    run_id: str
    source: Relation
    dimensions: tuple[Dimension, ...]
    sensitive: tuple[SensitiveAttribute, ...]
    models: tuple[PrivacyModel, ...]
    #: Rows of the source (persons are counted in :attr:`person`).
    rows: int
    suppression_limit: float = 0.0
    person: PersonLink | None = None
    #: Columns of ``rows`` carried along unchanged after the codes (the person number in 1:M).
    carried: tuple[str, ...] = ()
    #: The spec's functional dependencies (they hold on the source), for the algorithms.
    functional_dependencies: tuple[FunctionalDependency, ...] = ()
    #: The column of ``rows`` holding how many source rows each row stands for, when the
    #: rows were built weighted (one per distinct ``pid`` and codes:
    #: :meth:`~anonsql.algorithms.base.Algorithm.working_rows_weight`); None: one row per
    #: source row.
    weight: str | None = None
    #: The source's rows counted per distinct combination of the quasi-identifiers, sensitive
    #: and published columns, which the weighted ``rows`` were built from and the recovery
    #: measure reads (:attr:`~anonsql.engines.base.Engine.counts_source_once`); None where
    #: the engine groups the source for each, or the rows are not weighted.
    counted: CountedRows | None = None

    @property
    def schema(self) -> str:
        return work_schema(self.run_id)

    def work(self, name: str) -> TableName:
        """A working relation of this run (its schema is dropped at the end)."""
        return TableName(name=name, schema=self.schema)

    def sensitive_by_column(self, column: str) -> SensitiveAttribute:
        return next(s for s in self.sensitive if s.column == column)

    @property
    def payload(self) -> list[str]:
        """The columns of ``rows`` an algorithm copies when it rewrites the table."""
        return (
            [d.code for d in self.dimensions]
            + [s.code for s in self.sensitive]
            + list(self.carried)
        )

    @property
    def suppression_budget(self) -> int:
        """Rows the search may suppress."""
        return int(self.suppression_limit * self.rows + 1e-9)
