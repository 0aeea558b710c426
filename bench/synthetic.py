"""Deterministic synthetic Adult-like tables of any size, generated inside DuckDB.

Row ``i`` copies the quasi-identifiers of Adult row ``hash(i, seed) mod 30162`` (so the joint
distribution and correlations are Adult's) and shifts its age by a deterministic -2..+2 years
(clamped to 17..90), so that larger tables have more distinct QID vectors than Adult.
No Python-side rows: the table is built by one SQL statement.
"""

from __future__ import annotations

from anonsql.demo import load_adult
from anonsql.engines import Engine
from anonsql.sql import TableName


def make_synthetic_adult(engine: Engine, rows: int, *, seed: int = 0,
                         target: TableName = TableName("adult_synth", "main")) -> TableName:
    adult = TableName("adult_seed", "main")
    if not engine.exists(adult):
        load_adult(engine, adult)
    engine.drop(target)
    engine.run("bench/synthetic_adult", target=target, adult=adult, rows=rows, seed=seed)
    return target
