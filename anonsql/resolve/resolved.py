"""The result of the resolve step: the spec checked against the engine's catalog and data."""

from __future__ import annotations

from dataclasses import dataclass, field

from anonsql.algorithms.base import Algorithm
from anonsql.algorithms.workspace import Dimension, SensitiveAttribute
from anonsql.engines import ColumnInfo
from anonsql.privacy.base import PrivacyModel
from anonsql.resolve.linked import LinkedColumn
from anonsql.resolve.persons import Counting
from anonsql.spec import Spec
from anonsql.spec.dependencies import FunctionalDependency
from anonsql.spec.workload import ParsedQuery
from anonsql.sql import Relation, TableName


@dataclass(frozen=True)
class PersonDeclaration:
    """1:M data as resolved: the column linking a person's rows, the sensitive column whose
    fingerprints a model protects (None when only persons are counted), and their counts."""

    column: str
    fingerprint: str | None
    persons: int
    items: int


@dataclass(frozen=True)
class Resolved:
    """A spec resolved against the catalog: the source relation and its columns, the
    quasi-identifiers (profiled: numeric ranges), the sensitive columns the models read, the
    validated models and algorithm, and what happens to every other column."""

    spec: Spec
    algorithm: Algorithm
    source: Relation
    #: The tables the source reads (one, or the source and its joins).
    source_tables: tuple[TableName, ...]
    output: TableName
    #: The source relation's columns, in order (a join's columns included).
    catalog: tuple[ColumnInfo, ...]
    #: Quasi-identifiers without their hierarchies (loaded by the next step).
    dimensions: tuple[Dimension, ...]
    #: Sensitive columns read row by row (fingerprint columns are in :attr:`person`).
    sensitive: tuple[SensitiveAttribute, ...]
    models: tuple[PrivacyModel, ...]
    #: Columns published unchanged (sensitive and insensitive), in catalog order.
    passthrough: tuple[str, ...]
    #: Columns left out of the release (identifiers and undeclared columns).
    dropped: tuple[str, ...]
    rows: int
    person: PersonDeclaration | None = None
    #: Published columns that determine a quasi-identifier, published as the spec acknowledged.
    linked: tuple[LinkedColumn, ...] = ()
    #: The spec's functional dependencies, checked to hold on the source.
    functional_dependencies: tuple[FunctionalDependency, ...] = ()
    #: What the models count: persons, or rows (and why that is fine or acknowledged).
    counts: Counting = field(default_factory=lambda: Counting("rows", "not resolved"))
    #: The spec's workload queries, parsed and checked against the catalog.
    workload: tuple[ParsedQuery, ...] = ()

    @property
    def qids(self) -> list[str]:
        return [d.column for d in self.dimensions]

    @property
    def hierarchy_columns(self) -> list[str]:
        """Columns that need a hierarchy: categorical QIDs, then a 1:M fingerprint column."""
        columns = [d.column for d in self.dimensions if not d.is_numeric]
        if self.person is not None and self.person.fingerprint is not None:
            columns.append(self.person.fingerprint)
        return columns

    @property
    def sensitive_columns(self) -> list[str]:
        """Every sensitive column a model reads: row by row, then a 1:M fingerprint column."""
        columns = [s.column for s in self.sensitive]
        if self.person is not None and self.person.fingerprint is not None:
            columns.append(self.person.fingerprint)
        return columns
