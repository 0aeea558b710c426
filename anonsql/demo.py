"""The demo: Adult (shipped with anonsql) anonymized in an embedded DuckDB database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.csv as pa_csv

from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import SpecError
from anonsql.resources import resource_dir
from anonsql.sql import TableName

ADULT_QIDS = {
    "age": {"role": "quasi_identifier", "type": "numeric"},
    "workclass": {"role": "quasi_identifier", "hierarchy": "adult/workclass.txt"},
    "education_num": {"role": "quasi_identifier", "type": "numeric"},
    "marital_status": {"role": "quasi_identifier", "hierarchy": "adult/marital_status.txt"},
    "occupation": {"role": "quasi_identifier", "hierarchy": "adult/occupation.txt"},
    "race": {"role": "quasi_identifier", "hierarchy": "adult/race.txt"},
    "sex": {"role": "quasi_identifier", "hierarchy": "adult/sex.txt"},
    "native_country": {"role": "quasi_identifier", "hierarchy": "adult/native_country.txt"},
}


SAMPLES = ("adult", "adult-arx")


def sample_csv(name: str) -> Path:
    if name not in SAMPLES:
        raise SpecError("sample", f"no shipped sample named {name!r}", f"use one of {SAMPLES}")
    return resource_dir("datasets") / name / "adult.csv.gz"


def load_sample(engine: Engine, name: str, table: TableName) -> int:
    """Load a shipped sample into ``table`` (replacing it); return its row count."""
    data = pa_csv.read_csv(sample_csv(name), parse_options=pa_csv.ParseOptions(delimiter=";"))
    engine.drop(table)
    engine.load_arrow(table, data)
    return engine.count_rows(table)


def load_adult(engine: Engine, table: TableName = TableName("adult", "main")) -> int:
    """Load the shipped Adult sample (30,162 rows) into ``table``; return its row count."""
    return load_sample(engine, "adult", table)


def adult_spec(
    database: str, *, k: int = 10, schema: str = "anon", name: str = "adult"
) -> dict[str, Any]:
    """The literature's Adult setup: 8 QIDs (age, education_num numeric), class sensitive-free."""
    columns: dict[str, Any] = dict(ADULT_QIDS)
    columns.update(
        {
            "final_weight": {"role": "identifier"},
            "education": {"role": "insensitive"},
            "relationship": {"role": "insensitive"},
            "capital_gain": {"role": "insensitive"},
            "capital_loss": {"role": "insensitive"},
            "hours_per_week": {"role": "insensitive"},
            "class": {"role": "sensitive"},
        }
    )
    return {
        "engine": "duckdb",
        "database": database,
        "source": "main.adult",
        "output": {"schema": schema, "name": name, "materialize": "view"},
        "columns": columns,
        "privacy": [{"k_anonymity": {"k": k}}],
        "algorithm": "mondrian",
        "suppression_limit": 0.0,
    }


def prepare_demo_database(path: str) -> DuckDBEngine:
    engine = DuckDBEngine(path)
    load_adult(engine)
    return engine
