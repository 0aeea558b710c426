"""Phase 8 of the pipeline: the published relations (Reddy, Raju, Valli Kumari, IJET 2018,
§3.1 steps 7, 10-12, "associative mapping"; digest 002 §3.2, G1, G2).

:func:`stage` builds the working tables the published relations and the checks read (cells with
their slots, QID values in long form); :func:`create_published` creates every relation of
:class:`PublishedTables` from them. Each is a ``CREATE TABLE`` at a target the caller names,
so the integrator places them (build in a staging schema, swap, grant).

The mapping is tuple-level in paper_compat (``tuple_links``: each published tuple's group and
bucket cell per attribute, which reconstructs every tuple with its published sensitive labels)
and per group and bucket in safe (``group_buckets`` only, with each bucket table shuffled on
its own, so the pairing of one row's cells across attributes is not published).
"""

from __future__ import annotations

from anonsql.engines.base import Engine
from anonsql.personalized.config import CategoricalSA, PersonalizedConfig
from anonsql.personalized.mixing import Mixers
from anonsql.personalized.names import PublishedTables, WorkTables
from anonsql.sql import TableName


def stage(
    engine: Engine, config: PersonalizedConfig, work: WorkTables, cells: TableName, mixers: Mixers
) -> None:
    """Create ``work.slots`` (the final cells with published slots), ``work.cell_leaves``
    (each cell with the leaves its label covers) and ``work.row_values``."""
    engine.run(
        "personalized/slots",
        target=work.slots,
        cells=cells,
        shuffle=config.profile == "safe",
        mixer=mixers.slots,
    )
    engine.run(
        "personalized/row_values",
        target=work.row_values,
        rows=work.rows,
        qids=list(config.quasi_identifiers),
    )
    engine.analyze(work.slots)
    engine.run(
        "personalized/cell_leaves", target=work.cell_leaves, cells=work.slots, covers=work.covers
    )
    engine.analyze(work.cell_leaves)
    engine.analyze(work.row_values)


def create_published(
    engine: Engine,
    config: PersonalizedConfig,
    work: WorkTables,
    target: PublishedTables,
    mixers: Mixers,
) -> None:
    """Create every relation of ``target`` (none may exist) from the staged working tables."""
    qids = list(config.quasi_identifiers)
    names = list(config.sensitive_columns)
    engine.run(
        "personalized/groups",
        target=target.groups,
        rows=work.rows,
        members=work.members,
        qids=qids,
    )
    engine.run(
        "personalized/group_values",
        target=target.group_values,
        row_values=work.row_values,
        members=work.members,
        qids=qids,
    )
    for attr, (sa, table) in enumerate(zip(config.sensitive, target.buckets, strict=True)):
        engine.run(
            "personalized/bucket_table",
            target=table,
            slots=work.slots,
            labels=work.labels,
            attr=attr,
            kind="categorical" if isinstance(sa, CategoricalSA) else "numeric",
        )
    engine.run(
        "personalized/group_buckets",
        target=target.group_buckets,
        cells=work.slots,
        members=work.members,
        names=names,
    )
    if target.tuple_links is not None:
        engine.run(
            "personalized/tuple_links",
            target=target.tuple_links,
            slots=work.slots,
            members=work.members,
            rows=work.rows,
            names=names,
            mixer=mixers.tuples,
        )
