"""Spark's own way in and out: anonymize a DataFrame (or a catalog table) and get the release
back as a DataFrame, with its certificate and the verification that gated it.

The release is the one ``anonsql.run`` publishes with ``engine: spark`` (the same statements,
the same verification gate, the same certificate): a DataFrame in is first written once as a
managed table (``anonsql_inputs.<output name>``), because Spark forbids published views over
temporary views and because the run reads its source many times, which must all see the same
rows (a DataFrame is re-evaluated on every read: a non-deterministic one would give every
statement other rows). The caller's session is used and never stopped; anonsql's statements run
in a new session of the same application (``newSession()``), so the caller's settings and
temporary views are left as they were.

    release = anonsql.spark.anonymize(df, spec)
    release.dataframe.groupBy("age").count().show()
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonsql import api
from anonsql.errors import SpecError
from anonsql.privacy.check import CheckResult
from anonsql.report import RunResult
from anonsql.spec import Spec, load_spec
from anonsql.sql import TableName

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from anonsql.engines.spark.engine import SparkEngine

#: The schema a DataFrame given to :func:`anonymize` is written to before the run reads it.
INPUTS_SCHEMA = "anonsql_inputs"


@dataclass(frozen=True)
class SparkRelease:
    """A published release, as Spark reads it: ``dataframe`` is the analysts' relation (the
    published view, read in the caller's session), ``certificate`` its ``__certificate`` row,
    ``check`` the verification gate's result (it holds, or nothing was published), ``result``
    everything ``anonsql.run`` returns (names, metrics, search figures)."""

    dataframe: DataFrame
    certificate: Mapping[str, Any]
    check: CheckResult
    result: RunResult


def anonymize(
    data: DataFrame | str,
    spec: Spec | Mapping[str, Any] | str | Path,
    *,
    session: SparkSession | None = None,
    replace: bool = False,
) -> SparkRelease:
    """Anonymize a DataFrame, or the catalog table named ``data`` (``schema.table`` or
    ``catalog.schema.table``), with ``spec`` (its ``source`` is the data given here and may be
    left out), publish the release in the session's catalog as ``anonsql.run`` does, and return
    it as a DataFrame. ``session`` defaults to the DataFrame's, else the active one; anonsql
    never stops it. ``replace``: publish over a release of data that changed since (refused
    otherwise: an analyst who kept it could compare the two).
    """
    from anonsql.engines.spark.engine import SparkEngine, derived_session

    caller = _session_of(data, session)
    given = _with_source(spec, "-")  # validated once before anything is written
    with SparkEngine(session=derived_session(caller, given.engine_settings)) as engine:
        source = _source(engine, data, caller, given.output.name)
        result = api.run(_with_source(given, str(source)), engine=engine, replace=replace)
        published = engine.qualified(result.names.main)
    return SparkRelease(
        dataframe=caller.table(published),
        certificate=result.certificate,
        check=result.check,
        result=result,
    )


def _with_source(spec: Spec | Mapping[str, Any] | str | Path, source: str) -> Spec:
    """The spec, reading ``source`` on Spark (a mapping may leave ``source`` out)."""
    if isinstance(spec, Mapping):
        return api.as_spec({"source": source, **spec, "engine": "spark"}).model_copy(
            update={"source": source}
        )
    if isinstance(spec, Spec):
        return spec.model_copy(update={"source": source, "engine": "spark"})
    loaded = load_spec(spec, defaults={"source": source})
    return loaded.model_copy(update={"source": source, "engine": "spark"})


def _session_of(data: DataFrame | str, session: SparkSession | None) -> SparkSession:
    if session is not None:
        return session
    if not isinstance(data, str):
        found: SparkSession = data.sparkSession
        return found
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is None:
        raise SpecError(
            "session",
            "no Spark session is running in this process",
            "pass session=... (or a DataFrame), or use anonsql.run with engine: spark",
        )
    return active


def _source(
    engine: SparkEngine, data: DataFrame | str, session: SparkSession, name: str
) -> TableName:
    """The table the run reads: a two-part name as it is; a DataFrame, or a three-part name
    (another catalog), written once to ``anonsql_inputs``."""
    if isinstance(data, str):
        try:
            return TableName.parse(data)
        except ValueError:
            pass  # a catalog.schema.table name: read through Spark, written below
        try:
            frame: DataFrame = session.table(data)
        except Exception as err:  # Spark's AnalysisException: no such table
            raise SpecError(
                "source",
                f"Spark cannot read the table {data}: {type(err).__name__}",
                "name an existing table as schema.table or catalog.schema.table",
            ) from None
    else:
        frame = data
    target = TableName(name, INPUTS_SCHEMA)
    engine.ensure_schema(INPUTS_SCHEMA)
    frame.write.mode("overwrite").saveAsTable(engine.qualified(target))
    return target


__all__ = ["INPUTS_SCHEMA", "SparkRelease", "anonymize"]
