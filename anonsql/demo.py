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


#: Adult's other columns, left out of the release (not declared: undeclared columns are dropped),
#: and why (docs/spec.md: "Which Adult columns are quasi-identifying"): each would undo the
#: generalization of the quasi-identifiers.
ADULT_LEFT_OUT = {
    # a census sampling weight: nearly unique per row (not an identifier: its values repeat)
    "final_weight": "nearly unique per row",
    # a one-to-one recoding of education_num: publishing it undoes that QID's intervals
    "education": "determines education_num",
    # Husband / Wife give sex away (2,575 rows published with sex '*' at k = 10)
    "relationship": "gives sex and marital status away",
    # rare non-zero amounts: thousands of rows in classes below k when joined to the QIDs
    "capital_gain": "rare values single rows out",
    "capital_loss": "rare values single rows out",
    # known to employers and colleagues: 84 % of the rows fall in classes below k with it
    "hours_per_week": "quasi-identifying",
}


def adult_spec(
    database: str,
    *,
    k: int = 10,
    schema: str = "anon",
    name: str = "adult",
    acknowledged: bool = False,
) -> dict[str, Any]:
    """The literature's Adult setup: 8 QIDs (age, education_num numeric) and the income class
    as the sensitive column; the columns that would undo the generalization are left out.
    ``acknowledged``: publish the class with ``acknowledge_linked`` (on a slice, or with other
    algorithms or models, it can give a few quasi-identifiers away, which the linkage gate
    refuses)."""
    columns: dict[str, Any] = dict(ADULT_QIDS)
    columns["class"] = {
        "role": "sensitive",
        **({"acknowledge_linked": True} if acknowledged else {}),
    }
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
