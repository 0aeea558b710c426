"""The Python API: run a spec, check a relation, measure a published output.

The CLI and integrations are thin shells over these functions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonsql import pipeline
from anonsql.algorithms import ProgressCallback
from anonsql.attacks import AttackResult, run_attacks
from anonsql.attacks import release_context as attack_context
from anonsql.engines import ENGINES, Engine, connect
from anonsql.errors import SpecError
from anonsql.layouts import LAYOUTS
from anonsql.measure.linkage import release_linkage
from anonsql.measure.measure import release_context
from anonsql.metrics import MetricValue, compute_all, olap
from anonsql.pipeline.plan import Plan
from anonsql.pipeline.plan import plan as plan_run
from anonsql.prepare import remove_dead_workspaces
from anonsql.privacy import PrivacyModel, models_from_entries
from anonsql.privacy.check import CheckResult, check_relation, run_checks
from anonsql.release import ReleaseStatus, counted, read_release, release_status
from anonsql.report import RunResult
from anonsql.resolve import table_columns
from anonsql.risk import PopulationModel, PopulationTable, RiskReport, measure_risk
from anonsql.risk.attackers import DEFAULT_THRESHOLD
from anonsql.spec import Spec, load_spec, spec_from_mapping
from anonsql.spec.relations import parse_relation
from anonsql.spec.sources import file_source
from anonsql.sql import TableName

if TYPE_CHECKING:
    from anonsql.init import InitResult
    from anonsql.metrics.identity_reserved import ReleaseMetrics
    from anonsql.release.export import ExportedRelease
    from anonsql.report.html import render_report, write_report

#: Names this module offers that load on first use: a run needs neither (nor their templates).
_LAZY = {"render_report": "anonsql.report.html", "write_report": "anonsql.report.html"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    """Connect to the spec's database (a relative file path is resolved beside the spec) and
    apply the spec's ``engine_settings``. A database file that does not exist is refused, not
    created (a typo in ``database:`` would otherwise leave an empty file behind), unless the
    spec's source is files (``source: parquet:...``): the release then goes to a new file."""
    engine = connect_database(
        spec.engine,
        spec.database,
        base_dir=spec.base_dir,
        must_exist=file_source(spec.source, spec.base_dir) is None,
        key="database",
        settings=spec.engine_settings,
    )
    try:
        engine.apply_settings(spec.engine_settings)
    except BaseException:
        engine.close()
        raise
    return engine


def connect_database(
    engine: str,
    database: str | None,
    *,
    base_dir: Path | None = None,
    must_exist: bool = False,
    key: str = "--database",
    settings: Mapping[str, str | int | float | bool] | None = None,
) -> Engine:
    """Open ``database`` on a registered engine. A file database's folder must exist, and with
    ``must_exist`` (commands that only read) so must the file: nothing is created by a typo.
    ``settings`` go to an engine that takes them when it starts (Spark's configuration)."""
    if engine not in ENGINES:
        raise SpecError("engine", ENGINES.unknown_message(engine), "use a registered engine")
    engine_class = ENGINES.get(engine)
    is_path = engine_class.database_is_path
    target = database if database is not None else (":memory:" if is_path else "")
    if is_path and target != ":memory:":
        path = Path(target)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        if not path.parent.is_dir():
            raise SpecError(key, f"the folder of {path} does not exist", "create it first")
        if must_exist and not path.is_file():
            raise SpecError(
                key,
                f"{path} does not exist (nothing was created)",
                "give the path of an existing database file",
            )
        target = str(path)
    if settings and engine_class.settings_at_open:
        return connect(engine, database=target, conf=settings)
    return connect(engine, database=target)


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
    replace: bool = False,
) -> RunResult:
    """Anonymize ``spec.source`` and publish the result, verified, in the same database.

    A release is a sequence of versions (docs/releases.md); ``replace`` drops its history and
    starts again at version 1 (the certificate records it), where a re-publication would
    otherwise be refused.

    Raises a :class:`~anonsql.errors.AnonsqlError` subclass on bad input, infeasible models or
    failed verification; in every failure case the previous output is left as it was and the
    run's working tables are dropped.
    """
    spec = as_spec(spec)
    with _engine_for(spec, engine) as eng:
        return pipeline.run(spec, eng, progress or _quiet, replace=replace)


def plan(spec: Spec | Mapping[str, Any] | str | Path, *, engine: Engine | None = None) -> Plan:
    """What ``run`` would do (``anonsql run --dry-run``): the spec resolved against the
    database, which is only read."""
    spec = as_spec(spec)
    with _engine_for(spec, engine) as eng:
        return plan_run(spec, eng)


def init(
    engine: Engine,
    table: str | TableName,
    *,
    engine_name: str | None = None,
    database: str | None = None,
    check: bool = True,
) -> InitResult:
    """Profile ``table`` and propose a spec for it (``anonsql init``); ``database`` is what
    the spec's ``database:`` key will say. With ``check``, the proposal is run into scratch
    schemas (dropped afterwards) until the publish gate accepts it, and the result's
    ``verdict`` says whether the spec as written passes."""
    from anonsql.init import init_spec

    return init_spec(
        engine,
        _relation(table, "--table"),
        engine_name=engine_name,
        database=database,
        check=check,
    )


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
    rel = _relation(relation, "relation")
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
    result = check_relation(engine, rel, qids, typed, person=person)
    counted = (
        f"persons (distinct {person})"
        if person is not None
        else "rows (each row taken for one individual; give the person column to count persons)"
    )
    return replace(result, counted=counted)


def recompute_metrics(engine: Engine, output: str | TableName) -> list[MetricValue]:
    """Recompute the metrics of a relation anonsql published (reads its companion tables)."""
    release = read_release(
        engine,
        _relation(output, "output"),
        fix="give the name of a relation published by `anonsql run`",
    )
    return compute_all(release_context(engine, release))


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
    release = read_release(
        engine,
        _relation(output, "output"),
        fix="give the name of a relation published by `anonsql run`",
    )
    measure = olap.QueryAccuracyMeasure(
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
    return measure.measure(engine, release)


def risk(
    engine: Engine,
    relation: str | TableName,
    qids: Sequence[str],
    *,
    population: str | TableName | None = None,
    population_count: str | None = None,
    population_size: int | None = None,
    region: str | None = None,
    weight: str | None = None,
    threshold: float = DEFAULT_THRESHOLD,
) -> RiskReport:
    """Re-identification risk of any table or view, given its quasi-identifiers, as ARX and
    sdcMicro report it (:class:`~anonsql.risk.RiskReport`): prosecutor, journalist and marketer
    risk, records at risk above ``threshold``, sample uniques and population-uniqueness
    estimates. Works before anonymizing, on a release, or on any relation.

    ``population`` names a table of the population (the same QID columns, one row per person or
    a ``population_count`` column): journalist and marketer risk then use it. The population size
    the estimates assume is ``population_size``, else one of ARX's ``region`` s, else the
    population table's persons, else the sum of the ``weight`` column (sampling weights), else
    ARX's default (the USA).
    """
    rel = _relation(relation, "relation")
    columns = [c.name for c in table_columns(engine, rel, "relation")]
    for name in [*qids, *([weight] if weight else [])]:
        if name not in columns:
            raise SpecError(
                f"column {name!r}",
                f"not a column of {rel}",
                f"the columns are: {', '.join(columns)}",
            )
    if population_size is not None and region is not None:
        raise SpecError("population_size", "a size and a region both given", "give one of them")
    model = None
    if population_size is not None:
        model = PopulationModel(population_size)
    elif region is not None:
        model = PopulationModel.for_region(region)
    table = None
    if population is not None:
        table = PopulationTable(_relation(population, "population"), population_count)
    return measure_risk(
        engine,
        rel,
        list(qids),
        population=model,
        population_table=table,
        weight=weight,
        threshold=threshold,
    )


def identity_reserved_metrics(
    engine: Engine,
    output: str | TableName,
    *,
    queries: int = 1000,
    lam: int = 1,
    seed: int = 0,
) -> ReleaseMetrics:
    """The measures of Wang et al. (KAIS 2019, §5) of a ``danonyir``/``geneir`` release:
    normalized information loss, relative error of a seeded workload of count queries
    (``lam`` quasi-identifiers constrained per query) and the share of vulnerable classes
    (:mod:`anonsql.metrics.identity_reserved`). On demand only."""
    # imported here: its algorithms' modules load scipy, which a run does not need
    from anonsql.metrics.identity_reserved import IdentityReservedMeasure

    release = read_release(
        engine,
        _relation(output, "output"),
        fix="give the name of a relation published by `anonsql run`",
    )
    return IdentityReservedMeasure(queries=queries, lam=lam, seed=seed).measure(engine, release)


def status(engine: Engine, output: str | TableName) -> ReleaseStatus:
    """A published release against its source now: rows certified, in the source, released,
    withheld by the live view's guard, not covered, and whether the release is stale."""
    return release_status(engine, _relation(output, "output"))


def cleanup(engine: Engine) -> list[str]:
    """Drop the working schemas of runs that were killed (live runs are left alone); return
    the names of the schemas dropped."""
    return remove_dead_workspaces(engine)


def check_output(engine: Engine, output: str | TableName) -> CheckResult:
    """Re-check a published output against the models recorded in its certificate, with the
    same checks its publish gate ran, over the live source: the models on what analysts query,
    and the linkage measures (:func:`~anonsql.measure.linkage.release_linkage`: no
    quasi-identifier recovered through the columns published unchanged, the models holding on
    the classes the insensitive ones refine), which a pass-through changed in the source since
    publishing can break."""
    release = read_release(
        engine,
        _relation(output, "output"),
        fix="name the QIDs and models explicitly with `anonsql check`",
    )
    layout = LAYOUTS.get(release.layout)
    checks = layout.planned_checks(
        release.names, release.qids, release.models, release.person_column
    )
    result = run_checks(engine, release.names.main, checks)
    own = layout.release_violations(engine, release.names, release.certificate)
    linkage = release_linkage(engine, release).violations()
    return CheckResult(
        result.relation, {**result.violations, **own, **linkage}, counted(release.certificate)
    )


def attack(engine: Engine, output: str | TableName) -> tuple[AttackResult, ...]:
    """Mount every registered attack (:mod:`anonsql.attacks`) on a published release, as an
    analyst reading it can: singling out, linkability, attribute inference, linkage; each
    result with its success, baseline and the bound the certified models promise."""
    release = read_release(
        engine, _relation(output, "output"), fix="publish the release with `anonsql run` first"
    )
    return run_attacks(attack_context(engine, release))


def export(
    engine: Engine,
    output: str | TableName,
    to: str | Path,
    *,
    format: str = "duckdb",
    replace: bool = False,
) -> ExportedRelease:
    """Write what analysts read of a published release, and nothing else, to a new DuckDB file
    (``format="duckdb"``) or Parquet folder (``"parquet"``): the main relation as a table,
    ``__classes``, ``__certificate``, ``__metrics`` and the layout's public companions
    (:mod:`anonsql.release.export`). The way to hand a DuckDB release over: the file it lives
    in also holds the source and the private schema. ``to`` must not exist, unless
    ``replace``."""
    from anonsql.release.export import export_release

    return export_release(
        engine, _relation(output, "output"), Path(to), format=format, replace=replace
    )


def _relation(relation: str | TableName, key: str) -> TableName:
    return relation if isinstance(relation, TableName) else parse_relation(relation, key)


__all__ = [
    "RunResult",
    "as_spec",
    "attack",
    "check",
    "check_output",
    "cleanup",
    "connect_database",
    "export",
    "identity_reserved_metrics",
    "init",
    "open_engine",
    "plan",
    "query_accuracy",
    "recompute_metrics",
    "render_report",
    "risk",
    "run",
    "status",
    "write_report",
]
