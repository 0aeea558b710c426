"""What it costs DuckDB to write eight label columns per row as text, as ENUM or as small
integer codes, and what a view decoding the codes costs analysts' queries beside the text table.

    python bench/label_codes.py --rows 10000000

Synthetic rows (``range``): a key, a sensitive bit and eight label columns of 12-25 characters
with 3-400 labels each, like a release's generalized quasi-identifiers. Each write is ``CREATE
TABLE AS`` + ``CHECKPOINT`` in a file-backed database (2 threads), twice. The decoding view
indexes a constant list of each column's labels by the code (no join). Prints one line per
measurement; the database is removed at the end.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import duckdb

#: (column, labels) of the synthetic label columns.
LABELS = [
    ("age", 400),
    ("wc", 12),
    ("edu", 60),
    ("ms", 10),
    ("occ", 30),
    ("race", 6),
    ("sex", 3),
    ("nc", 60),
]
QUERIES = [
    ("count(*)", "SELECT count(*) FROM {t}"),
    ("group by sex, race", "SELECT sex, race, count(*) FROM {t} GROUP BY ALL"),
    (
        "filtered count",
        "SELECT count(*) FROM {t} WHERE sex = '[1, 8]-label-sex' AND race <> '[2, 9]-label-race'",
    ),
    (
        "group by all 8",
        "SELECT age, wc, edu, ms, occ, race, sex, nc, count(*) FROM {t} GROUP BY ALL",
    ),
    ("filter + 100 rows", "SELECT * FROM {t} WHERE age = '[5, 12]-label-age' LIMIT 100"),
]


def _literal(labels: list[str]) -> str:
    return "[" + ", ".join("'" + x.replace("'", "''") + "'" for x in labels) + "]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="label-codes-") as tmp:
        con = duckdb.connect(str(Path(tmp) / "codes.duckdb"))
        con.execute("SET threads = 2")
        columns = ", ".join(
            f"'[' || (hash(i, {j}) % {n})::VARCHAR || ', ' || (hash(i, {j}) % {n} + 7)::VARCHAR"
            f" || ']-label-{c}' AS {c}"
            for j, (c, n) in enumerate(LABELS)
        )
        con.execute(
            f"CREATE TABLE text_rows AS SELECT i AS key, i % 2 AS sa, {columns} "
            f"FROM range({args.rows}) t(i)"
        )
        labels: dict[str, list[str]] = {}
        for c, _ in LABELS:
            labels[c] = [
                r[0]
                for r in con.execute(f"SELECT DISTINCT {c} FROM text_rows ORDER BY 1").fetchall()
            ]
            con.execute(f"CREATE TYPE e_{c} AS ENUM (SELECT DISTINCT {c} FROM text_rows)")
            con.execute(
                f"CREATE TEMP TABLE d_{c} AS SELECT label, "
                "CAST(row_number() OVER (ORDER BY label) AS USMALLINT) AS code "
                f"FROM (SELECT DISTINCT {c} AS label FROM text_rows)"
            )
        names = [c for c, _ in LABELS]
        writes = {
            "text": "SELECT * FROM text_rows",
            "enum": "SELECT key, sa, "
            + ", ".join(f"CAST({c} AS e_{c}) AS {c}" for c in names)
            + " FROM text_rows",
            "codes looked up": "SELECT key, sa, "
            + ", ".join(f"d_{c}.code AS {c}" for c in names)
            + " FROM text_rows "
            + " ".join(f"JOIN d_{c} ON d_{c}.label = text_rows.{c}" for c in names),
            "codes copied": "SELECT * FROM coded",
        }
        con.execute(f"CREATE TABLE coded AS {writes['codes looked up']}")
        for attempt in range(2):
            for what, select in writes.items():
                start = time.perf_counter()
                con.execute(f"CREATE OR REPLACE TABLE written AS {select}")
                con.execute("CHECKPOINT")
                print(f"write {what:16s} run {attempt + 1}: {time.perf_counter() - start:6.2f} s")
        con.execute(
            "CREATE VIEW decoded AS SELECT key, sa, "
            + ", ".join(f"({_literal(labels[c])})[{c}] AS {c}" for c in names)
            + " FROM coded"
        )
        con.execute("CHECKPOINT")
        for what, query in QUERIES:
            medians = []
            for table in ("text_rows", "decoded"):
                times = []
                for _ in range(3):
                    start = time.perf_counter()
                    con.execute(query.format(t=table)).fetchall()
                    times.append(time.perf_counter() - start)
                medians.append(sorted(times)[1])
            print(f"query {what:20s} text {medians[0]:.3f} s, decoded {medians[1]:.3f} s")
        grouped = "SELECT sex, race, count(*) FROM {t} GROUP BY ALL ORDER BY ALL"
        same = [con.execute(grouped.format(t=t)).fetchall() for t in ("text_rows", "decoded")]
        print(f"same GROUP BY sex, race on both: {same[0] == same[1]}")
        con.close()


if __name__ == "__main__":
    main()
