"""What a new version of a release changes, decided before the algorithm runs.

A release is a sequence of certified versions (docs/releases.md). Following m-invariance
(Xiao and Tao, SIGMOD 2007), the secure incremental l-diversity of Byun, Sohn, Bertino and Li
(SDM workshop on privacy, 2006) and the correspondence attacks of Fung, Wang, Fu and Pei
("Anonymity for continuous data publishing", EDBT 2008), a row never joins a class that an
analyst has already seen, and a class never loses rows that, as a set, would reveal a person:

* **insertions** (rows new since the last version, and rows it held back) are partitioned
  *among themselves* by the spec's algorithm into new classes; what cannot form a class stays
  held back;
* **deletions** leave a class only as a batch: a class's pending deletions are applied when
  they, as one class, satisfy the models and the rows the class keeps do too (or none are
  left); otherwise the class keeps serving its previous rows.

With monotonic class-level models, between any two versions the rows inserted into a class
are a union of whole new classes and the rows deleted from it a union of batches, each
satisfying the models, so their union does: differencing two kept versions shows nothing the
models do not allow. The verify step checks exactly that, from the history alone
(:mod:`anonsql.versions.pairs`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from anonsql.algorithms import ProgressCallback
from anonsql.algorithms.base import Partitioning
from anonsql.algorithms.workspace import Workspace, new_run_id, work_schema
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.prepare.cleanup import remove_dead_workspaces
from anonsql.privacy.base import PrivacyModel
from anonsql.resolve import Resolved
from anonsql.spec.output import OutputNames
from anonsql.sql import SqlRenderer, TableName
from anonsql.sql.quoting import TEMPLATE_DIALECT
from anonsql.sql.relations import Relation
from anonsql.versions.checksum import checksum
from anonsql.versions.names import KEY_HASH, KEY_PARAMS, VersionNames
from anonsql.versions.status import last_version

#: The ``--replace`` fix, named in every refusal to re-publish.
REPLACE_FIX = (
    "publish under another output name, or run with --replace (api.run(..., replace=True)) to "
    "drop the release's history and start again at version 1, which lets an analyst who kept "
    "the previous release compare it with the new one (the certificate records it)"
)


@dataclass(frozen=True)
class Previous:
    """The last version's summary row."""

    version: int
    checksum: str
    spec_sha256: str
    published_rows: int


@dataclass(frozen=True)
class Delta:
    """A versioned run's inputs: the new version's number, the scratch tables of the batch to
    partition and of the pending deletions, and the classes whose deletions apply."""

    names: VersionNames
    run_id: str
    version: int
    previous: Previous | None
    #: The spec as resolved on the whole source (the certificate's).
    original: Resolved
    #: Rows waiting for a class (new since the last version, and held back by it).
    batch: TableName
    batch_rows: int
    #: The rows the algorithm partitions: the batch, or none when it cannot form one class.
    placing: TableName
    #: Published rows whose source row is gone, and the classes whose batch is applied now.
    deleted: TableName | None
    pending_deletions: int
    applied: TableName | None
    applied_deletions: int
    #: The source's checksum (rows and the first key sum); None: a new history's, summed of
    #: its rows once placed (``Engine.numbers_repeats_after_sums``, VersionedRecordLayout).
    checksum: str | None
    #: Why the history started again at this version (``--replace``, a changed spec), if so.
    replaced: str | None
    #: Whether the kept history has a label dictionary (its columns may hold codes).
    labels_kept: bool = False

    @property
    def work_schema(self) -> str:
        return work_schema(self.run_id)

    @property
    def history_exists(self) -> bool:
        return self.previous is not None and self.deleted is not None

    @property
    def columns(self) -> list[str]:
        """The published columns (in the source's order)."""
        return published_columns(self.original)


@dataclass(frozen=True)
class Versioning:
    """How a run publishes: ``delta`` for a versioned release (record layout), None for a
    live view or a layout that is not versioned; ``resolved`` is what the algorithm runs on."""

    resolved: Resolved
    delta: Delta | None
    checksum_names: VersionNames
    replaced: bool
    #: The run holding the working schema that the versions step and the workspace share.
    run_id: str

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        """The algorithm's partitions of the rows to place; none, without running it, when a
        later version has no rows to place (a batch that cannot form one class is held back
        whole)."""
        algorithm = self.resolved.algorithm
        if self.delta is None or self.delta.version == 1 or workspace.rows > 0:
            progress(f"partitioning {workspace.rows} rows with {algorithm.name}")
            return algorithm.partition(workspace, progress)
        workspace.engine.run(
            "versions/empty_parts", target=workspace.work("parts"), dims=workspace.dimensions
        )
        return Partitioning(
            partitions=0, suppressed_rows=0, suppressed_partitions=0, rounds=0, statements=1
        )


def published_columns(resolved: Resolved) -> list[str]:
    passthrough, qids = set(resolved.passthrough), set(resolved.qids)
    return [c.name for c in resolved.catalog if c.name in passthrough or c.name in qids]


def spec_sha256(resolved: Resolved) -> str:
    return hashlib.sha256(resolved.spec.canonical_json().encode()).hexdigest()


def versionable(resolved: Resolved, engine: Engine) -> bool:
    """Whether the release is published as versions: the record layout, with models that are
    monotonic and decided per class (no table-level verdict, no population), on an engine with
    transactional DDL (the history changes with the release, or not at all)."""
    return (
        resolved.spec.output.materialize != "live"
        and resolved.algorithm.layout == "record"
        and engine.transactional_ddl
        and all(versionable_model(m) for m in resolved.models)
    )


def versionable_model(model: PrivacyModel) -> bool:
    return model.monotonic and model.guard == "class" and not model.requires


def previous_version(engine: Engine, names: VersionNames) -> Previous | None:
    last = last_version(engine, names)
    if last is None:
        return None
    version, checksum, sha, published = last
    return Previous(int(version), str(checksum), str(sha), int(published or 0))


@contextlib.contextmanager
def versioning(resolved: Resolved, engine: Engine, *, replace: bool) -> Iterator[Versioning]:
    """Decide how this run publishes and build its scratch tables (dropped when it ends).

    Refuses (unless ``replace``) to re-publish a changed source where the release is not
    versioned, and to re-publish a versioned release under a changed spec."""
    spec = resolved.spec
    names = VersionNames(OutputNames(resolved.output, spec.output.private_schema))
    run_id = new_run_id()
    schema = work_schema(run_id)
    remove_dead_workspaces(engine)
    engine.hold_run(run_id)
    try:
        engine.create_work_schema(schema)
        previous = None if replace else previous_version(engine, names)
        kinds = engine.relation_kinds([names.left, names.legacy_history, names.labels])
        if previous is not None and kinds[names.legacy_history] and not kinds[names.left]:
            raise SpecError(
                "output",
                f"{resolved.output} was published by an earlier anonsql, whose single history "
                "table this version does not read",
                REPLACE_FIX,
            )
        history = previous is not None and kinds[names.left] is not None
        if not versionable(resolved, engine):
            # the source as this run reads it (the spec may name another table since)
            if (
                previous is not None
                and not history
                and spec.output.materialize != "live"
                and checksum(engine, resolved.source, [c.name for c in resolved.catalog])
                != previous.checksum
            ):
                raise SpecError(
                    "output",
                    f"{resolved.output} is a release of a source that changed since; "
                    f"the {resolved.algorithm.layout} layout is not versioned, so a new "
                    "release would be compared with the previous one",
                    REPLACE_FIX,
                )
            yield Versioning(resolved, None, names, replace, run_id)
            return
        delta = _delta(resolved, engine, names, run_id, previous if history else None)
        restarted = "replaced" if replace else None
        if history and previous is not None and previous.spec_sha256 != spec_sha256(resolved):
            if delta.checksum != previous.checksum:
                raise SpecError(
                    "output",
                    f"{resolved.output} has versions certified under another spec and its "
                    "source changed since; new classes under this spec would be compared with "
                    "them",
                    REPLACE_FIX,
                )
            # the same rows under another spec: a new history (as a re-run always did)
            engine.drop_work_schema(schema)
            engine.create_work_schema(schema)
            delta = _delta(resolved, engine, names, run_id, None)
            restarted = "restarted: the spec changed, the source did not"
        delta = dataclasses.replace(
            delta,
            replaced=restarted,
            labels_kept=delta.history_exists and kinds[names.labels] is not None,
        )
        yield Versioning(_for_algorithm(delta, engine), delta, names, replace, run_id)
    finally:
        with contextlib.suppress(Exception):
            engine.drop_work_schema(schema)
        with contextlib.suppress(Exception):
            engine.release_run(run_id)


#: Source rows per aggregate when a new history looks for repeated row hashes. Out of core
#: (DuckDB, memory_limit 3GB, 1e9 rows) one aggregate over every distinct hash spilled 23.3
#: GiB of temporary files, four times the input (108.7 s); in 8 parts, 1.0 GiB at most
#: (8 x 19.0 s). Up to this size the aggregate fits in memory and one pass is the cheapest.
ROWS_PER_HASH_PART = 125_000_000


def hash_parts(rows: int) -> int:
    """How many aggregates, each over one part of the hash space, find a new history's
    repeated row hashes (``versions/keyed_batch``)."""
    return max(1, -(-rows // ROWS_PER_HASH_PART))


def _delta(
    resolved: Resolved, engine: Engine, names: VersionNames, run_id: str, previous: Previous | None
) -> Delta:
    def table(kind: str) -> TableName:
        return TableName(f"v_{kind}", work_schema(run_id))

    columns = [c.name for c in resolved.catalog]
    # the version's rows are the published part of the history: what is compared with the source
    history = names.rows if previous is not None else None
    batch, deleted = table("batch"), table("deleted")
    if history is None:
        batch, scratch = engine.scratch_view(batch)
        # a new history places every source row, keyed (its ordinal among identical rows); the
        # sums are read of those keys, so the source's rows are hashed once (on PostgreSQL a
        # second hashing cost about 1 s at 1e6 rows) and describe exactly the rows placed
        engine.run(
            "versions/keyed_batch",
            target=batch,
            scratch=scratch,
            repeated=table("repeated"),
            source=resolved.source,
            columns=columns,
            parts=hash_parts(resolved.rows),
            **KEY_PARAMS,
        )
        # where the engine sums a new history's keys once its rows are placed
        # (Engine.numbers_repeats_after_sums), the batch is counted as the resolve step
        # counted the source, and its checksum is read later (VersionedRecordLayout)
        sums = None if engine.numbers_repeats_after_sums else _key_sums(engine, batch)
    else:
        sums = _key_sums(engine, resolved.source, columns=columns)
        if not _changed_by_key(engine, resolved, history, sums, batch, deleted):
            # the exact path: every source row keyed, then compared with the history's
            keyed = table("keyed")
            engine.run(
                "versions/keyed",
                target=keyed,
                source=resolved.source,
                columns=columns,
                **KEY_PARAMS,
            )
            engine.run("versions/batch", target=batch, keyed=keyed, rows=history, **KEY_PARAMS)
            engine.run("versions/deleted", target=deleted, rows=history, keyed=keyed, **KEY_PARAMS)
    checksum = f"{sums[0]}:{sums[1]}" if sums is not None else None
    if history is not None:
        # the algorithm's working rows join the batch to every hierarchy: without statistics
        # PostgreSQL estimates those joins at one row and nested-loops over them (a new
        # history's batch is a view of the source, which has the source's)
        engine.analyze(batch)
        batch_rows = engine.count_rows(batch)
    else:
        # a new history's batch was just counted by its key sums, or by the resolve step
        batch_rows = sums[0] if sums is not None else resolved.rows
    applied: TableName | None = None
    pending = applied_rows = 0
    if history is not None:
        pending = engine.count_rows(deleted)
        renderer = SqlRenderer(TEMPLATE_DIALECT, engine.sql.defaults)

        def refusals(relation: TableName) -> list[str]:
            return [
                m.prepared(engine, relation, ["__anonsql_class_id"]).violations_sql(
                    renderer, relation, ["__anonsql_class_id"]
                )
                for m in resolved.models
            ]

        # the classes whose deletions, as one class, satisfy the models: at k = 10 a class's
        # few pending deletions mostly do not, and only these classes' remaining rows are read
        # (every class with a deletion: 0.29-0.37 s at 1e7 rows)
        ready = table("ready")
        engine.run("versions/applied", target=ready, classes=deleted, refusals=refusals(deleted))
        remaining = table("remaining")
        read = sorted({c for m in resolved.models if (c := m.sensitive_column) is not None})
        engine.run(
            "versions/remaining",
            target=remaining,
            rows=history,
            deleted=deleted,
            classes=ready,
            columns=read,
            **KEY_PARAMS,
        )
        applied = table("applied")
        engine.run("versions/applied", target=applied, classes=ready, refusals=refusals(remaining))
        applied_rows = int(
            engine.query("versions/applied_rows", deleted=deleted, applied=applied)[0][0]
        )
    placing = batch
    if previous is not None and not _forms_a_class(
        engine, batch, batch_rows, resolved.models, table("one_group")
    ):
        placing = table("empty")
        engine.run("versions/empty_like", target=placing, source=batch)
    return Delta(
        names=names,
        run_id=run_id,
        version=(previous.version + 1) if previous is not None else 1,
        previous=previous,
        original=resolved,
        batch=batch,
        batch_rows=batch_rows,
        placing=placing,
        deleted=deleted if history is not None else None,
        pending_deletions=pending,
        applied=applied,
        applied_deletions=applied_rows,
        checksum=checksum,
        replaced=None,
    )


def _key_sums(
    engine: Engine,
    relation: Relation,
    *,
    columns: Sequence[str] = (),
) -> tuple[int, int, int]:
    """Rows and two sums of their row keys modulo primes (``versions/key_sums``): of the
    source's rows hashed (``columns``), or of a keyed relation's."""
    n, first, second = engine.query(
        "versions/key_sums",
        relation=relation,
        columns=list(columns),
        key_hash=KEY_HASH,
        distinct=False,
    )[0]
    return int(n), int(first), int(second)


def _changed_by_key(
    engine: Engine,
    resolved: Resolved,
    history: TableName,
    source: tuple[int, int, int],
    batch: TableName,
    deleted: TableName,
) -> bool:
    """The batch and the pending deletions found by row hash alone: one pass over the source
    (``versions/changes``, a FULL JOIN of its rows' hashes with the published rows'), split into
    the batch (``versions/new_rows``) and the deletions (``versions/gone_rows``), where the
    exact path first copies the whole source with each row's key and ordinal among identical
    rows.

    They are exact when every hash found on both sides has as many source rows as published
    rows; then the rows and key sums (``source``'s, :func:`_key_sums`) of the source less the
    batch equal those of the published rows less the deletions. When they do not (a copy of a
    published row was added or removed), the tables are dropped and False sends the caller to
    the exact path. Were such changes to cancel out in the count and in both sums, rows would
    stay unshown or go on being served, never be shown in a class of their own: staleness, not
    a disclosure."""
    columns = [c.name for c in resolved.catalog]
    changes = TableName("v_changes", batch.schema)
    engine.run(
        "versions/changes",
        target=changes,
        source=resolved.source,
        rows=history,
        columns=columns,
        **KEY_PARAMS,
    )
    engine.run("versions/new_rows", target=batch, changes=changes, columns=columns, **KEY_PARAMS)
    engine.run("versions/gone_rows", target=deleted, rows=history, changes=changes, **KEY_PARAMS)
    engine.drop(changes)
    published = _key_sums(engine, history)
    new, gone = _key_sums(engine, batch), _key_sums(engine, deleted)
    if all(s - n == p - g for s, n, p, g in zip(source, new, published, gone, strict=True)):
        return True
    engine.drop(batch)
    engine.drop(deleted)
    return False


def _forms_a_class(
    engine: Engine, batch: TableName, rows: int, models: Sequence[PrivacyModel], view: TableName
) -> bool:
    """Whether the batch's rows, as one class, satisfy every model (else no class of them
    can: the algorithm is not run and they stay held back)."""
    if rows == 0:
        return False
    engine.run("versions/one_group", target=view, relation=batch)
    try:
        for model in models:
            ready = model.prepared(engine, view, ["__anonsql_class_id"])
            if engine.count_query_rows(
                ready.violations_sql(engine.sql, view, ["__anonsql_class_id"])
            ):
                return False
        return True
    finally:
        engine.drop(view, view=True)


def _for_algorithm(delta: Delta, engine: Engine) -> Resolved:
    """The resolved spec the algorithm runs on: the rows to place. After the first version a
    batch's rows that no class can take are held back rather than failing the run (its
    suppression limit is 1)."""
    resolved = delta.original
    spec, algorithm = resolved.spec, resolved.algorithm
    if delta.version > 1:
        spec = spec.model_copy(update={"suppression_limit": 1.0})
    if delta.history_exists:
        # what the previous version's search chose (Mondrian's split rule) applies to the batch
        algorithm = algorithm.for_later_batch(_previous_search(engine, delta.names.names))
    rows = delta.batch_rows if delta.placing == delta.batch else engine.count_rows(delta.placing)
    return dataclasses.replace(
        resolved, spec=spec, algorithm=algorithm, source=delta.placing, rows=rows
    )


def _previous_search(engine: Engine, names: OutputNames) -> dict[str, Any] | None:
    """The certificate's ``search`` of the version published now (None when it has none)."""
    if not engine.exists(names.certificate):
        return None
    rows = engine.query("versions/previous_search", certificate=names.certificate)
    found = json.loads(rows[0][0]) if rows and rows[0][0] else None
    return found if isinstance(found, dict) else None
