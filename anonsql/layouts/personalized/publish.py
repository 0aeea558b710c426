"""Phase 8 of the pipeline: the published relations (Reddy, Raju, Valli Kumari, IJET 2018,
§3.1 steps 7, 10-12, "associative mapping"; digest 002 §3.2, G1, G2).

:func:`stage` builds the working tables the published relations and the checks read (cells with
their slots, QID values in long form); :func:`create_published` creates every relation of
:class:`PublishedTables` from them. Each is a ``CREATE TABLE`` at a target the caller names,
so the caller places them (the release layout: under the names the swap gives).

The mapping is tuple-level in paper_compat (``tuples`` carries each published tuple's
sensitive cells: the paper's associative mapping joined to the bucket tables) and per group and
bucket in safe (``group_buckets`` only, with each attribute's buckets shuffled on their own, so
the pairing of one row's cells across attributes is not published).
"""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.algorithms.personalized.config import CategoricalSA, PersonalizedConfig
from anonsql.algorithms.personalized.mixing import Mixers
from anonsql.algorithms.personalized.names import PublishedTables, WorkTables
from anonsql.engines.base import Engine
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


@dataclass(frozen=True)
class GeneralizedQids:
    """Each QID group's quasi-identifiers generalized (the run's ``generalized`` working table
    of the spine: ``pid`` = the group id, ``g<i>`` the published value of QID ``i``), and the
    published name of each ``g<i>`` column."""

    table: TableName
    columns: tuple[tuple[str, str], ...]


def create_published(
    engine: Engine,
    config: PersonalizedConfig,
    work: WorkTables,
    target: PublishedTables,
    mixers: Mixers,
    generalized: GeneralizedQids | None = None,
) -> None:
    """Create every relation of ``target`` (none may exist) from the staged working tables;
    ``generalized`` adds each tuple's generalized quasi-identifiers to ``target.tuples``."""
    qids = list(config.quasi_identifiers)
    names = list(config.sensitive_columns)
    paper = config.profile == "paper_compat"
    engine.run(
        "personalized/tuples",
        target=target.tuples,
        members=work.members,
        slots=work.slots,
        labels=work.labels,
        generalized=generalized,
        cells=[
            {"attr": a, "column": sa.column, "numeric": not isinstance(sa, CategoricalSA)}
            for a, sa in enumerate(config.sensitive)
        ]
        if paper
        else [],
        mixer=mixers.tuples,
    )
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
    engine.run(
        "personalized/buckets",
        target=target.buckets,
        slots=work.slots,
        labels=work.labels,
        names=names,
    )
    engine.run(
        "personalized/group_buckets",
        target=target.group_buckets,
        cells=work.slots,
        members=work.members,
        names=names,
    )
    engine.run(
        "personalized/sa_taxonomy",
        target=target.sa_taxonomy,
        slots=work.slots,
        labels=work.labels,
        covers=work.covers,
        names=names,
    )
