"""The demo: Adult (shipped with anonsql) anonymized in an embedded DuckDB database."""

from __future__ import annotations

from typing import Any

from anonsql.engines import DuckDBEngine
from anonsql.samples import load_adult

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
