"""Deterministic synthetic Adult-like tables of any size, generated inside DuckDB.

Row ``i`` takes its demographic attributes (age, marital status, race, sex, native country) from
one Adult row and its work attributes (workclass, education, occupation, hours, class) from
another, both picked by hashing ``i`` with the seed, and shifts the age by a deterministic -2..+2
years (clamped to 17..90). Marginals and within-group correlations are Adult's; the number of
distinct QID vectors grows with the table (millions at 1e7 rows), as in a real census.
No Python-side rows: the table is built by one SQL statement.
"""

from __future__ import annotations

from anonsql.engines import Engine
from anonsql.samples import load_adult
from anonsql.sql import TableName


def make_synthetic_adult(
    engine: Engine,
    rows: int,
    *,
    seed: int = 0,
    target: TableName = TableName("adult_synth", "main"),
) -> TableName:
    adult = TableName("adult_seed", "main")
    if not engine.exists(adult):
        load_adult(engine, adult)
    engine.drop(target)
    engine.run("bench/synthetic_adult", target=target, adult=adult, rows=rows, seed=seed)
    return target
