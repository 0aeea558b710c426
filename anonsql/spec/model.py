"""The user's declaration of an anonymization job, as YAML or Python.

Validation here is structural (shapes, names, bounds that need no data); checks against the
database catalog happen in :mod:`anonsql.resolve`.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from anonsql.errors import SpecError


class Role(str, Enum):
    """What a column is to the privacy model."""

    IDENTIFIER = "identifier"  # dropped from the output
    QUASI_IDENTIFIER = "quasi_identifier"  # generalized
    SENSITIVE = "sensitive"  # published unchanged, protected by l-diversity/t-closeness
    INSENSITIVE = "insensitive"  # published unchanged


class _Strict(BaseModel):
    # strict: YAML's `k: true` or `seed: "1"` is an error, not 1
    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)


class ColumnSpec(_Strict):
    """One column's role; QIDs are ``type: numeric`` or have a ``hierarchy``."""

    role: Role = Field(strict=False)  # given as its text
    type: Literal["numeric", "categorical"] | None = None
    hierarchy: str | dict[str, Any] | None = None
    #: Publish this column unchanged although, alone or with the other published columns, it
    #: gives a quasi-identifier away or refines classes below the models: the linkage gate
    #: leaves it out, and the certificate and the run summary record what it exposes.
    acknowledge_linked: bool = False


class OutputSpec(_Strict):
    """Where the anonymized relation and its companion tables are published."""

    schema_: str = Field(default="anon", alias="schema", min_length=1)
    name: str = Field(min_length=1)
    #: ``view``: a view of the current certified version's private table; ``table``: the
    #: version as a table; ``live``: a guarded live view of the source (opt-in: it changes with
    #: the source, see docs/security.md "Live views").
    materialize: Literal["view", "table", "live"] = "view"
    #: Roles given SELECT on the published relation and its reports (never on the companions
    #: holding original values, which live in ``private_schema``).
    grants: list[str] = Field(default_factory=list)
    #: Where the companions holding original values go (default ``<schema>_private``); never
    #: granted.
    private_schema: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _private_apart(self) -> OutputSpec:
        if self.private_schema is not None and self.private_schema == self.schema_:
            raise ValueError("private_schema must differ from schema (analysts read schema)")
        return self


class RiskSpec(_Strict):
    """How re-identification risk is measured, for the source (in the certificate) and for every
    release (the ``risk`` metric): ``threshold`` on a record's risk for the share of records at
    risk (ARX's default 0.2); the population the estimates assume (``population_size``, or one
    of ARX's ``region`` s, by default the USA); a ``population`` table (``schema.table``, the
    source's QID columns, one row per person or a ``population_count`` column) for the source's
    journalist and marketer risk."""

    threshold: float = Field(default=0.2, ge=0.0, le=1.0)
    population_size: int | None = Field(default=None, ge=1)
    region: str | None = Field(default=None, min_length=1)
    population: str | None = Field(default=None, min_length=1)
    population_count: str | None = Field(default=None, min_length=1)


class JoinSpec(_Strict):
    """A table joined to the source (inner join on equal values of the ``using`` columns, which
    both sides hold under the same names); its other columns join the source's."""

    table: str = Field(min_length=1)
    using: list[str] = Field(min_length=1)

    @field_validator("using", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class WorkloadQuery(_Strict):
    """One query analysts run on the release, by name: its error on the release against the
    source is measured and certified (:mod:`anonsql.spec.workload` lists the shapes)."""

    name: str = Field(min_length=1)
    sql: str = Field(min_length=1)


class Spec(_Strict):
    """A complete anonymization job.

    ``privacy`` is a list of one-key mappings ``{model_name: {parameters}}``; ``algorithm`` a
    name or a one-key mapping ``{name: {options}}`` (by default ``mondrian``, or
    ``one_to_many`` when ``person_id`` is set).

    ``person_id`` names the column that links the many rows of one person (1:M data); privacy
    is then counted in persons, and ``varying_qids`` says what to do when one person's rows
    carry different quasi-identifier values: ``refuse`` (the default) or ``most_frequent``
    (the person's most frequent quasi-identifier vector stands for all their rows).
    """

    engine: str = "duckdb"
    #: DuckDB: a file path (relative to the spec) or ":memory:" (the default); Postgres: a DSN
    #: without password (the default "" takes everything from the PG* environment variables).
    database: str | None = None
    #: Session settings applied when anonsql opens the connection, e.g. DuckDB's
    #: ``{memory_limit: 3GB, temp_directory: /scratch}`` to process a table larger than memory
    #: out of core (each engine lists the names it accepts).
    engine_settings: dict[str, str | int | float | bool] = Field(default_factory=dict)
    source: str = Field(min_length=1)
    join: list[JoinSpec] = Field(default_factory=list)
    person_id: str | None = Field(default=None, min_length=1)
    varying_qids: Literal["refuse", "most_frequent"] = "refuse"
    #: ``acknowledged``: certify the release counting rows although a declared identifier or a
    #: join key repeats in the source (several rows per person); without it such a source is
    #: refused unless ``person_id`` is set.
    record_level: Literal["acknowledged"] | None = None
    output: OutputSpec
    columns: dict[str, ColumnSpec]
    privacy: list[dict[str, dict[str, Any] | None]] = Field(min_length=1)
    algorithm: str | dict[str, dict[str, Any] | None] | None = None
    suppression_limit: float = Field(default=0.0, ge=0.0, le=1.0)
    seed: int = 0
    #: Functional dependencies the release should preserve, e.g. ``"zip -> province"``
    #: (checked against the data; read by the dependency-preserving algorithms and metric).
    functional_dependencies: list[str] = Field(default_factory=list)
    #: How re-identification risk is measured (defaults when not given).
    risk: RiskSpec | None = None
    #: The count and aggregate queries analysts run on the release (``SELECT ... FROM <output
    #: name> WHERE ... GROUP BY ...``): each one's error is measured on every release, and
    #: ``split: workload`` lets Mondrian's splits favour them.
    workload: list[WorkloadQuery] = Field(default_factory=list)
    #: The directory relative paths in the spec are resolved against (the spec file's folder).
    base_dir: Path = Field(default_factory=Path.cwd, exclude=True)

    @field_validator("columns")
    @classmethod
    def _some_qid(cls, columns: dict[str, ColumnSpec]) -> dict[str, ColumnSpec]:
        if not any(c.role is Role.QUASI_IDENTIFIER for c in columns.values()):
            raise ValueError("declare at least one column with role quasi_identifier")
        return columns

    @field_validator("workload")
    @classmethod
    def _unique_names(cls, workload: list[WorkloadQuery]) -> list[WorkloadQuery]:
        names = [q.name for q in workload]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"query names repeat: {', '.join(repeated)}; give each its own")
        return workload

    @field_validator("privacy")
    @classmethod
    def _one_key_each(
        cls, privacy: list[dict[str, dict[str, Any] | None]]
    ) -> list[dict[str, dict[str, Any] | None]]:
        for entry in privacy:
            if len(entry) != 1:
                raise ValueError("each privacy entry is a mapping with exactly one model name")
        return privacy

    def columns_with(self, role: Role) -> list[str]:
        return [name for name, col in self.columns.items() if col.role is role]

    @property
    def quasi_identifiers(self) -> list[str]:
        return self.columns_with(Role.QUASI_IDENTIFIER)

    @property
    def algorithm_name(self) -> str:
        if self.algorithm is None:
            return "one_to_many" if self.person_id else "mondrian"
        if isinstance(self.algorithm, str):
            return self.algorithm
        if len(self.algorithm) != 1:
            raise SpecError(
                "algorithm",
                f"names {len(self.algorithm)} algorithms",
                "name one, e.g. `algorithm: mondrian` or `algorithm: {mondrian: {split: loss}}`",
            )
        return next(iter(self.algorithm))

    @property
    def algorithm_options(self) -> dict[str, Any]:
        if self.algorithm is None or isinstance(self.algorithm, str):
            return {}
        options = next(iter(self.algorithm.values()))
        return dict(options) if options else {}

    def canonical_json(self) -> str:
        """The spec as canonical JSON, hashed into the certificate."""
        # ``risk`` and ``record_level`` only when given, so specs without them hash as before
        # they existed
        excluded = {"base_dir"} | (set() if self.risk is not None else {"risk"})
        excluded |= set() if self.record_level is not None else {"record_level"}
        excluded |= set() if self.workload else {"workload"}
        return self.model_dump_json(by_alias=True, exclude=excluded)
