"""Names of a versioned release's private tables (never granted, never dropped by a swap)."""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

#: The row key's columns: a hash of every source column, and an ordinal among identical rows.
KEY_HASH = "__anonsql_row_hash"
KEY_ORD = "__anonsql_row_ord"


@dataclass(frozen=True)
class VersionNames:
    """``anon.people``'s history is ``anon_private.people__history`` (one row per published
    source row: its key, class, versions and published values), ``__versions`` (one summary
    row per version, with the source's checksum), ``__held`` (the keys of the rows the last
    version held back) and ``__version_rows`` (the current version's rows, which
    ``materialize: view`` publishes a view of)."""

    names: OutputNames

    def private(self, kind: str) -> TableName:
        return TableName(f"{self.names.main.name}__{kind}", self.names.private)

    @property
    def history(self) -> TableName:
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

    def kept(self) -> list[TableName]:
        """The tables that outlive a run (``--replace`` drops them)."""
        return [self.rows, self.held, self.history, self.versions]
