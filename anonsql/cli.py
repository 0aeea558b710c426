"""The ``anonsql`` command line: a thin shell over :mod:`anonsql.api`.

Exit codes: 0 success; 1 other anonsql error; 2 bad spec or arguments; 3 infeasible privacy
models; 4 verification failed (run) or violations found (check); 5 the database refused a
statement; 130 interrupted (nothing published).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click
import yaml
from rich.console import Console
from rich.table import Table

from anonsql import api
from anonsql.demo import ADULT_QIDS, adult_spec
from anonsql.engines import DuckDBEngine, Engine, connect
from anonsql.errors import AnonsqlError, SpecError
from anonsql.metrics import MetricValue
from anonsql.metrics.olap import QueryAccuracy
from anonsql.privacy.check import CheckResult
from anonsql.report import RunResult
from anonsql.samples import (
    MULTI_TABLE_SAMPLES,
    SAMPLES,
    load_adult,
    load_sample,
    load_sample_tables,
)
from anonsql.sql import TableName

out = Console()
err = Console(stderr=True)
F = TypeVar("F", bound=Callable[..., Any])


def _progress(message: str) -> None:
    err.print(f"[dim]anonsql:[/dim] {message}", highlight=False)


def handle_errors(func: F) -> F:
    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except AnonsqlError as exc:
            err.print(
                f"[bold red]error:[/bold red] {exc}", highlight=False, markup=True, soft_wrap=True
            )
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            err.print("interrupted; nothing was published")
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


@click.group()
@click.version_option(package_name="anonsql")
def main() -> None:
    """Anonymize warehouse tables where they live."""


@main.command()
@click.argument("spec", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@handle_errors
def run(spec: Path, quiet: bool) -> None:
    """Anonymize and publish as declared in SPEC (a YAML file)."""
    result = api.run(spec, progress=None if quiet else _progress)
    print_result(result)


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
        params[key.strip()] = yaml.safe_load(value)
    return {name.strip(): params}


@main.command()
@click.argument("spec", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--database", help="Database path (DuckDB) when no SPEC is given.")
@click.option("--engine", "engine_name", default="duckdb", show_default=True)
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
@handle_errors
def check(
    spec: Path | None,
    database: str | None,
    engine_name: str,
    relation: str | None,
    qids: tuple[str, ...],
    models: tuple[str, ...],
    person: str | None,
) -> None:
    """Check a relation against privacy models; exit 4 if any class violates one.

    With SPEC, re-checks the output SPEC published, against the models in its certificate.
    Otherwise give --database, --relation, --qid (repeat) and --model (repeat), and --person
    for data with several rows per person.
    """
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
        with connect(engine_name, database=database) as engine:
            result = api.check(
                engine, relation, list(qids), [parse_model(m) for m in models], person=person
            )
    print_check(result)
    if not result.holds:
        sys.exit(4)


@main.command()
@click.argument("spec", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--database", help="Database path (DuckDB) when no SPEC is given.")
@click.option("--engine", "engine_name", default="duckdb", show_default=True)
@click.option("--output", "output", help="The published relation (schema.name).")
@click.option(
    "--query-accuracy",
    is_flag=True,
    help="Measure OLAP query accuracy instead: mean KL divergence of a seeded count-query "
    "workload, per query dimensionality (on demand; not recorded by runs).",
)
@click.option("--seed", default=0, show_default=True, type=int, help="Workload seed.")
@click.option("--sa-column", help="Sensitive column of the queries (default: the certificate's).")
@click.option("--max-dimensions", default=4, show_default=True, type=click.IntRange(min=1))
@click.option("--bins", default=10, show_default=True, type=click.IntRange(min=1))
@handle_errors
def metrics(
    spec: Path | None,
    database: str | None,
    engine_name: str,
    output: str | None,
    query_accuracy: bool,
    seed: int,
    sa_column: str | None,
    max_dimensions: int,
    bins: int,
) -> None:
    """Recompute the utility metrics of a published output."""
    with contextlib.ExitStack() as stack:
        if spec is not None:
            s = api.as_spec(spec)
            engine = stack.enter_context(api.open_engine(s))
            relation: str | TableName = TableName(s.output.name, s.output.schema_)
        else:
            if not (database and output):
                raise SpecError(
                    "metrics", "missing arguments", "give SPEC, or --database and --output"
                )
            engine = stack.enter_context(connect(engine_name, database=database))
            relation = output
        if query_accuracy:
            print_query_accuracy(
                api.query_accuracy(
                    engine,
                    relation,
                    seed=seed,
                    sa_column=sa_column,
                    max_dimensions=max_dimensions,
                    bins=bins,
                )
            )
        else:
            print_metrics(api.metrics(engine, relation))


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
    with DuckDBEngine(database) as engine:
        rows = load_adult(engine)
        _progress(f"loaded the Adult sample: {rows} rows into main.adult")
        result = api.run(adult_spec(database, k=k), engine=engine, progress=_progress)
        print_result(result)
        show_sample(engine, result, [*ADULT_QIDS, "class"])
        if database != ":memory:":
            query = "SELECT age, sex, count(*) AS people FROM anon.adult GROUP BY ALL"
            out.print(
                f'\nQuery it: python -c "import duckdb; '
                f"duckdb.connect('{database}').sql('{query}').show()\""
            )


@main.command()
@click.argument("name", type=click.Choice(list(SAMPLES)))
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
    if name in MULTI_TABLE_SAMPLES:
        if table is not None:
            raise SpecError(
                "--table",
                f"the {name!r} sample loads several tables",
                "leave out --table; choose where they go with --schema",
            )
        with DuckDBEngine(database) as engine:
            counts = load_sample_tables(engine, name, schema)
        for loaded, rows in counts.items():
            out.print(f"loaded {rows} rows into {TableName(loaded, schema)} in {database}")
        return
    target = TableName.parse(table) if table else TableName(name.replace("-", "_"), schema)
    with DuckDBEngine(database) as engine:
        rows = load_sample(engine, name, target)
    out.print(f"loaded {rows} rows into {target} in {database}")


def print_result(result: RunResult) -> None:
    table = Table(title=f"anonsql published {result.certificate['output']}", show_header=False)
    for label, value in result.summary():
        table.add_row(label, value)
    out.print(table)


def show_sample(engine: Engine, result: RunResult, columns: list[str]) -> None:
    sample = engine.query_arrow("demo/sample", relation=result.names.main, columns=columns, limit=5)
    table = Table(title="first rows of the anonymized view (quasi-identifiers and class)")
    for name in sample.column_names:
        table.add_column(name)
    for row in sample.to_pylist():
        table.add_row(*(str(v) for v in row.values()))
    out.print(table)


def print_check(result: CheckResult) -> None:
    table = Table(title=f"privacy check of {result.relation}")
    table.add_column("model")
    table.add_column("violations", justify="right")
    for model, count in result.violations.items():
        table.add_row(model, str(count))
    out.print(table)
    out.print("holds" if result.holds else "VIOLATED")


def print_metrics(values: list[MetricValue]) -> None:
    table = Table(title="metrics")
    table.add_column("metric")
    table.add_column("attribute")
    table.add_column("value", justify="right")
    for m in values:
        table.add_row(m.name, m.attribute or "", f"{m.value:.4f}")
    out.print(table)


def print_query_accuracy(result: QueryAccuracy) -> None:
    w = result.workload
    table = Table(title=f"query accuracy of {result.output}")
    table.add_column("dimensions")
    table.add_column("queries", justify="right")
    table.add_column("mean KL(actual || estimate)", justify="right")
    for i, value in result.mean_by_dimension.items():
        table.add_row(str(i), str(len(w.combinations[i]) * len(w.sa_values)), f"{value:.4f}")
    table.add_row("all", str(len(result.queries)), f"{result.mean:.4f}")
    out.print(table)
    out.print(
        f"workload: seed {w.seed}, {len(w.sa_values)} values of {w.sa_column!r}, "
        f"{w.bins} bins per numeric attribute; {result.statements} statements, "
        f"{result.seconds:.2f} s",
        highlight=False,
    )
