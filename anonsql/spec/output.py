"""Names of the relations a run publishes beside the anonymized one.

Companions that hold original values (the recoding map, the person and item maps, attribute
extremes, hierarchy leaves) live in a **private schema**, never granted; the analysts' schema
holds only what they may read: the release, its classes, metrics and certificate (and, for 1:M
data, the person-level view and the generalized fingerprints).
"""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.sql import TableName

#: Suffix of the recoding map's generalized columns; user column names may not end with it.
GENERALIZED_SUFFIX = "__generalized"
#: Prefix of the columns anonsql adds beside user columns in the relations it builds (the
#: recoding map's ``__anonsql_pid``, a grouped release's ``__anonsql_rows``): user column names
#: may not start with it, so no user column can collide with one.
INTERNAL_PREFIX = "__anonsql"
#: Columns of the published companions that sit beside the quasi-identifiers (``__classes``):
#: part of what analysts query, so a user column of the same name is refused, not renamed.
COMPANION_COLUMNS = {"class_size": "classes"}


def reserved_name_problem(name: str) -> str | None:
    """Why a user column may not be called ``name`` (None when it may): names are compared
    case-insensitively, as DuckDB and Spark resolve them."""
    folded = name.casefold()
    if folded.endswith(GENERALIZED_SUFFIX):
        return f"column names ending in {GENERALIZED_SUFFIX!r} are reserved"
    if folded.startswith(INTERNAL_PREFIX):
        return f"column names starting with {INTERNAL_PREFIX!r} are reserved for anonsql's own"
    if folded in COMPANION_COLUMNS:
        companion = COMPANION_COLUMNS[folded]
        return f"the release's __{companion} companion publishes a column of this name"
    return None


COMPANIONS = (
    "recoding",
    "classes",
    "certificate",
    "metrics",
    "attributes",
    "hierarchy_nodes",
    # 1:M outputs
    "by_person",
    "person_map",
    "item_map",
    "fingerprints",
    # live views over the source, before the guard (private)
    "source",
    "released",
    "released_by_person",
    # personalized outputs (several sensitive attributes in buckets)
    "groups",
    "group_values",
    "buckets",
    "group_buckets",
    "sa_taxonomy",
    # full-domain k-map: the population generalized as the release (private)
    "population",
)


#: Companions holding original values: published in the private schema only.
PRIVATE = (
    "recoding",
    "attributes",
    "hierarchy_nodes",
    "person_map",
    "item_map",
    "source",
    "released",
    "released_by_person",
    "population",
)
#: Suffix of the default private schema's name (``anon`` -> ``anon_private``).
PRIVATE_SUFFIX = "_private"


def default_private_schema(schema: str | None) -> str:
    return f"{schema or 'main'}{PRIVATE_SUFFIX}"


@dataclass(frozen=True)
class OutputNames:
    """``anon.adult`` publishes ``anon.adult`` plus ``anon.adult__classes``, ``__certificate``
    and ``__metrics``, and ``anon_private.adult__recoding``, ``__attributes`` and
    ``__hierarchy_nodes``; a 1:M output has ``__by_person`` and ``__fingerprints`` (public) and
    ``__person_map`` and ``__item_map`` (private) instead of ``__recoding``."""

    main: TableName
    #: The schema of the companions holding original values (default: ``<schema>_private``).
    private_schema: str | None = None

    @property
    def private(self) -> str:
        return self.private_schema or default_private_schema(self.main.schema)

    def companion(self, kind: str) -> TableName:
        assert kind in COMPANIONS, kind
        name = f"{self.main.name}__{kind}"
        if kind in PRIVATE:
            return TableName(name, self.private)
        return self.main.with_name(name)

    def renamed(self, name: str) -> OutputNames:
        """The same release under another main name (versioned relations)."""
        return OutputNames(self.main.with_name(name), self.private_schema)

    @property
    def recoding(self) -> TableName:
        return self.companion("recoding")

    @property
    def classes(self) -> TableName:
        return self.companion("classes")

    @property
    def certificate(self) -> TableName:
        return self.companion("certificate")

    @property
    def metrics(self) -> TableName:
        return self.companion("metrics")

    @property
    def attributes(self) -> TableName:
        return self.companion("attributes")

    @property
    def hierarchy_nodes(self) -> TableName:
        return self.companion("hierarchy_nodes")

    @property
    def by_person(self) -> TableName:
        return self.companion("by_person")

    @property
    def person_map(self) -> TableName:
        return self.companion("person_map")

    @property
    def item_map(self) -> TableName:
        return self.companion("item_map")

    @property
    def fingerprints(self) -> TableName:
        return self.companion("fingerprints")

    @property
    def source(self) -> TableName:
        return self.companion("source")

    @property
    def released(self) -> TableName:
        return self.companion("released")

    @property
    def released_by_person(self) -> TableName:
        return self.companion("released_by_person")

    def all(self) -> list[TableName]:
        return [self.main, *(self.companion(k) for k in COMPANIONS)]

    def drop_order(self) -> list[TableName]:
        """Every relation of the release, dependents first (a view before what it reads), and
        the companions earlier versions of anonsql kept in the analysts' schema."""
        first = [
            self.by_person,
            self.released_by_person,
            self.main,
            self.released,
            self.source,
        ]
        legacy = [self.main.with_name(f"{self.main.name}__{k}") for k in PRIVATE]
        rest = [r for r in self.all() if r not in first]
        return [*first, *rest, *(r for r in legacy if r not in rest)]
