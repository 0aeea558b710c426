"""Every way a spec can give a hierarchy works end to end: a builder over the column's values,
and a hierarchy table that already lives in the database."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
from independent import class_sizes

from anonsql import api
from anonsql.engines import Engine
from anonsql.sql import TableName


def load_customers(engine: Engine) -> None:
    n = 300
    engine.load_arrow(
        TableName("customers", "main"),
        pa.table(
            {
                "zip": [f"{2100 + (i * 37) % 90:05d}" for i in range(n)],
                "income": [1000 * ((i * 13) % 120) for i in range(n)],
                "signup": [f"20{10 + i % 12}-{1 + i % 12:02d}-{1 + i % 28:02d}" for i in range(n)],
                "segment": [["gold", "silver", "bronze", "tin"][i % 4] for i in range(n)],
                "spend": [i % 17 for i in range(n)],
            }
        ),
    )


def test_builders_in_a_spec(engine: Engine) -> None:
    load_customers(engine)
    spec = {
        "source": "main.customers",
        "output": {"schema": "anon", "name": "customers"},
        "columns": {
            "zip": {"role": "quasi_identifier", "hierarchy": {"builder": "mask", "char": "*"}},
            "income": {
                "role": "quasi_identifier",
                "hierarchy": {"builder": "interval", "widths": [10000, 40000]},
            },
            "signup": {
                "role": "quasi_identifier",
                "hierarchy": {"builder": "date", "levels": ["month", "year", "decade"]},
            },
            "segment": {
                "role": "quasi_identifier",
                "hierarchy": {
                    "builder": "ordered",
                    "order": ["tin", "bronze", "silver", "gold"],
                    "group_sizes": [2],
                },
            },
            "spend": {"role": "sensitive", "acknowledge_linked": True},
        },
        "privacy": [
            {"k_anonymity": {"k": 6}},
            {"distinct_l_diversity": {"column": "spend", "l": 2}},
        ],
    }
    result = api.run(spec, engine=engine)
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    assert len(frame) == 300
    assert class_sizes(frame, ["zip", "income", "signup", "segment"]).min() >= 6
    assert all(set(z) <= set("0123456789*") for z in frame["zip"])
    assert set(frame["segment"]) <= {
        "tin",
        "bronze",
        "silver",
        "gold",
        "tin..bronze",
        "silver..gold",
        "*",
    }


def test_hierarchy_table_in_the_database(engine: Engine, tmp_path: Path) -> None:
    load_customers(engine)
    engine.load_arrow(
        TableName("segment_levels", "main"),
        pa.table(
            {
                "leaf": ["gold", "silver", "bronze", "tin"],
                "tier": ["precious", "precious", "base", "base"],
                "root": ["*", "*", "*", "*"],
            }
        ),
    )
    spec = {
        "source": "main.customers",
        "output": {"schema": "anon", "name": "c2"},
        "columns": {
            "segment": {"role": "quasi_identifier", "hierarchy": {"table": "main.segment_levels"}},
            "income": {"role": "quasi_identifier", "type": "numeric"},
        },
        "privacy": [{"k_anonymity": {"k": 20}}],
    }
    result = api.run(spec, engine=engine)
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    assert set(frame["segment"]) <= {"gold", "silver", "bronze", "tin", "precious", "base", "*"}
    assert class_sizes(frame, ["segment", "income"]).min() >= 20
    # columns not in the spec are dropped, and listed in the certificate
    assert list(frame.columns) == ["income", "segment"]
