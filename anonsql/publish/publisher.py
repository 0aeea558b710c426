"""Build-then-swap publishing, gated by verification.

The recoding is staged in the run's working schema. The swap then runs in **one transaction**:
drop the previous output, create the new relations under their final names, re-check every
privacy model on the published relation, account for every source row, compute class
statistics and metrics, write the certificate, and commit. Any failure or interruption rolls
back, leaving the previous output exactly as it was.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

import anonsql
from anonsql.algorithms.base import PartitionSummary
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.metrics import MetricContext, MetricValue, QidInfo, compute_all
from anonsql.pipeline.job import Job
from anonsql.privacy.check import CheckResult
from anonsql.privacy.registry import largest_k
from anonsql.publish.layouts import layout_for
from anonsql.publish.names import OutputNames
from anonsql.sql import TableName


@dataclass
class PublishResult:
    """What a run published and measured."""

    names: OutputNames
    check: CheckResult
    metrics: list[MetricValue]
    certificate: dict[str, Any]
    summary: PartitionSummary
    extra: dict[str, Any] = field(default_factory=dict)

    def metric(self, name: str, attribute: str | None = None) -> float:
        for m in self.metrics:
            if m.name == name and m.attribute == attribute:
                return m.value
        raise KeyError((name, attribute))


def stage(job: Job) -> None:
    """Turn the algorithm's partitions into the release's companions, in the working schema."""
    e = job.engine
    for table in ("rows", "parts"):
        e.analyze(job.work(table))
    nodes = {d.index: job.work(f"nodes{d.index}") for d in job.dimensions if not d.is_numeric}
    e.run(
        "publish/generalized",
        target=job.work("generalized"),
        parts=job.work("parts"),
        dims=job.dimensions,
        nodes=nodes,
    )
    layout_for(job).stage()
    e.load_arrow(job.work("attributes"), attributes_table(job))
    e.load_arrow(job.work("hierarchy_nodes"), hierarchy_nodes_table(job))


def attributes_table(job: Job) -> pa.Table:
    dims = job.dimensions
    return pa.table(
        {
            "attribute": pa.array([d.column for d in dims], pa.string()),
            "kind": pa.array([d.kind for d in dims], pa.string()),
            "min_value": pa.array(
                [d.global_min if d.is_numeric else None for d in dims], pa.float64()
            ),
            "max_value": pa.array(
                [d.global_max if d.is_numeric else None for d in dims], pa.float64()
            ),
            "leaf_count": pa.array(
                [d.hierarchy.leaf_count if d.hierarchy else None for d in dims], pa.int64()
            ),
        }
    )


def hierarchy_nodes_table(job: Job) -> pa.Table:
    columns: dict[str, list[Any]] = {
        "attribute": [],
        "label": [],
        "depth": [],
        "leaf_count": [],
        "ncp": [],
        "first_leaf": [],
        "last_leaf": [],
    }
    hierarchies = [(d.column, d.hierarchy) for d in job.dimensions if d.hierarchy is not None]
    if job.person is not None and job.person.sensitive and job.person.hierarchy:
        hierarchies.append((job.person.sensitive, job.person.hierarchy))
    for column, hierarchy in hierarchies:
        for node in hierarchy.nodes:
            columns["attribute"].append(column)
            columns["label"].append(node.label)
            columns["depth"].append(node.depth)
            columns["leaf_count"].append(node.leaf_count)
            columns["ncp"].append(hierarchy.ncp(node))
            columns["first_leaf"].append(node.first_leaf)
            columns["last_leaf"].append(node.last_leaf)
    return pa.table(
        {
            "attribute": pa.array(columns["attribute"], pa.string()),
            "label": pa.array(columns["label"], pa.string()),
            "depth": pa.array(columns["depth"], pa.int32()),
            "leaf_count": pa.array(columns["leaf_count"], pa.int64()),
            "ncp": pa.array(columns["ncp"], pa.float64()),
            "first_leaf": pa.array(columns["first_leaf"], pa.int32()),
            "last_leaf": pa.array(columns["last_leaf"], pa.int32()),
        }
    )


def qid_infos(job: Job) -> list[QidInfo]:
    return [
        QidInfo(
            d.column,
            d.kind,
            d.global_min if d.is_numeric else None,
            d.global_max if d.is_numeric else None,
            d.hierarchy.leaf_count if d.hierarchy else None,
        )
        for d in job.dimensions
    ]


def guard_output(job: Job, names: OutputNames) -> None:
    """Refuse to replace a relation that anonsql did not publish."""
    e = job.engine
    if e.relation_kind(names.main) is not None and not e.exists(names.certificate):
        raise SpecError(
            "output",
            f"{names.main} exists and was not published by anonsql (no certificate beside it)",
            "choose another output name, or drop it yourself",
        )


def publish(job: Job, summary: PartitionSummary, started: float) -> PublishResult:
    """Swap the staged output in, verified, in one transaction."""
    e = job.engine
    names = OutputNames(job.output)
    guard_output(job, names)
    layout = layout_for(job)
    qids = [d.column for d in job.dimensions]
    kind = "VIEW" if job.spec.output.materialize == "view" else "TABLE"
    assert job.output.schema is not None
    # created before the swap's transaction: two runs publishing into a new schema at once
    # would otherwise race on it (an empty schema is all a failed run can leave behind)
    e.ensure_schema(job.output.schema)
    with e.transaction():
        for relation in names.all():
            e.drop_any(relation)
        for kind_name in layout.copied:
            e.run(
                "publish/copy_table", target=names.companion(kind_name), source=job.work(kind_name)
            )
            e.analyze(names.companion(kind_name))
        layout.create(names, kind)
        check, published = layout.verify(names, summary)
        measured = layout.measured(names)
        e.run(
            "publish/classes",
            target=names.classes,
            relation=measured,
            qids=qids,
            sensitive=layout.class_sensitive(),
        )
        ctx = MetricContext(
            engine=e,
            relation=measured,
            qids=qid_infos(job),
            hierarchy_nodes=names.hierarchy_nodes,
            source_rows=layout.individuals(),
            k=largest_k(job.models),
            fingerprints=names.fingerprints if job.person is not None else None,
        )
        metrics = compute_all(ctx)
        e.load_arrow(names.metrics, metrics_table(metrics))
        certificate = make_certificate(job, summary, check, published, metrics, started)
        certificate.update(layout.certificate_fields())
        e.load_arrow(names.certificate, pa.Table.from_pylist([certificate]))
        for role in job.spec.output.grants:
            e.run(
                "publish/grant",
                role=role,
                schema=job.output.schema,
                relations=[names.main, *(names.companion(k) for k in layout.granted)],
            )
    return PublishResult(
        names=names, check=check, metrics=metrics, certificate=certificate, summary=summary
    )


def metrics_table(metrics: list[MetricValue]) -> pa.Table:
    return pa.table(
        {
            "metric": pa.array([m.name for m in metrics], pa.string()),
            "attribute": pa.array([m.attribute for m in metrics], pa.string()),
            "value": pa.array([m.value for m in metrics], pa.float64()),
        }
    )


def make_certificate(
    job: Job,
    summary: PartitionSummary,
    check: CheckResult,
    published: int,
    metrics: list[MetricValue],
    started: float,
) -> dict[str, Any]:
    spec_json = job.spec.canonical_json()
    ncp = next(m.value for m in metrics if m.name == "ncp" and m.attribute is None)
    return {
        "run_id": job.run_id,
        "created_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "anonsql_version": anonsql.__version__,
        "source": str(job.source),
        "output": str(job.output),
        "materialize": job.spec.output.materialize,
        "quasi_identifiers": json.dumps([d.column for d in job.dimensions]),
        "sensitive": json.dumps([s.column for s in job.sensitive]),
        "models": json.dumps([{m.name: m.parameters()} for m in job.models]),
        "algorithm": job.spec.algorithm_name,
        "algorithm_options": json.dumps(job.spec.algorithm_options, sort_keys=True),
        "verified": check.holds,
        "violations": json.dumps(check.violations),
        "source_rows": job.rows,
        "published_rows": published,
        "suppressed_rows": summary.suppressed_rows,
        "suppression_limit": job.spec.suppression_limit,
        "classes": int(next(m.value for m in metrics if m.name == "classes")),
        "ncp_percent": ncp,
        "dropped_columns": json.dumps(job.dropped),
        "spec_sha256": hashlib.sha256(spec_json.encode()).hexdigest(),
        "seconds": round(time.perf_counter() - started, 3),
    }


def read_certificate(engine: Engine, names: OutputNames) -> dict[str, Any] | None:
    certificate: TableName = names.certificate
    if not engine.exists(certificate):
        return None
    table = engine.query_arrow("select_all", relation=certificate)
    rows = table.to_pylist()
    return rows[0] if rows else None
