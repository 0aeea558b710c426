"""The running example of Gong et al., "Anonymizing 1:M microdata with high utility" (KBS 2017),
Table 1(a), with the hierarchies reconstructed in digest 000 §1.7 (Age [1,100] -> decades ->
halves -> years; Zip [10001,30000] -> 5000-wide -> 1000-wide -> zips; Gender * -> M, F;
Disease * -> A, B, C -> a_1 .. c_2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

from anonsql.engines import Engine
from anonsql.sql import TableName

# tuple ID (name), PID, Age, Gender, Zip code, Disease
TABLE_1A = [
    ("Bob", 1, 18, "M", 12000, "a_1"),
    ("Bob", 1, 18, "M", 12000, "a_2"),
    ("Bob", 1, 18, "M", 12000, "b_2"),
    ("David", 2, 14, "M", 13000, "b_1"),
    ("Tom", 3, 21, "F", 21000, "b_2"),
    ("Simon", 4, 16, "M", 14000, "c_2"),
    ("Daisy", 5, 27, "F", 22000, "a_2"),
    ("Daisy", 5, 27, "F", 22000, "b_2"),
    ("Alice", 6, 28, "F", 21000, "c_1"),
    ("Alice", 6, 28, "F", 21000, "c_2"),
]

# Table 1(b): 2-anonymous at record level, broken at person level
TABLE_1B = [
    (1, "18", "M", "12000", "a_1"),
    (1, "18", "M", "12000", "a_2"),
    (1, "[11,20]", "M", "[10001,15000]", "b_2"),
    (2, "[11,20]", "M", "[10001,15000]", "b_1"),
    (3, "[11,30]", "*", "[10001,25000]", "b_2"),
    (4, "[11,30]", "*", "[10001,25000]", "c_2"),
    (5, "27", "F", "22000", "a_2"),
    (5, "27", "F", "22000", "b_2"),
    (6, "28", "F", "21000", "c_1"),
    (6, "28", "F", "21000", "c_2"),
]

# Fig. 3(c): each person's generalized fingerprint after Partition with k = 2
INTERMEDIATE_K2 = {
    "Bob": ["A", "b_2"],
    "David": ["B"],
    "Tom": ["B"],
    "Simon": ["C"],
    "Daisy": ["A", "b_2"],
    "Alice": ["C"],
}

# Table 2(b): the (2, 3)-diverse release, one row per person (as a multiset of rows)
TABLE_2B = [
    ("[11,20]", "M", "[10001,15000]", ("A", "b_2")),
    ("[11,20]", "M", "[10001,15000]", ("B",)),
    ("[11,20]", "M", "[10001,15000]", ("C",)),
    ("[21,30]", "F", "[20001,25000]", ("B",)),
    ("[21,30]", "F", "[20001,25000]", ("A", "b_2")),
    ("[21,30]", "F", "[20001,25000]", ("C",)),
]

PERSON_NAMES = {1: "Bob", 2: "David", 3: "Tom", 4: "Simon", 5: "Daisy", 6: "Alice"}


def _interval(lo: int, hi: int) -> str:
    return f"[{lo},{hi}]"


def age_lines() -> list[str]:
    lines = []
    for age in range(1, 101):
        half = (age - 1) // 5
        decade = (age - 1) // 10
        lines.append(
            ";".join(
                [
                    str(age),
                    _interval(half * 5 + 1, half * 5 + 5),
                    _interval(decade * 10 + 1, decade * 10 + 10),
                    _interval(1, 100),
                ]
            )
        )
    return lines


def zip_lines() -> list[str]:
    lines = []
    for z in range(10001, 30001):
        fine = (z - 10001) // 1000
        coarse = (z - 10001) // 5000
        lines.append(
            ";".join(
                [
                    str(z),
                    _interval(10001 + fine * 1000, 10000 + (fine + 1) * 1000),
                    _interval(10001 + coarse * 5000, 10000 + (coarse + 1) * 5000),
                    _interval(10001, 30000),
                ]
            )
        )
    return lines


DISEASE_LINES = [
    "a_1;A;*",
    "a_2;A;*",
    "b_1;B;*",
    "b_2;B;*",
    "c_1;C;*",
    "c_2;C;*",
]


def write_hierarchies(folder: Path) -> dict[str, str]:
    files = {
        "age": age_lines(),
        "zip": zip_lines(),
        "gender": ["M;*", "F;*"],
        "disease": DISEASE_LINES,
    }
    paths = {}
    for name, lines in files.items():
        path = folder / f"{name}.csv"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(path)
    return paths


def table_1a(rows: list[tuple[Any, ...]] | None = None) -> pa.Table:
    """Table 1(a) (or rows of its shape) as an Arrow table."""
    rows = TABLE_1A if rows is None else rows
    return pa.table(
        {
            "name": [r[0] for r in rows],
            "pid": pa.array([r[1] for r in rows], pa.int64()),
            "age": pa.array([r[2] for r in rows], pa.int64()),
            "gender": [r[3] for r in rows],
            "zip": pa.array([r[4] for r in rows], pa.int64()),
            "disease": [r[5] for r in rows],
        }
    )


def load_table_1a(
    engine: Engine,
    table: TableName = TableName("visits", "main"),
    rows: list[tuple[Any, ...]] | None = None,
) -> TableName:
    engine.load_arrow(table, table_1a(rows))
    return table


def load_table_1b(engine: Engine, table: TableName = TableName("published", "main")) -> TableName:
    engine.load_arrow(
        table,
        pa.table(
            {
                "pid": pa.array([r[0] for r in TABLE_1B], pa.int64()),
                "age": [r[1] for r in TABLE_1B],
                "gender": [r[2] for r in TABLE_1B],
                "zip": [r[3] for r in TABLE_1B],
                "disease": [r[4] for r in TABLE_1B],
            }
        ),
    )
    return table


def example_spec(folder: Path, *, k: int = 2, l: int = 3, **overrides: Any) -> dict[str, Any]:
    paths = write_hierarchies(folder)
    spec: dict[str, Any] = {
        "source": "main.visits",
        "person_id": "pid",
        "output": {"schema": "anon", "name": "visits"},
        "columns": {
            "name": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": paths["age"]},
            "gender": {"role": "quasi_identifier", "hierarchy": paths["gender"]},
            "zip": {"role": "quasi_identifier", "hierarchy": paths["zip"]},
            "disease": {
                "role": "sensitive",
                "acknowledge_linked": True,
                "hierarchy": paths["disease"],
            },
        },
        "privacy": [{"kl_diversity": {"column": "disease", "k": k, "l": l}}],
    }
    spec.update(overrides)
    return spec
