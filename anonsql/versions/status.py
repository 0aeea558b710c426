"""A versioned release's held-back changes against its source now (``anonsql status``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from anonsql.engines import Engine
from anonsql.spec.output import OutputNames
from anonsql.versions.names import KEY_HASH, KEY_ORD, VersionNames


@dataclass(frozen=True)
class HeldBack:
    """Source rows the current version does not show yet, per reason, and published rows whose
    source row is gone (their class's deletion batch is not complete)."""

    version: int
    #: Rows inserted (or updated) since the last version.
    new_rows: int
    #: Rows the last version could not place in a class of new rows.
    held_rows: int
    #: Published rows deleted from the source, served until their batch is complete.
    pending_deletions: int

    @property
    def stale(self) -> bool:
        return bool(self.new_rows or self.held_rows or self.pending_deletions)


def held_back(engine: Engine, names: OutputNames) -> HeldBack | None:
    """The held-back changes of a versioned release; None when it is not versioned."""
    vn = VersionNames(names)
    kinds = engine.relation_kinds([vn.rows, vn.left, vn.held])
    if None in kinds.values():
        return None
    columns = [c.name for c in engine.columns(names.source) or []]
    new, held, pending = engine.query(
        "versions/status",
        source=names.source,
        columns=columns,
        rows=vn.rows,
        held=vn.held,
        key_hash=KEY_HASH,
        key_ord=KEY_ORD,
    )[0]
    last = last_version(engine, vn)
    if last is None:  # a history without its versions table (dropped by hand): not versioned
        return None
    return HeldBack(int(last[0]), int(new), int(held), int(pending))


def last_version(engine: Engine, names: VersionNames) -> tuple[Any, ...] | None:
    """The last version's summary row (version, source checksum, spec hash, published rows);
    None before the first."""
    if engine.relation_kind(names.versions) is None:
        return None
    rows = engine.query("versions/last_version", versions=names.versions)
    return tuple(rows[0]) if rows else None


def certified_checksum(engine: Engine, names: OutputNames) -> str | None:
    """The source's checksum as the last release certified it (kept privately)."""
    last = last_version(engine, VersionNames(names))
    return str(last[1]) if last is not None and last[1] is not None else None
