"""The Python API: run a spec, check a relation, measure a published output.

The CLI and integrations are thin shells over these functions.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from anonsql.algorithms import ALGORITHMS
from anonsql.algorithms.base import ProgressCallback
from anonsql.engines import ENGINES, Engine, connect
from anonsql.errors import InterruptedRun, SpecError
from anonsql.metrics import MetricContext, MetricValue, QidInfo, compute_all, olap
from anonsql.pipeline.job import new_run_id, work_schema
from anonsql.pipeline.prepare import prepare
from anonsql.pipeline.source import parse_relation, table_columns
from anonsql.privacy import PrivacyModel
from anonsql.privacy.check import CheckResult, check_relation
from anonsql.privacy.registry import largest_k, models_from_entries
from anonsql.publish.layouts import check_person_release
from anonsql.publish.names import OutputNames
from anonsql.publish.publisher import PublishResult, publish, read_certificate, stage
from anonsql.spec import Spec, load_spec, spec_from_mapping
from anonsql.sql import TableName

RunResult = PublishResult


def _stderr_progress(message: str) -> None:
    print(f"anonsql: {message}", file=sys.stderr, flush=True)


def _quiet(message: str) -> None:
    del message


def as_spec(spec: Spec | Mapping[str, Any] | str | Path) -> Spec:
    """Accept a Spec, a mapping, or a path to a YAML file."""
    if isinstance(spec, Spec):
        return spec
    if isinstance(spec, Mapping):
        return spec_from_mapping(spec)
    return load_spec(spec)


def open_engine(spec: Spec) -> Engine:
    """Connect to the spec's database; a relative file path is resolved beside the spec."""
    if spec.engine not in ENGINES:
        raise SpecError("engine", ENGINES.unknown_message(spec.engine), "use a registered engine")
    is_path = ENGINES.get(spec.engine).database_is_path
    database = spec.database if spec.database is not None else (":memory:" if is_path else "")
    if is_path and database != ":memory:" and not Path(database).is_absolute():
        database = str(spec.base_dir / database)
    return connect(spec.engine, database=database)


@contextlib.contextmanager
def _engine_for(spec: Spec, engine: Engine | None) -> Iterator[Engine]:
    if engine is not None:
        yield engine
        return
    opened = open_engine(spec)
    try:
        yield opened
    finally:
        opened.close()


def run(
    spec: Spec | Mapping[str, Any] | str | Path,
    *,
    engine: Engine | None = None,
    progress: ProgressCallback | None = None,
) -> RunResult:
    """Anonymize ``spec.source`` and publish the result, verified, in the same database.

    Raises a :class:`~anonsql.errors.AnonsqlError` subclass on bad input, infeasible models or
    failed verification; in every failure case the previous output is left as it was and the
    run's working tables are dropped.
    """
    spec = as_spec(spec)
    report = progress or _quiet
    if spec.algorithm_name not in ALGORITHMS:
        raise SpecError(
            "algorithm", ALGORITHMS.unknown_message(spec.algorithm_name), "use a known algorithm"
        )
    algorithm = ALGORITHMS.get(spec.algorithm_name).from_spec(spec.algorithm_options)
    if spec.person_id is not None and not algorithm.person_level:
        raise SpecError(
            "algorithm",
            f"{algorithm.name} anonymizes one row per individual, but the spec sets person_id",
            "use algorithm: one_to_many (the default with person_id)",
        )
    if spec.person_id is None and algorithm.person_level:
        raise SpecError(
            "algorithm",
            f"{algorithm.name} anonymizes data with several rows per person",
            "add `person_id: <column linking a person's rows>`",
        )
    started = time.perf_counter()
    with _engine_for(spec, engine) as eng:
        run_id = new_run_id()
        try:
            report("validating the spec against the database")
            job = prepare(spec, eng, run_id)
            report(f"partitioning {job.rows} rows with {algorithm.name}")
            summary = algorithm.partition(job, report)
            report("publishing and verifying")
            stage(job)
            return publish(job, summary, started)
        except KeyboardInterrupt:
            raise InterruptedRun(
                "interrupted; nothing was published and the previous output is intact"
            ) from None
        finally:
            _cleanup(eng, work_schema(run_id))


def _cleanup(engine: Engine, schema: str) -> None:
    with contextlib.suppress(Exception):
        engine.run("drop_schema", schema=schema)


def check(
    engine: Engine,
    relation: str | TableName,
    qids: Sequence[str],
    models: Sequence[PrivacyModel] | Sequence[Mapping[str, Mapping[str, Any] | None]],
    *,
    person: str | None = None,
) -> CheckResult:
    """Check any table or view against privacy models, given its QID columns.

    Works on relations anonsql did not produce; sensitive columns are named by the models.
    ``person`` names the column linking the rows of one person (1:M data): the person-level
    models then count persons and build each person's SA fingerprint from their rows; without
    it each row is one person (a fingerprint column then holds the person's list of items).
    """
    rel = relation if isinstance(relation, TableName) else parse_relation(relation, "relation")
    columns = [c.name for c in table_columns(engine, rel, "relation")]
    typed = [m for m in models if isinstance(m, PrivacyModel)]
    if len(typed) != len(models):
        typed = models_from_entries([m for m in models if not isinstance(m, PrivacyModel)])
    named = [*qids, *(m.sensitive_column for m in typed if m.sensitive_column)]
    for name in [*named, *([person] if person else [])]:
        if name not in columns:
            raise SpecError(
                f"column {name!r}",
                f"not a column of {rel}",
                f"the columns are: {', '.join(columns)}",
            )
    for model in typed:
        if model.needs_person and person is None:
            raise SpecError(
                model.name,
                "this check needs the column that links the rows of one person",
                "name it with --person (person=... in Python)",
            )
    return check_relation(engine, rel, qids, typed, person=person)


def metrics(engine: Engine, output: str | TableName) -> list[MetricValue]:
    """Recompute the metrics of a relation anonsql published (reads its companion tables)."""
    rel = output if isinstance(output, TableName) else parse_relation(output, "output")
    names = OutputNames(rel)
    certificate = read_certificate(engine, names)
    if certificate is None:
        raise SpecError(
            "output",
            f"{rel} has no anonsql certificate beside it",
            "give the name of a relation published by `anonsql run`",
        )
    attributes = engine.query_arrow("select_all", relation=names.attributes).to_pylist()
    qids = [
        QidInfo(a["attribute"], a["kind"], a["min_value"], a["max_value"], a["leaf_count"])
        for a in attributes
    ]
    models = build_models_from_certificate(certificate)
    person = person_level(certificate)
    ctx = MetricContext(
        engine=engine,
        relation=names.by_person if person else rel,
        qids=qids,
        hierarchy_nodes=names.hierarchy_nodes,
        source_rows=int(person["persons"] if person else certificate["source_rows"]),
        k=largest_k(models),
        fingerprints=names.fingerprints if person else None,
    )
    return compute_all(ctx)


def query_accuracy(
    engine: Engine,
    output: str | TableName,
    *,
    seed: int = olap.DEFAULT_SEED,
    max_dimensions: int = olap.DEFAULT_MAX_DIMENSIONS,
    queries_per_dimension: int = olap.DEFAULT_QUERIES_PER_DIMENSION,
    sa_column: str | None = None,
    sa_values: Sequence[str] | None = None,
    max_sa_values: int = olap.DEFAULT_MAX_SA_VALUES,
    min_support: float = olap.DEFAULT_MIN_SUPPORT,
    bins: int = olap.DEFAULT_BINS,
    bin_width: float | Mapping[str, float] | None = None,
) -> olap.QueryAccuracy:
    """OLAP query accuracy of a published output: mean KL(actual || estimate) of a seeded
    workload of count queries, computed in SQL (Ghinita et al., VLDB 2007; see
    :mod:`anonsql.metrics.olap` for the workload and the conventions). On demand only: it is not
    part of the metrics every run records.
    """
    rel = output if isinstance(output, TableName) else parse_relation(output, "output")
    return olap.query_accuracy(
        engine,
        rel,
        seed=seed,
        max_dimensions=max_dimensions,
        queries_per_dimension=queries_per_dimension,
        sa_column=sa_column,
        sa_values=sa_values,
        max_sa_values=max_sa_values,
        min_support=min_support,
        bins=bins,
        bin_width=bin_width,
    )


def build_models_from_certificate(certificate: Mapping[str, Any]) -> list[PrivacyModel]:
    return models_from_entries(json.loads(certificate["models"]))


def check_output(engine: Engine, output: str | TableName) -> CheckResult:
    """Re-check a published output against the models recorded in its certificate."""
    rel = output if isinstance(output, TableName) else parse_relation(output, "output")
    names = OutputNames(rel)
    certificate = read_certificate(engine, names)
    if certificate is None:
        raise SpecError(
            "output",
            f"{rel} has no anonsql certificate beside it",
            "name the QIDs and models explicitly with `anonsql check`",
        )
    qids = json.loads(certificate["quasi_identifiers"])
    models = build_models_from_certificate(certificate)
    person = person_level(certificate)
    if person is not None:
        return check_person_release(engine, names, qids, models, person["person_id"])
    return check_relation(engine, rel, qids, models)


def person_level(certificate: Mapping[str, Any]) -> dict[str, Any] | None:
    """The 1:M facts a certificate records (None for one row per individual)."""
    value = certificate.get("person_level")
    facts = json.loads(value) if isinstance(value, str) else None
    return facts if isinstance(facts, dict) else None


__all__ = [
    "RunResult",
    "as_spec",
    "check",
    "check_output",
    "metrics",
    "open_engine",
    "query_accuracy",
    "run",
]
