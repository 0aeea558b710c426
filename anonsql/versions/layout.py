"""The record layout published as versions: each publish appends a certified version to the
release's private history and publishes exactly its rows (docs/releases.md)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from anonsql.layouts.record import RecordLayout
from anonsql.privacy.check import GROUP_ROWS, Grouping, PlannedCheck
from anonsql.spec.output import GENERALIZED_SUFFIX, OutputNames
from anonsql.sql import TableName
from anonsql.versions.delta import Delta, spec_sha256
from anonsql.versions.names import KEY_HASH, KEY_ORD
from anonsql.versions.pairs import differencing_violations

#: The violation counting the version's rows that its table holds beyond (or short of) the
#: rows its versions account for.
VERSION_ROWS = "rows of the version's table accounted for"


@dataclass(frozen=True)
class VersionedRecordLayout(RecordLayout):
    """:class:`RecordLayout` whose released rows are the history's current version: the
    batch's new classes join it, the classes whose deletions apply lose them, and the main
    relation is a table (``materialize: table``) or a view of a private table holding exactly
    the version's rows (``materialize: view``)."""

    delta: Delta | None = None

    @property
    def d(self) -> Delta:
        assert self.delta is not None
        return self.delta

    def create(self, names: OutputNames, kind: str) -> None:
        ws, d = self.workspace, self.d
        e = ws.engine
        vn = d.names
        keys = {"key_hash": KEY_HASH, "key_ord": KEY_ORD}
        self.create_recoding(names)
        e.run("publish/source_view", target=names.source, source=d.original.source)
        qids = set(self.qids)
        columns = [{"name": c, "qid": c in qids} for c in d.columns]
        placing = {
            "batch": d.placing,
            "recoding": names.recoding,
            "columns": columns,
            "dims": ws.dimensions,
            "suffix": GENERALIZED_SUFFIX,
            **keys,
        }
        if not d.history_exists:
            # a new history is the placed batch itself, written once as the version's rows:
            # no copy of the placed rows before it, none after (at 1e8 rows each copy of the
            # rows costs ~30 s and ~1.7 GB)
            e.drop_existing(vn.kept())
            e.run("versions/history_create", target=vn.rows, version=d.version, **placing)
            e.run("versions/left_create", target=vn.left, rows=vn.rows)
            e.run("versions/versions_create", target=vn.versions)
            e.drop_existing([vn.held])
            e.run(
                "versions/held",
                target=vn.held,
                batch=d.batch,
                placed=vn.rows,
                flagged=False,
                nothing_held=self.partitioning.suppressed_rows == 0,
                **keys,
            )
        else:
            self._place_into_history(placing)
        e.analyze(vn.rows)
        e.run("versions/version_view", target=names.released, rows=vn.rows, columns=d.columns)
        if kind == "VIEW":
            e.run("versions/version_view", target=names.main, rows=vn.rows, columns=d.columns)
        else:
            e.run("publish/frozen", target=names.main, released=names.released)
        touched = self._touched()
        if touched is not None:
            e.run(
                "versions/touched",
                target=touched[0],
                scratch=touched[1],
                relation=super().checked_relation(names, kind),
                rows=vn.rows,
                left=vn.left,
                qids=self.qids,
                version=d.version,
            )
        e.run(
            "versions/versions_insert",
            target=vn.versions,
            values=[
                d.version,
                dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                self.expected_published,
                self.placed_rows,
                d.applied_deletions,
                self.held_rows,
                d.pending_deletions - d.applied_deletions,
                d.checksum,
                spec_sha256(d.original),
                ws.run_id,
            ],
        )

    def _place_into_history(self, placing: dict[str, Any]) -> None:
        """A later version: the applied deletions leave the version's rows for the rows that
        left, the placed batch joins the version's rows."""
        ws, d = self.workspace, self.d
        e, vn = ws.engine, d.names
        keys = {"key_hash": KEY_HASH, "key_ord": KEY_ORD}
        placed, working_table = e.transaction_work(TableName("v_placed", d.work_schema))
        offset = int(e.query("versions/max_class", rows=vn.rows, left=vn.left)[0][0])
        e.run(
            "versions/placed",
            target=placed,
            offset=offset,
            working_table=working_table,
            **placing,
        )
        if d.applied is not None and d.deleted is not None:
            e.run(
                "versions/history_leave",
                rows=vn.rows,
                left=vn.left,
                applied=d.applied,
                deleted=d.deleted,
                version=d.version,
                **keys,
            )
        e.run(
            "versions/history_insert",
            rows=vn.rows,
            placed=placed,
            columns=d.columns,
            version=d.version,
            **keys,
        )
        e.drop_existing([vn.held])
        e.run(
            "versions/held",
            target=vn.held,
            batch=d.batch,
            placed=placed,
            flagged=True,
            nothing_held=False,
            **keys,
        )
        # dropped here, not in a `finally`: after an interrupted statement DuckDB refuses every
        # statement but ROLLBACK, and the working schema's end drops it anyway
        e.drop_any(placed)

    def grouped(self, names: OutputNames, kind: str, columns: Sequence[str]) -> Grouping:
        """The version's rows grouped (:meth:`Layout.grouped`), kept privately: a later
        version updates the previous version's groups with the rows it placed and the rows
        that left (``versions/groups_next``); a new history, or one kept without them or with
        other columns, groups the version whole."""
        e, d = self.workspace.engine, self.d
        groups = d.names.groups
        kept = [c.name for c in e.columns(groups) or []] if d.history_exists else []
        # grouped whole from the rows, it stands in for them in the gate's checks; updated, it
        # does not (the gate then checks the changed classes' rows: checked_relation)
        of: TableName | None = None
        if kept != [*columns, GROUP_ROWS]:
            e.drop_existing([groups])
            # kept beside the history: logged, unlike the working tables
            self.group_whole(names, kind, columns, groups, working_table="")
            of = self.unguarded(names, kind)
        else:
            updated, working_table = e.transaction_work(TableName("v_groups", d.work_schema))
            e.run(
                "versions/groups_next",
                target=updated,
                groups=groups,
                rows=d.names.rows,
                left=d.names.left,
                columns=list(columns),
                version=d.version,
                working_table=working_table,
            )
            e.run("versions/replace_rows", target=groups, source=updated)
            e.drop_any(updated)
        e.analyze(groups)
        return Grouping(groups, of, frozenset(columns))

    def _touched(self) -> tuple[TableName, str] | None:
        """Where a later version's changed classes are viewed (``versions/touched``), and the
        prefix its CREATE takes; None for a new history, which is checked whole."""
        if not self.d.history_exists:
            return None
        return self.workspace.engine.scratch_view(TableName("v_touched", self.d.work_schema))

    def checked_relation(self, names: OutputNames, kind: str) -> TableName:
        """A later version's gate reads the classes it changes (``versions/touched``): the
        models are decided per class (``versionable_model``), the previous version verified
        every other class's rows under the same spec, and they are unchanged (Xiao and Tao's
        m-invariance argument, per class). ``anonsql check`` still reads the whole release."""
        touched = self._touched()
        return touched[0] if touched is not None else super().checked_relation(names, kind)

    def checks(self, names: OutputNames, kind: str = "VIEW") -> list[PlannedCheck]:
        checked = self.checked_relation(names, kind)
        return [dataclasses.replace(c, relation=checked) for c in super().checks(names, kind)]

    @property
    def placed_rows(self) -> int:
        return self.resolved.rows - self.partitioning.suppressed_rows

    @property
    def held_rows(self) -> int:
        return self.d.batch_rows - self.placed_rows

    @property
    def expected_published(self) -> int:
        before = self.d.previous.published_rows if self.d.history_exists and self.d.previous else 0
        return before - self.d.applied_deletions + self.placed_rows

    def expected_rows(self, names: OutputNames) -> dict[str, tuple[TableName, int]]:
        # the main relation's rows are summed from the class table, grouped from the kept
        # grouping that a later version updates from the rows it changed (grouped): the
        # version's private table is counted itself
        return {
            "rows accounted for": (names.main, self.expected_published),
            VERSION_ROWS: (self.d.names.rows, self.expected_published),
        }

    def violations(self, names: OutputNames) -> dict[str, int]:
        found = super().violations(names)
        d = self.d
        found.update(
            differencing_violations(
                self.workspace.engine,
                d.names,
                d.version,
                self.qids,
                d.columns,
                self.workspace.models,
                d.work_schema,
            )
        )
        return found

    def individuals(self) -> int:
        """The rows the version accounts for: published (deleted rows whose batch is not
        complete included) and held back."""
        return self.expected_published + self.held_rows

    def certificate_fields(self) -> dict[str, Any]:
        d = self.d
        stale = self.held_rows > 0 or d.pending_deletions > d.applied_deletions
        return {
            **super().certificate_fields(),
            "version": d.version,
            "freshness": "stale" if stale else "fresh",
            "live_view": False,
            "history": d.replaced or "kept",
            "source": str(d.original.source),
            "source_rows": d.original.rows,
            # what the metrics count against, also when recomputed (`anonsql metrics`): the
            # version's rows, deleted rows it still serves included
            "individuals": self.individuals(),
            "suppressed_rows": self.held_rows,
            "held_rows": self.held_rows,
            "pending_deletions": d.pending_deletions - d.applied_deletions,
            "suppression_limit": d.original.spec.suppression_limit,
            "algorithm": d.original.spec.algorithm_name,
            "spec_sha256": spec_sha256(d.original),
        }
