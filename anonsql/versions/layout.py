"""The record layout published as versions: each publish appends a certified version to the
release's private history and publishes exactly its rows (docs/releases.md)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from anonsql.engines.types import TypeClass
from anonsql.errors import AnonsqlError
from anonsql.layouts.record import RecordLayout
from anonsql.privacy.check import GROUP_ROWS, Grouping, PlannedCheck
from anonsql.spec.output import GENERALIZED_SUFFIX, OutputNames
from anonsql.sql import TableName
from anonsql.versions.delta import Delta, spec_sha256
from anonsql.versions.names import KEY_HASH, KEY_PARAMS
from anonsql.versions.pairs import differencing_violations

#: The violation counting the version's rows that its table holds beyond (or short of) the
#: rows its versions account for.
VERSION_ROWS = "rows of the version's table accounted for"

#: A new history codes a published quasi-identifier column (versions/labels_create) when it
#: has at most this many labels: the views that decode it list them in their definition.
MAX_CODED_LABELS = 10_000
#: ... and when the source has at least this many rows. Codes are cheaper to write (1e8 rows on
#: DuckDB: 28.7 s against 48.1 s) but every query on the view pays for the decoding: binding
#: the lists (~4 ms for 2,400 labels) and a lookup per row and column (DuckDB at 1e6 rows: a
#: filtered count 8 ms against 2 ms on a frozen table, a GROUP BY of two columns 18 against
#: 8 ms). Below this size the write saves a few seconds and text keeps analysts' queries at
#: a frozen table's speed; above it, decoding is a small part of any query on the release.
CODED_FROM_ROWS = 50_000_000


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
        if not d.history_exists:
            e.drop_existing(vn.kept())
        coded = self._label_dictionary()
        self.create_recoding(names, coded=coded, labels=vn.labels)
        e.run("publish/source_view", target=names.source, source=d.original.source)
        qids = set(self.qids)
        columns = [{"name": c, "qid": c in qids, "coded": c in coded} for c in d.columns]
        placing = {
            "batch": d.placing,
            "recoding": names.recoding,
            "columns": columns,
            "dims": ws.dimensions,
            "suffix": GENERALIZED_SUFFIX,
            **KEY_PARAMS,
        }
        checksum = d.checksum
        if not d.history_exists:
            self._create_history(placing)
            if checksum is None:
                checksum = self._placed_checksum(placing)
            e.run("versions/left_create", target=vn.left, rows=vn.rows)
            e.run("versions/versions_create", target=vn.versions)
        else:
            self._place_into_history(placing)
        e.analyze(vn.rows)
        decode = self._decode()
        self._create_decoded(decode)
        view = {"rows": vn.rows, "columns": d.columns, "decode": decode}
        e.run("versions/version_view", target=names.released, **view)
        if kind == "VIEW":
            e.run("versions/version_view", target=names.main, **view)
        else:
            with e.writing_every_row():
                e.run("publish/frozen", target=names.main, released=names.released)
        touched = self._touched()
        if touched is not None:
            e.run(
                "versions/touched",
                target=touched[0],
                scratch=touched[1],
                relation=super().checked_relation(names, kind),
                rows=self.decoded(vn.rows),
                left=self.decoded(vn.left),
                qids=self.qids,
                version=d.version,
                grouped=False,
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
                checksum,
                spec_sha256(d.original),
                ws.run_id,
            ],
        )

    def _create_history(self, placing: dict[str, Any]) -> None:
        """A new history: the placed batch itself, written once as the version's rows (no copy
        of the placed rows before it, none after: at 1e8 rows each copy of the rows costs ~30 s
        and ~1.7 GB), and the batch's rows no class took, held back."""
        d, vn = self.d, self.d.names
        e = self.workspace.engine
        with e.writing_every_row():
            e.run("versions/history_create", target=vn.rows, version=d.version, **placing)
        e.drop_existing([vn.held])
        e.run(
            "versions/held",
            target=vn.held,
            batch=d.batch,
            placed=vn.rows,
            flagged=False,
            nothing_held=self.partitioning.suppressed_rows == 0,
            **KEY_PARAMS,
        )

    def _placed_checksum(self, placing: dict[str, Any]) -> str:
        """A new history's checksum, summed of its rows once placed: the version's rows and
        the held ones, every batch row once (``Engine.numbers_repeats_after_sums``: the batch
        was a view giving every row ordinal 1, and the source's hashes are not computed again
        for the sums: at 1e7 rows on PostgreSQL 13.9 s of grouping the source's hashes against
        ~5 s of the placed keys). Where a hash repeats among them, or they are fewer than the
        batch (two rows of one hash, one placed and one held, are told apart by their
        ordinals only), the batch becomes a keyed copy whose rows of one hash are numbered
        (``versions/number_repeats``) and the history is written again."""
        d, vn = self.d, self.d.names
        e = self.workspace.engine
        keys = TableName("v_placed_keys", d.work_schema)
        sums = {"relation": keys, "columns": [], "key_hash": KEY_HASH}
        e.run("versions/placed_keys", target=keys, rows=vn.rows, held=vn.held, **KEY_PARAMS)
        n, first, _, distinct = e.query("versions/key_sums", **sums, distinct=True)[0]
        if int(distinct) < int(n) or int(n) != d.batch_rows:
            e.drop(keys, view=True)
            e.drop_existing([vn.rows, vn.held])
            e.run(
                "versions/number_repeats",
                target=d.batch,
                source=d.original.source,
                columns=[c.name for c in d.original.catalog],
                **KEY_PARAMS,
            )
            e.analyze(d.batch)
            self._create_history(placing)
            e.run("versions/placed_keys", target=keys, rows=vn.rows, held=vn.held, **KEY_PARAMS)
            n, first, _ = e.query("versions/key_sums", **sums, distinct=False)[0]
        e.drop(keys, view=True)
        return f"{int(n)}:{int(first)}"

    def _label_dictionary(self) -> frozenset[str]:
        """The published quasi-identifier columns the version's rows hold as codes, with the
        dictionary (versions/labels_create) holding this version's new labels. A new history
        of at least :data:`CODED_FROM_ROWS` rows codes every text column with at most
        :data:`MAX_CODED_LABELS` labels; a kept one
        codes the columns its dictionary has (none for a history written without one)."""
        ws, vn = self.workspace, self.d.names
        e = ws.engine
        generalized = ws.work("generalized")
        if not self._has_dictionary():
            return frozenset()
        if self.d.history_exists:
            coded = {str(c) for c, _ in e.query("versions/labels_counts", labels=vn.labels)}
        else:
            e.run("versions/labels_create", target=vn.labels)
            types = {c.name: c.type_class for c in e.columns(generalized) or []}
            coded = {d.column for d in ws.dimensions if types.get(f"g{d.index}") is TypeClass.TEXT}
        dims = [d for d in ws.dimensions if d.column in coded]
        if dims:
            e.run("versions/labels_add", labels=vn.labels, generalized=generalized, dims=dims)
        if not self.d.history_exists:
            counts = dict(e.query("versions/labels_counts", labels=vn.labels))
            coded = {str(c) for c, n in counts.items() if int(n) <= MAX_CODED_LABELS}
            if len(coded) < len(counts):
                e.run("versions/labels_keep", labels=vn.labels, kept=sorted(coded))
        return frozenset(coded)

    def _has_dictionary(self) -> bool:
        """Whether the history has a label dictionary: kept beside it, or made for a new
        history of at least :data:`CODED_FROM_ROWS` rows (which may code no column)."""
        if self.d.history_exists:
            return self.d.labels_kept
        return self.resolved.rows >= CODED_FROM_ROWS

    def _decode(self) -> dict[str, list[str]]:
        """Each coded column's labels, code 1 first: the constant list a view indexes."""
        e, labels = self.workspace.engine, self.d.names.labels
        if not self._has_dictionary():
            return {}
        decode: dict[str, list[str]] = {}
        for column, code, label in e.query("versions/labels_read", labels=labels):
            listed = decode.setdefault(str(column), [])
            # codes are numbered 1, 2, ... per column (versions/labels_add): a gap would shift
            # every later label of the list onto another code
            if int(code) != len(listed) + 1:
                raise AnonsqlError(
                    f"the label dictionary {labels} misses a code of column {column!r} "
                    "(changed outside anonsql). Fix: publish again with --replace"
                )
            listed.append(str(label))
        return decode

    def decoded(self, table: TableName) -> TableName:
        """The history's ``table`` as the statements that compare a kept history with the
        published release read it: the table itself, or, when its columns may hold codes, the
        run's view of it with them decoded (versions/decoded_view, made by :meth:`create`)."""
        return self._decoded_view(table)[0] if self.d.labels_kept else table

    def _decoded_view(self, table: TableName) -> tuple[TableName, str]:
        """Where the run's decoding view of ``table`` goes, and its CREATE's prefix."""
        work = TableName(f"v_{table.name}", self.d.work_schema)
        return self.workspace.engine.scratch_view(work)

    def _create_decoded(self, decode: dict[str, list[str]]) -> None:
        e, vn = self.workspace.engine, self.d.names
        if not self.d.labels_kept:
            return  # a new history is checked whole, a history of text read as it is
        for table in (vn.rows, vn.left):
            view, scratch = self._decoded_view(table)
            e.run(
                "versions/decoded_view",
                target=view,
                scratch=scratch,
                relation=table,
                columns=[c.name for c in e.columns(table) or []],
                decode=decode,
            )

    def _place_into_history(self, placing: dict[str, Any]) -> None:
        """A later version: the applied deletions leave the version's rows for the rows that
        left, the placed batch joins the version's rows."""
        ws, d = self.workspace, self.d
        e, vn = ws.engine, d.names
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
                **KEY_PARAMS,
            )
        e.run(
            "versions/history_insert",
            rows=vn.rows,
            placed=placed,
            columns=d.columns,
            version=d.version,
            **KEY_PARAMS,
        )
        e.drop_existing([vn.held])
        e.run(
            "versions/held",
            target=vn.held,
            batch=d.batch,
            placed=placed,
            flagged=True,
            nothing_held=False,
            **KEY_PARAMS,
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
            # kept beside the history: logged, unlike the working tables. The version's rows
            # are grouped by their codes, then decoded: the same groups as the published
            # release's (each column's codes and labels correspond one to one), grouped on
            # integers (1e8 rows: 10.3 s grouping the text, 15.2 s grouping the decoded view)
            e.run(
                "versions/groups_whole",
                target=groups,
                rows=d.names.rows,
                columns=list(columns),
                decode=self._decode(),
            )
            of = self.unguarded(names, kind)
        else:
            updated, working_table = e.transaction_work(TableName("v_groups", d.work_schema))
            e.run(
                "versions/groups_next",
                target=updated,
                groups=groups,
                rows=self.decoded(d.names.rows),
                left=self.decoded(d.names.left),
                columns=list(columns),
                version=d.version,
                working_table=working_table,
            )
            e.run("versions/groups_apply", target=groups, changed=updated, columns=list(columns))
            e.drop_any(updated)
        e.analyze(groups)
        return Grouping(groups, of, frozenset(columns))

    def _touched(self) -> tuple[TableName, str] | None:
        """Where a later version's changed classes are viewed (``versions/touched``), and the
        prefix its CREATE takes; None for a new history, which is checked whole."""
        if not self.d.history_exists:
            return None
        return self.workspace.engine.scratch_view(TableName("v_touched", self.d.work_schema))

    def check_grouping(
        self, names: OutputNames, kind: str, grouping: Grouping | None
    ) -> Grouping | None:
        """A later version's gate reads the kept grouping's groups of the classes it changes
        (``versions/touched``, ``grouped``) for the weighted models, in place of those classes'
        rows."""
        touched = self._touched()
        if touched is None or grouping is None:
            return grouping
        e, d = self.workspace.engine, self.d
        target, working_table = e.transaction_work(TableName("v_touched_groups", d.work_schema))
        e.run(
            "versions/touched",
            target=target,
            relation=grouping.relation,
            rows=self.decoded(d.names.rows),
            left=self.decoded(d.names.left),
            qids=self.qids,
            version=d.version,
            grouped=True,
            working_table=working_table,
        )
        return Grouping(target, touched[0], grouping.columns, grouping.weight)

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
                (self.decoded(d.names.rows), self.decoded(d.names.left)),
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
