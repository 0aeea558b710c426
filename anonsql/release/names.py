"""Names of the relations a run publishes beside the anonymized one."""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.sql import TableName

#: Suffix of the recoding map's generalized columns; user column names may not end with it.
GENERALIZED_SUFFIX = "__generalized"

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
)


@dataclass(frozen=True)
class OutputNames:
    """``anon.adult`` publishes ``anon.adult`` plus ``anon.adult__recoding``, ``__classes``,
    ``__certificate``, ``__metrics``, ``__attributes`` and ``__hierarchy_nodes``; a 1:M output
    has ``__by_person``, ``__person_map``, ``__item_map`` and ``__fingerprints`` instead of
    ``__recoding``."""

    main: TableName

    def companion(self, kind: str) -> TableName:
        assert kind in COMPANIONS, kind
        return self.main.with_name(f"{self.main.name}__{kind}")

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

    def all(self) -> list[TableName]:
        return [self.main, *(self.companion(k) for k in COMPANIONS)]
