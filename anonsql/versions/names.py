"""Names of a versioned release's private tables (never granted, never dropped by a swap)."""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

#: The row key's columns: a hash of every source column, and an ordinal among identical rows.
KEY_HASH = "__anonsql_row_hash"
KEY_ORD = "__anonsql_row_ord"
#: The key columns as the templates that read or write row keys take them.
KEY_PARAMS = {"key_hash": KEY_HASH, "key_ord": KEY_ORD}


@dataclass(frozen=True)
class VersionNames:
    """``anon.people``'s history is two private tables: ``anon_private.people__version_rows``
    (one row per row the current version publishes: its key, class, the version it was
    published in, and its published values; ``materialize: view`` publishes a view of it) and
    ``__left_rows`` (the rows that left, with the version they left in). Beside them
    ``__versions`` (one summary row per version, with the source's checksum) and ``__held``
    (the keys of the rows the last version held back)."""

    names: OutputNames

    def private(self, kind: str) -> TableName:
        return TableName(f"{self.names.main.name}__{kind}", self.names.private)

    @property
    def left(self) -> TableName:
        return self.private("left_rows")

    @property
    def legacy_history(self) -> TableName:
        """The single history table of anonsql before 0.1.0's two (read by none)."""
        return self.private("history")

    @property
    def versions(self) -> TableName:
        return self.private("versions")

    @property
    def held(self) -> TableName:
        return self.private("held")

    @property
    def rows(self) -> TableName:
        return self.private("version_rows")

    @property
    def groups(self) -> TableName:
        """The version's rows grouped as the publish step groups a release (its class table,
        the recovery measure and the attacks read it), kept to be updated by the next
        version instead of grouped again."""
        return self.private("version_groups")

    @property
    def labels(self) -> TableName:
        """The label dictionary of the columns the version's rows hold as codes
        (versions/labels_create)."""
        return self.private("labels")

    def kept(self) -> list[TableName]:
        """The tables that outlive a run (``--replace`` drops them)."""
        return [
            self.rows,
            self.held,
            self.left,
            self.versions,
            self.groups,
            self.labels,
            self.legacy_history,
        ]
