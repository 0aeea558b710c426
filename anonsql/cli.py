"""The ``anonsql`` command line: a thin shell over :mod:`anonsql.api`.

Exit codes: 0 success; 1 other anonsql error; 2 bad spec or arguments; 3 infeasible privacy
models; 4 verification failed (run) or violations found (check); 5 the database refused a
statement; 6 the release is stale or exposed (status); 130 interrupted by SIGINT or SIGTERM (the
message says whether the release was published).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from functools import cache, wraps
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from anonsql import __version__
from anonsql.errors import AnonsqlError, SpecError

# the pipeline, the engines and their drivers load inside the commands: `--version` and
# `--help` import none of them (tests/cli/test_rough_edges.py)
if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console
    from rich.table import Table

    from anonsql.engines import Engine
    from anonsql.metrics import MetricValue
    from anonsql.metrics.olap import QueryAccuracy
    from anonsql.pipeline.plan import Plan
    from anonsql.privacy.check import CheckResult
    from anonsql.release import ReleaseStatus
    from anonsql.report import RunResult
    from anonsql.risk import RiskReport
    from anonsql.sql import TableName

F = TypeVar("F", bound=Callable[..., Any])


# rich is imported on first use: a quiet --json run never prints through it (its import cost:
# BENCHMARKS.md "Working tables in memory, fewer passes at publish, radix-grouped bins")
@cache
def out() -> Console:
    """The console on stdout."""
    from rich.console import Console

    return Console()


@cache
def err() -> Console:
    """The console on stderr (progress, errors, logs)."""
    from rich.console import Console

    return Console(stderr=True)


def _table(title: str, **options: Any) -> Table:
    from rich.table import Table

    return Table(title=title, **options)


def _progress(message: str) -> None:
    err().print(f"[dim]anonsql:[/dim] {message}", highlight=False)


@contextlib.contextmanager
def progress_bar(quiet: bool = False) -> Iterator[Callable[[str], None]]:
    """A progress callback: each step's message is printed on stderr, and on a terminal a
    live line shows the current step, the count of steps (rounds, loads, verification) and the
    elapsed time."""
    if quiet:
        yield lambda message: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("[dim]anonsql:[/dim] {task.description}"),
        TextColumn("[cyan]step {task.completed:.0f}[/cyan]"),
        TimeElapsedColumn(),
        console=err(),
        transient=True,
    ) as bar:
        task = bar.add_task("starting", total=None)

        def update(message: str) -> None:
            bar.console.print(f"[dim]anonsql:[/dim] {message}", highlight=False)
            bar.update(task, description=message, advance=1)

        yield update


def emit_json(found: Any) -> None:
    """Print one JSON document on stdout (for jq and pipelines)."""
    import json

    click.echo(json.dumps(found, default=str, indent=None))


def _options(*decorators: Callable[[Any], Any]) -> Callable[[F], F]:
    """Several click decorators as one, given in the order ``--help`` lists them."""

    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


class PathArg(click.Path):
    """click's path parameter giving a :class:`pathlib.Path` (pathlib loads when a command
    gets one, not when ``anonsql`` starts)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        import pathlib

        return pathlib.Path(os.fsdecode(super().convert(value, param, ctx)))


#: SPEC, or --database and --engine: how a command other than ``run`` opens the database.
spec_or_database = _options(
    click.argument("spec", required=False, type=PathArg(dir_okay=False)),
    click.option(
        "--database",
        envvar="ANONSQL_DATABASE",
        help="Database path (DuckDB) or connection string when no SPEC is given.",
    ),
    click.option(
        "--engine",
        "engine_name",
        envvar="ANONSQL_ENGINE",
        default="duckdb",
        show_default=True,
        help="The engine of --database (duckdb, postgres, spark).",
    ),
)
#: ... and --output: the release a command reads.
release_options = _options(
    spec_or_database,
    click.option("--output", "output", help="The published relation (schema.name)."),
)


class SampleName(click.Choice[str]):
    """The names of the shipped samples, read from :mod:`anonsql.samples` (which loads numpy
    and pyarrow) when ``anonsql sample`` parses or shows its argument, not when ``anonsql``
    starts."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from anonsql.samples import SAMPLES

        return SAMPLES

    @choices.setter
    def choices(self, value: Any) -> None:
        del value


def json_option(envvar: str, help: str) -> Callable[[F], F]:
    """``--json``: the command's result as JSON (``envvar``: click's automatic name would be
    ``..._AS_JSON``)."""
    return click.option("--json", "as_json", is_flag=True, envvar=envvar, help=help)


def handle_errors(func: F) -> F:
    """Report a command's error as one line and its exit code; a signal (SIGINT, SIGTERM) as
    exit 130 with a message saying whether a release was published (:mod:`anonsql.interrupts`).
    Once the outcome is known, later signals are ignored so that it is reported whole. With
    ``--json`` the error is also a JSON document on stdout (:func:`error_json`), so that a
    pipeline reading it gets one."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from anonsql.interrupts import handled

        as_json = bool(kwargs.get("as_json"))
        with handled() as interrupts:
            try:
                found = func(*args, **kwargs)
            except KeyboardInterrupt:
                interrupts.settled = True
                report_error(interrupts.interrupted(), as_json)
            except AnonsqlError as exc:
                interrupts.settled = True
                report_error(exc, as_json)
            except click.exceptions.Exit:
                interrupts.settled = True
                raise
            except Exception as exc:  # a bug: say so, without a traceback or the exception's text
                interrupts.settled = True
                if os.environ.get("ANONSQL_DEBUG"):
                    raise
                message = (
                    f"{type(exc).__name__} (a bug in anonsql; nothing was published). Run with "
                    "ANONSQL_DEBUG=1 for the traceback"
                )
                if as_json:
                    emit_json(error_json("InternalError", f"internal error: {message}", None, 1))
                err().print(f"[bold red]internal error:[/bold red] {message}", highlight=False)
                sys.exit(1)
            interrupts.settled = True
            return found

    return wrapper  # type: ignore[return-value]


def error_json(kind: str, message: str, key: str | None, exit_code: int) -> dict[str, Any]:
    """What ``--json`` prints on stdout for an error: ``{"error": {"type", "message", "key"},
    "exit_code"}`` (``key``: the spec key or option at fault, for a SpecError)."""
    return {"error": {"type": kind, "message": message, "key": key}, "exit_code": exit_code}


def report_error(exc: AnonsqlError, as_json: bool = False) -> NoReturn:
    from rich.markup import escape

    if as_json:
        key = getattr(exc, "key", None)
        emit_json(error_json(type(exc).__name__, str(exc), key, exc.exit_code))
    err().print(
        f"[bold red]error:[/bold red] {escape(str(exc))}",
        highlight=False,
        markup=True,
        soft_wrap=True,
    )
    sys.exit(exc.exit_code)


class Commands(click.Group):
    """The command group; run as the process's own command line (no ``args`` given: not
    click's test runner), it handles signals from the moment a command is invoked until the
    process exits (``--version`` and ``--help`` end before: they load no signal handling)."""

    _own_process = False

    def main(self, args: Any = None, *rest: Any, **options: Any) -> Any:
        if args is not None:
            return super().main(args, *rest, **options)
        self._own_process = True
        try:
            return super().main(args, *rest, **options)
        finally:
            interrupts = sys.modules.get("anonsql.interrupts")
            if interrupts is not None:
                interrupts.ignore_signals()

    def invoke(self, ctx: click.Context) -> Any:
        if self._own_process:
            from anonsql.interrupts import handle_for_process

            handle_for_process()
        return super().invoke(ctx)


@click.group(cls=Commands, context_settings={"auto_envvar_prefix": "ANONSQL"})
@click.version_option(version=__version__, package_name="anonsql")
@click.option(
    "-v",
    "--verbose",
    count=True,
    help="Show the SQL anonsql runs on stderr (string and numeric literals redacted); same as "
    "--log-level debug.",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False),
    default="warning",
    show_default=True,
    help="Log level on stderr; debug shows every statement with its values redacted.",
)
def main(verbose: int, log_level: str) -> None:
    """Anonymize warehouse tables where they live.

    Every option can also be set by an environment variable: ANONSQL_<OPTION> for the options
    before the command (ANONSQL_LOG_LEVEL=debug), ANONSQL_<COMMAND>_<OPTION> for a command's
    (ANONSQL_RUN_QUIET=1, ANONSQL_STATUS_JSON=1); --database and --engine also read
    ANONSQL_DATABASE and ANONSQL_ENGINE.
    """
    from anonsql.cli_logging import configure_logging

    configure_logging("debug" if verbose else log_level, err)


@main.group("dbt")
def dbt_group() -> None:
    """dbt projects with anonsql models (needs anonsql[dbt]); see docs/dbt.md."""


@dbt_group.command("build", context_settings={"ignore_unknown_options": True})
@click.argument("dbt_args", nargs=-1, type=click.UNPROCESSED)
@handle_errors
def dbt_build(dbt_args: tuple[str, ...]) -> None:
    """Publish the release of every anonsql model DBT_ARGS select, then `dbt build DBT_ARGS`:
    one command, the same on dbt-duckdb and dbt-postgres. Exits with dbt's code."""
    from anonsql.dbt.build import build

    code = build(
        dbt_args, echo=lambda line: err().print(line, highlight=False, markup=False, soft_wrap=True)
    )
    sys.exit(code)


@main.command()
@click.argument("spec", type=PathArg(dir_okay=False))
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option(
    "--dbt-project",
    type=PathArg(file_okay=False),
    help="A dbt project: the connection comes from its profile, and the spec's source may be "
    "source('s', 't') or ref('m') (needs anonsql[dbt]).",
)
@click.option("--target", help="The dbt target (default: the profile's).")
@click.option(
    "--profiles-dir",
    type=PathArg(file_okay=False),
    help="Where profiles.yml is (default: as dbt looks for it).",
)
@json_option("ANONSQL_RUN_JSON", "Print the result as JSON on stdout.")
@click.option(
    "--dry-run",
    is_flag=True,
    help="Validate the spec against the database and print the plan and the SQL that "
    "validation ran (the run's first statements); write nothing.",
)
@click.option(
    "--report",
    "report_path",
    envvar="ANONSQL_RUN_REPORT",
    type=PathArg(dir_okay=False),
    help="Also write the release's HTML report to this file.",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Drop the release's history and publish version 1 again (an analyst who kept the "
    "previous release can compare it with the new one; the certificate records it).",
)
@handle_errors
def run(
    spec: Path,
    quiet: bool,
    dbt_project: Path | None,
    target: str | None,
    profiles_dir: Path | None,
    as_json: bool,
    dry_run: bool,
    report_path: Path | None,
    replace: bool,
) -> None:
    """Anonymize and publish as declared in SPEC (a YAML file)."""
    from anonsql import api

    if dbt_project is None and (target is not None or profiles_dir is not None):
        raise SpecError("--target", "needs --dbt-project", "give the dbt project with it")
    if dry_run:
        if dbt_project is not None:
            raise SpecError("--dry-run", "not available with --dbt-project", "leave one out")
        found = api.plan(spec)
        if as_json:
            emit_json(found.summary())
        else:
            print_plan(found)
        return
    with progress_bar(quiet) as progress:
        if dbt_project is not None:
            from anonsql.dbt import run_in_project

            result = run_in_project(
                spec, dbt_project, target=target, profiles_dir=profiles_dir, progress=progress
            )
        else:
            result = api.run(spec, progress=progress, replace=replace)
        if report_path is not None:
            if dbt_project is not None:
                raise SpecError(
                    "--report", "not available with --dbt-project", "run `anonsql report`"
                )
            progress("writing the report")
            with api.open_engine(api.as_spec(spec)) as engine:
                api.write_report(engine, result.names.main, report_path)
    if as_json:
        emit_json({**result.summary_json(), "report": str(report_path) if report_path else None})
    else:
        print_result(result)
        if report_path is not None:
            out().print(f"report: {report_path}")


def parse_model(text: str) -> dict[str, Any]:
    """``name:key=value,key=value`` -> ``{name: {key: value}}`` (values parsed as YAML scalars)."""
    name, _, rest = text.partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise SpecError(
                f"--model {text}", f"{item!r} is not key=value", "write e.g. k_anonymity:k=10"
            )
        try:
            import yaml

            params[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise SpecError(
                f"--model {name.strip()}",
                f"the value of {key.strip()!r} is not valid YAML",
                "write a plain number or word, e.g. k_anonymity:k=10",
            ) from None
    return {name.strip(): params}


@main.command()
@spec_or_database
@click.option("--relation", help="schema.table or view to check.")
@click.option("--qid", "qids", multiple=True, help="A quasi-identifier column (repeat).")
@click.option(
    "--model",
    "models",
    multiple=True,
    help="A privacy model, e.g. k_anonymity:k=10 or distinct_l_diversity:column=occupation,l=3.",
)
@click.option(
    "--person",
    help="The column linking the rows of one person (1:M data); person-level models count "
    "persons and build each person's SA fingerprint from their rows.",
)
@json_option("ANONSQL_CHECK_JSON", "Print the result as JSON on stdout.")
@handle_errors
def check(
    spec: Path | None,
    database: str | None,
    engine_name: str,
    relation: str | None,
    qids: tuple[str, ...],
    models: tuple[str, ...],
    person: str | None,
    as_json: bool,
) -> None:
    """Check a relation against privacy models; exit 4 if any class violates one.

    With SPEC, re-checks the output SPEC published, against the models in its certificate.
    Otherwise give --database, --relation, --qid (repeat) and --model (repeat), and --person
    for data with several rows per person.
    """
    from anonsql import api
    from anonsql.sql import TableName

    if spec is not None:
        s = api.as_spec(spec)
        engine = api.open_engine(s)
        with engine:
            result = api.check_output(engine, TableName(s.output.name, s.output.schema_))
    else:
        if not (database and relation and qids and models):
            raise SpecError(
                "check",
                "missing arguments",
                "give SPEC, or --database, --relation, --qid and --model",
            )
        with api.connect_database(engine_name, database, must_exist=True) as engine:
            result = api.check(
                engine, relation, list(qids), [parse_model(m) for m in models], person=person
            )
    if as_json:
        emit_json(
            {
                "relation": str(result.relation),
                "holds": result.holds,
                "violations": dict(result.violations),
                "counted": result.counted,
            }
        )
    else:
        print_check(result)
    if not result.holds:
        sys.exit(4)


@main.command()
@release_options
@click.option(
    "--query-accuracy",
    is_flag=True,
    help="Measure OLAP query accuracy instead: mean KL divergence of a seeded count-query "
    "workload, per query dimensionality (on demand; not recorded by runs).",
)
@click.option(
    "--identity-reserved",
    is_flag=True,
    help="Measure a danonyir/geneir release as Wang et al. (KAIS 2019) do: NLoss, relative "
    "error of a seeded count-query workload, vulnerable-class share (on demand).",
)
@click.option("--seed", default=0, show_default=True, type=int, help="Workload seed.")
@click.option("--sa-column", help="Sensitive column of the queries (default: the certificate's).")
@click.option("--max-dimensions", default=4, show_default=True, type=click.IntRange(min=1))
@click.option("--bins", default=10, show_default=True, type=click.IntRange(min=1))
@json_option("ANONSQL_METRICS_JSON", "Print the metrics as JSON on stdout.")
@handle_errors
def metrics(
    spec: Path | None,
    database: str | None,
    engine_name: str,
    output: str | None,
    query_accuracy: bool,
    identity_reserved: bool,
    seed: int,
    sa_column: str | None,
    max_dimensions: int,
    bins: int,
    as_json: bool,
) -> None:
    """Recompute the utility metrics of a published output."""
    from anonsql import api
    from anonsql.report.report import metric_json

    with contextlib.ExitStack() as stack:
        engine, relation = open_release(stack, "metrics", spec, database, engine_name, output)
        if identity_reserved:
            measured = api.identity_reserved_metrics(engine, relation, seed=seed)
            if as_json:
                emit_json(dict(measured.rows()))
                return
            table = _table(f"identity-reserved measures of {relation}")
            table.add_column("metric")
            table.add_column("value", justify="right")
            for name, value in measured.rows():
                table.add_row(name, f"{value:.4f}" if isinstance(value, float) else str(value))
            out().print(table)
        elif query_accuracy:
            accuracy = api.query_accuracy(
                engine,
                relation,
                seed=seed,
                sa_column=sa_column,
                max_dimensions=max_dimensions,
                bins=bins,
            )
            if as_json:
                emit_json(accuracy.summary())
            else:
                print_query_accuracy(accuracy)
        else:
            values = api.recompute_metrics(engine, relation)
            if as_json:
                emit_json([metric_json(m) for m in values])
            else:
                print_metrics(values)


@main.command()
@click.option("--database", required=True, help="Database path (DuckDB) or DSN (postgres).")
@click.option("--engine", "engine_name", default="duckdb", show_default=True)
@click.option("--relation", required=True, help="schema.table or view to measure.")
@click.option("--qid", "qids", multiple=True, required=True, help="A quasi-identifier (repeat).")
@click.option("--population", help="schema.table of the population (journalist, marketer risk).")
@click.option("--population-count", help="The population table's column counting persons.")
@click.option("--population-size", type=click.IntRange(min=1), help="Persons in the population.")
@click.option("--region", help="One of ARX's regions as the population (default: USA).")
@click.option("--weight", help="A column of sampling weights (sdcMicro's individual risk).")
@click.option(
    "--threshold",
    default=0.2,
    show_default=True,
    type=click.FloatRange(0.0, 1.0),
    help="A record is at risk above this re-identification probability.",
)
@json_option("ANONSQL_RISK_JSON", "Print the figures as JSON on stdout.")
@handle_errors
def risk(
    database: str,
    engine_name: str,
    relation: str,
    qids: tuple[str, ...],
    population: str | None,
    population_count: str | None,
    population_size: int | None,
    region: str | None,
    weight: str | None,
    threshold: float,
    as_json: bool,
) -> None:
    """Measure the re-identification risk of any table or view, given its QIDs."""
    from anonsql import api

    with api.connect_database(engine_name, database, must_exist=True) as engine:
        report = api.risk(
            engine,
            relation,
            list(qids),
            population=population,
            population_count=population_count,
            population_size=population_size,
            region=region,
            weight=weight,
            threshold=threshold,
        )
    if as_json:
        emit_json(
            {
                "relation": relation,
                "threshold": report.threshold,
                "journalist_source": report.journalist_source,
                "figures": report.figures(),
            }
        )
    else:
        print_risk(relation, report)


@main.command()
@release_options
@json_option("ANONSQL_ATTACK_JSON", "Print the attack results as JSON.")
@handle_errors
def attack(
    spec: Path | None,
    database: str | None,
    engine_name: str,
    output: str | None,
    as_json: bool,
) -> None:
    """Mount the attacks an analyst can on a published release: singling out, linkability,
    attribute inference and linkage, each with its success, baseline and the bound the
    certified models promise; exit 4 if one beats its bound."""
    from anonsql import api

    with contextlib.ExitStack() as stack:
        engine, relation = open_release(stack, "attack", spec, database, engine_name, output)
        results = api.attack(engine, relation)
    if as_json:
        emit_json([r.as_dict() for r in results])
    else:
        table = _table(f"attacks on {relation}")
        table.add_column("attack")
        table.add_column("adversary")
        table.add_column("result")
        for r in results:
            on = f" on {r.attribute}" if r.attribute else ""
            table.add_row(f"{r.attack}{on}", r.adversary, r.describe())
        out().print(table)
    if any(r.breaks for r in results):
        sys.exit(4)


@main.command()
@release_options
@click.option(
    "--max-hidden",
    type=click.FloatRange(0.0, 1.0),
    default=None,
    help="Accept a stale release while the share of source rows it hides (withheld by its "
    "guard or not covered) is at most this fraction.",
)
@json_option("ANONSQL_STATUS_JSON", "Print the status as JSON.")
@handle_errors
def status(
    spec: Path | None,
    database: str | None,
    engine_name: str,
    output: str | None,
    max_hidden: float | None,
    as_json: bool,
) -> None:
    """Compare a published release with its source now; exit 6 if it is stale or exposed.

    Reports the rows certified, in the source now, released, shown to analysts, withheld by the
    live view's guard (classes that now violate a certified model), not covered (new
    quasi-identifier vectors, persons or items) and whether the source changed since the
    release was certified, and whether the columns published unchanged now give a
    quasi-identifier away or refine classes below the models (exposed: a pass-through changed
    in the source). With --max-hidden F a stale release passes while at most F of the source
    rows are hidden; an exposed one never does.
    """
    from anonsql import api

    with contextlib.ExitStack() as stack:
        engine, relation = open_release(stack, "status", spec, database, engine_name, output)
        found = api.status(engine, relation)
    if as_json:
        emit_json(found.summary())
    else:
        print_status(found)
    if found.exposed or (found.stale and (max_hidden is None or found.hidden_share > max_hidden)):
        sys.exit(6)


@main.command()
@release_options
@click.option(
    "--out",
    "-o",
    "path",
    type=PathArg(dir_okay=False),
    help="The HTML file to write (default: <output name>.html here).",
)
@handle_errors
def report(
    spec: Path | None,
    database: str | None,
    engine_name: str,
    output: str | None,
    path: Path | None,
) -> None:
    """Write the HTML report of a published release: one self-contained file (charts as
    inline SVG, no network, no JavaScript). It shows the source's most frequent quasi-identifier
    values: keep it where the source may be read."""
    import pathlib

    from anonsql import api
    from anonsql.spec.relations import parse_relation
    from anonsql.sql import TableName

    with contextlib.ExitStack() as stack:
        engine, relation = open_release(stack, "report", spec, database, engine_name, output)
        name = relation if isinstance(relation, TableName) else parse_relation(relation, "--output")
        written = api.write_report(engine, name, path or pathlib.Path(f"{name.name}.html"))
    out().print(f"wrote {written}")


@main.command()
@release_options
@click.option(
    "--to",
    "to",
    required=True,
    type=PathArg(),
    help="The new DuckDB file, or Parquet folder, to write the release to.",
)
@click.option(
    "--format",
    "export_format",
    type=click.Choice(["duckdb", "parquet"]),
    default="duckdb",
    show_default=True,
    help="A DuckDB file (the relations under their names) or a folder of Parquet files.",
)
@click.option("--replace", is_flag=True, help="Replace --to if it exists.")
@json_option("ANONSQL_EXPORT_JSON", "Print what was written as JSON.")
@handle_errors
def export(
    spec: Path | None,
    database: str | None,
    engine_name: str,
    output: str | None,
    to: Path,
    export_format: str,
    replace: bool,
    as_json: bool,
) -> None:
    """Write a published release, alone, to a new DuckDB file or Parquet folder: the relation
    analysts read (as a table), its classes, certificate and metrics, and its layout's public
    companions; never the source or the private schema. The way to hand a DuckDB release to
    analysts: the database file also holds the source."""
    from anonsql import api

    with contextlib.ExitStack() as stack:
        engine, relation = open_release(stack, "export", spec, database, engine_name, output)
        found = api.export(engine, relation, to, format=export_format, replace=replace)
    if as_json:
        emit_json(found.summary())
        return
    table = _table(f"exported {found.output} to {found.path}")
    table.add_column("relation")
    table.add_column("rows", justify="right")
    for written in found.relations:
        table.add_row(written.written_as, str(written.rows))
    out().print(table)


@main.command()
@spec_or_database
@handle_errors
def cleanup(spec: Path | None, database: str | None, engine_name: str) -> None:
    """Drop working schemas left behind by killed runs (runs still running are left alone)."""
    from anonsql import api

    if spec is not None:
        engine = api.open_engine(api.as_spec(spec))
    elif database:
        engine = api.connect_database(engine_name, database, must_exist=True)
    else:
        raise SpecError("cleanup", "missing arguments", "give SPEC, or --database")
    with engine:
        removed = api.cleanup(engine)
    out().print(f"removed {len(removed)} working schemas of runs that no longer run")


@main.command()
@click.option(
    "--database",
    envvar="ANONSQL_DATABASE",
    required=True,
    help="The database holding the table (DuckDB file, or a libpq string with --engine postgres).",
)
@click.option(
    "--engine", "engine_name", envvar="ANONSQL_ENGINE", default="duckdb", show_default=True
)
@click.option("--table", required=True, help="The table to anonymize (schema.table).")
@click.option(
    "--out",
    "-o",
    "path",
    type=PathArg(dir_okay=False),
    help="Write the spec to this file (default: print it on stdout).",
)
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
@click.option(
    "--no-check",
    is_flag=True,
    help="Do not run the proposed spec (into scratch schemas) to check that it passes.",
)
@json_option("ANONSQL_INIT_JSON", "Print the profile as JSON instead.")
@handle_errors
def init(
    database: str,
    engine_name: str,
    table: str,
    path: Path | None,
    force: bool,
    no_check: bool,
    as_json: bool,
) -> None:
    """Profile a table and write a spec for it: roles from the columns' values, names and
    exposure (a column that would expose rows becomes a quasi-identifier or is left out),
    hierarchies chosen from the data, a model for each sensitive column, the person column;
    then run the spec into scratch schemas (dropped) and say whether it passes."""
    import pathlib

    from anonsql import api

    if path is not None and path.exists() and not force:
        raise SpecError("--out", f"{path} exists", "give another file, or --force to overwrite")
    with api.connect_database(engine_name, database, must_exist=True) as engine:
        written_db = database
        if engine.database_is_path and path is not None:
            written_db = os.path.relpath(pathlib.Path(database).resolve(), path.resolve().parent)
        found = api.init(
            engine, table, engine_name=engine_name, database=written_db, check=not no_check
        )
    if as_json:
        emit_json(found.summary())
    elif path is None:
        click.echo(found.yaml, nl=False)
    else:
        path.write_text(found.yaml, encoding="utf-8")
        qids = [s.column for s in found.suggestions if s.role == "quasi_identifier"]
        out().print(
            f"wrote {path}: {len(found.suggestions)} columns, quasi-identifiers: "
            f"{', '.join(qids) or 'none'}.",
            highlight=False,
        )
    if not as_json:
        verdict = found.verdict
        said = "not checked (--no-check)" if verdict is None else verdict.text
        click.echo(f"init: {said}", err=path is None)


@main.command()
@click.option(
    "--database",
    default=":memory:",
    show_default=True,
    help="DuckDB file to create the demo in (kept for you to query).",
)
@click.option("--k", default=10, show_default=True, type=click.IntRange(min=1))
@handle_errors
def demo(database: str, k: int) -> None:
    """Anonymize the shipped Adult sample in embedded DuckDB and show the result."""
    from anonsql import api
    from anonsql.demo import ADULT_QIDS, adult_spec
    from anonsql.samples import load_adult

    with api.connect_database("duckdb", database) as engine:
        with progress_bar() as progress:
            progress("loading the Adult sample")
            rows = load_adult(engine)
            progress(f"loaded the Adult sample: {rows} rows into main.adult")
            result = api.run(adult_spec(database, k=k), engine=engine, progress=progress)
        print_result(result)
        show_sample(engine, result, [*ADULT_QIDS, "class"])
        if database != ":memory:":
            query = "SELECT age, sex, count(*) AS people FROM anon.adult GROUP BY ALL"
            out().print(
                f'\nQuery it: python -c "import duckdb; '
                f"duckdb.connect('{database}').sql('{query}').show()\""
            )


@main.command()
@click.argument("name", type=SampleName())
@click.option("--database", required=True, help="DuckDB file to load the sample into.")
@click.option(
    "--table",
    default=None,
    help="Target table of a one-table sample (default: <schema>.<name with _>).",
)
@click.option(
    "--schema",
    default="main",
    show_default=True,
    help="Schema the sample's tables go into (informs: informs_demographics, informs_conditions).",
)
@handle_errors
def sample(name: str, database: str, table: str | None, schema: str) -> None:
    """Load a data sample shipped with anonsql into a DuckDB database."""
    from anonsql import api
    from anonsql.samples import MULTI_TABLE_SAMPLES, load_sample, load_sample_tables
    from anonsql.spec.relations import parse_relation
    from anonsql.sql import TableName

    if name in MULTI_TABLE_SAMPLES:
        if table is not None:
            raise SpecError(
                "--table",
                f"the {name!r} sample loads several tables",
                "leave out --table; choose where they go with --schema",
            )
        with api.connect_database("duckdb", database) as engine:
            counts = load_sample_tables(engine, name, schema)
        for loaded, rows in counts.items():
            out().print(f"loaded {rows} rows into {TableName(loaded, schema)} in {database}")
        return
    target = (
        parse_relation(table, "--table") if table else TableName(name.replace("-", "_"), schema)
    )
    with api.connect_database("duckdb", database) as engine:
        rows = load_sample(engine, name, target)
    out().print(f"loaded {rows} rows into {target} in {database}")


def open_release(
    stack: contextlib.ExitStack,
    command: str,
    spec: Path | None,
    database: str | None,
    engine_name: str,
    output: str | None,
) -> tuple[Engine, str | TableName]:
    """The engine and relation of a published release: SPEC's output, or --database and
    --output (a database file must exist: nothing is created)."""
    from anonsql import api
    from anonsql.sql import TableName

    if spec is not None:
        s = api.as_spec(spec)
        engine = stack.enter_context(api.open_engine(s))
        return engine, TableName(s.output.name, s.output.schema_)
    if not (database and output):
        raise SpecError(command, "missing arguments", "give SPEC, or --database and --output")
    engine = stack.enter_context(api.connect_database(engine_name, database, must_exist=True))
    return engine, output


def print_plan(found: Plan) -> None:
    table = _table("anonsql run --dry-run: nothing was written", show_header=False)
    rows = [
        ("source", f"{found.source} ({found.rows} rows)"),
        ("models", ", ".join(found.models)),
        ("algorithm", found.algorithm),
        *((f"QID {c}", how) for c, how in found.quasi_identifiers),
        ("published unchanged", ", ".join(found.published_unchanged) or "-"),
        ("dropped", ", ".join(found.dropped) or "-"),
        ("would publish", ", ".join(found.publishes)),
        ("private companions", ", ".join(found.private)),
        ("swap", found.swap),
    ]
    for label, value in rows:
        table.add_row(label, value)
    out().print(table)
    out().print(f"\n-- the {len(found.statements)} statements validation ran (values redacted):")
    for statement in found.statements:
        out().print(statement + ";", highlight=False, markup=False, soft_wrap=True)


def print_status(found: ReleaseStatus) -> None:
    table = _table(f"status of {found.output}", show_header=False)
    stale = (
        "YES: the source changed since it was certified"
        if found.version is None
        else "YES: the version does not show every change of the source (below)"
    )
    rows = [
        ("stale", stale if found.stale else "no"),
        ("materialized as", found.materialize),
        ("source rows (certified / now)", f"{found.certified_source_rows} / {found.source_rows}"),
        ("published rows (certified / now)", f"{found.certified_rows} / {found.published_rows}"),
    ]
    if found.version is not None:
        rows += [
            ("version", str(found.version)),
            ("new source rows, not yet certified", str(found.new_rows)),
            ("held back (no class of their own yet)", str(found.held_rows)),
            ("deleted, served until their batch is complete", str(found.pending_deletions)),
        ]
    else:
        rows += [
            ("withheld by the guard", str(found.withheld_rows)),
            ("not covered by the release", str(found.uncovered_rows)),
            ("in suppressed classes", str(found.suppressed_rows)),
        ]
    rows += [
        (
            "exposed by published columns",
            f"YES: {found.recovered_rows} rows give a quasi-identifier away, "
            f"{found.refined_violations} violations on refined classes"
            if found.exposed
            else "no",
        ),
    ]
    for label, value in rows:
        table.add_row(label, value)
    out().print(table)


def print_result(result: RunResult) -> None:
    table = _table(f"anonsql published {result.certificate['output']}", show_header=False)
    for label, value in result.summary():
        table.add_row(label, value)
    out().print(table)


def show_sample(engine: Engine, result: RunResult, columns: list[str]) -> None:
    sample = engine.query_arrow("demo/sample", relation=result.names.main, columns=columns, limit=5)
    table = _table("first rows of the anonymized view (quasi-identifiers and class)")
    for name in sample.column_names:
        table.add_column(name)
    for row in sample.to_pylist():
        table.add_row(*(str(v) for v in row.values()))
    out().print(table)


def print_check(result: CheckResult) -> None:
    table = _table(f"privacy check of {result.relation}")
    table.add_column("model")
    table.add_column("violations", justify="right")
    for model, count in result.violations.items():
        table.add_row(model, str(count))
    out().print(table)
    if result.counted:
        out().print(f"counted: {result.counted}", highlight=False)
    out().print("holds" if result.holds else "VIOLATED")


def print_metrics(values: list[MetricValue]) -> None:
    table = _table("metrics")
    table.add_column("metric")
    table.add_column("attribute")
    table.add_column("value", justify="right")
    for m in values:
        table.add_row(m.name, m.attribute or "", f"{m.value:.4f}")
    out().print(table)


def print_risk(relation: str, report: RiskReport) -> None:
    table = _table(f"re-identification risk of {relation}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for name, value in report.figures().items():
        table.add_row(name, f"{value:.6g}")
    out().print(table)
    source = "the population table" if report.journalist_source == "population" else "the sample"
    out().print(
        f"journalist risk from {source}; records at risk: individual risk above "
        f"{report.threshold:g}",
        highlight=False,
    )


def print_query_accuracy(result: QueryAccuracy) -> None:
    w = result.workload
    table = _table(f"query accuracy of {result.output}")
    table.add_column("dimensions")
    table.add_column("queries", justify="right")
    table.add_column("mean KL(actual || estimate)", justify="right")
    for i, value in result.mean_by_dimension.items():
        table.add_row(str(i), str(len(w.combinations[i]) * len(w.sa_values)), f"{value:.4f}")
    table.add_row("all", str(len(result.queries)), f"{result.mean:.4f}")
    out().print(table)
    out().print(
        f"workload: seed {w.seed}, {len(w.sa_values)} values of {w.sa_column!r}, "
        f"{w.bins} bins per numeric attribute; {result.statements} statements, "
        f"{result.seconds:.2f} s",
        highlight=False,
    )
