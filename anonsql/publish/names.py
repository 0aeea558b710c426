"""Names of the relations a run publishes beside the anonymized one."""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.sql import TableName

COMPANIONS = ("recoding", "classes", "certificate", "metrics", "attributes", "hierarchy_nodes")


@dataclass(frozen=True)
class OutputNames:
    """``anon.adult`` publishes ``anon.adult`` plus ``anon.adult__recoding``, ``__classes``,
    ``__certificate``, ``__metrics``, ``__attributes`` and ``__hierarchy_nodes``."""

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

    def all(self) -> list[TableName]:
        return [self.main, *(self.companion(k) for k in COMPANIONS)]
