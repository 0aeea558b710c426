"""Deterministic synthetic 1:M data ("one person, many rows"), generated inside DuckDB.

Two tables:

- ``persons(person_id BIGINT, age INTEGER, zip INTEGER, sex VARCHAR, marital VARCHAR)``: one row
  per person; age is a triangle over 17..89, zip uniform over 10000..19999 (numeric QIDs), sex and
  marital are categorical QIDs with hierarchies written beside the item hierarchy.
- ``items(person_id BIGINT, item VARCHAR)``: 1..``max_items`` rows per person, short lists
  common (P(n) ∝ 1/n), items Zipf-like in popularity (P(rank r) ∝ 1/r^skew), drawn from the
  leaves of a fan-out-``fanout`` hierarchy written as a ``leaf;parent;...;*`` file. A person's
  items are a set: an item drawn twice is kept once, so a person may hold fewer than the n drawn.

QIDs and items are independent. Every draw hashes (person, seed, salt) with DuckDB's ``HASH``, so
the tables are a function of the parameters (for one DuckDB version): same seed, same rows.
No Python-side rows: each table is built by one SQL statement (``sql_templates/bench/``). On
another engine the rows are generated in a private in-memory DuckDB and copied in with
``load_arrow``, so every engine gets the same rows.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

from anonsql.engines import DuckDBEngine, Engine
from anonsql.hierarchies import Hierarchy, write_arx_csv
from anonsql.sql import TableName

#: Categorical QIDs of ``persons`` and their hierarchies (leaf to root).
CATEGORICAL_HIERARCHIES: dict[str, list[list[str]]] = {
    "sex": [["F", "*"], ["M", "*"]],
    "marital": [
        ["Married", "Partnered", "*"],
        ["Separated", "Partnered", "*"],
        ["Never-married", "Single", "*"],
        ["Divorced", "Single", "*"],
        ["Widowed", "Single", "*"],
    ],
}
#: Numeric QIDs of ``persons`` (``type: numeric`` in a spec).
NUMERIC_QIDS = ("age", "zip")


@dataclass(frozen=True)
class Synthetic1M:
    """What :func:`make_synthetic_1m` built."""

    persons: TableName
    items: TableName
    person_rows: int
    item_rows: int
    #: Hierarchy files by column: ``item`` and the categorical QIDs (``sex``, ``marital``).
    hierarchies: dict[str, Path]
    #: The item hierarchy's leaves (in leaf order) and height (edges from a leaf to the root).
    leaves: list[str]
    item_height: int


def item_label(number: int, *, width: int, prefix: str = "i") -> str:
    """The name of item leaf ``number``; the SQL template builds the same text."""
    return f"{prefix}{number:0{width}d}"


def item_hierarchy(leaves: int, *, fanout: int = 5, prefix: str = "i") -> Hierarchy:
    """A fan-out ``fanout`` tree over ``leaves`` item leaves.

    Level ``k`` groups consecutive leaves in blocks of ``fanout**k`` and names each block by its
    leaf range (``i00000-i00024``); levels stop below the first block size that covers every
    leaf, whose place the root ``*`` takes. With ``5**h`` leaves every branch has height ``h``.
    """
    width = max(5, len(str(leaves - 1)))
    labels = [item_label(n, width=width, prefix=prefix) for n in range(leaves)]
    sizes = []
    size = fanout
    while size < leaves:
        sizes.append(size)
        size *= fanout
    paths = []
    for n, label in enumerate(labels):
        path = [label]
        for block in sizes:
            first = n // block * block
            last = min(first + block, leaves) - 1
            path.append(f"{labels[first]}-{labels[last]}")
        path.append("*")
        paths.append(path)
    return Hierarchy(paths, name="item", origin=f"synthetic item hierarchy ({leaves} leaves)")


def _check(persons: int, max_items: int, leaves: int, fanout: int, skews: list[float]) -> None:
    if persons < 1:
        raise ValueError(f"persons must be at least 1, not {persons}")
    if max_items < 1:
        raise ValueError(f"max_items must be at least 1, not {max_items}")
    if leaves < 2:
        raise ValueError(f"leaves must be at least 2, not {leaves}")
    if fanout < 2:
        raise ValueError(f"fanout must be at least 2, not {fanout}")
    if any(not 0.0 <= s <= 10.0 for s in skews):
        raise ValueError(f"skews must lie in [0, 10] (0 is uniform), not {skews}")


def make_synthetic_1m(
    engine: Engine,
    persons: int,
    *,
    hierarchy_dir: Path,
    max_items: int = 8,
    leaves: int = 5**5,
    fanout: int = 5,
    skew: float = 1.0,
    length_skew: float = 1.0,
    seed: int = 0,
    persons_table: TableName = TableName("persons", "main"),
    items_table: TableName = TableName("items", "main"),
    prefix: str = "i",
) -> Synthetic1M:
    """Create (replacing) ``persons_table`` and ``items_table`` in ``engine`` and write the
    hierarchy files ``item.txt``, ``sex.txt`` and ``marital.txt`` into ``hierarchy_dir``.

    ``skew`` is the Zipf exponent of item popularity, ``length_skew`` that of the number of
    items per person (0 makes either uniform).
    """
    _check(persons, max_items, leaves, fanout, [skew, length_skew])
    tree = item_hierarchy(leaves, fanout=fanout, prefix=prefix)
    width = len(tree.leaves[0]) - len(prefix)
    hierarchy_dir.mkdir(parents=True, exist_ok=True)
    files = {"item": hierarchy_dir / "item.txt"}
    write_arx_csv(tree, files["item"])
    for column, paths in CATEGORICAL_HIERARCHIES.items():
        files[column] = hierarchy_dir / f"{column}.txt"
        write_arx_csv(Hierarchy(paths, name=column), files[column])

    def generate(duck: Engine, p_table: TableName, i_table: TableName) -> None:
        for table in (i_table, p_table):
            duck.drop(table)
        duck.run("bench/synthetic_1m_persons", target=p_table, rows=persons, seed=seed)
        duck.run(
            "bench/synthetic_1m_items",
            target=i_table,
            persons=p_table,
            max_items=max_items,
            leaves=leaves,
            skew=float(skew),
            length_skew=float(length_skew),
            seed=seed,
            prefix=prefix,
            width=width,
        )

    for schema in {persons_table.schema, items_table.schema} - {None}:
        engine.ensure_schema(str(schema))
    if isinstance(engine, DuckDBEngine):
        generate(engine, persons_table, items_table)
    else:
        with DuckDBEngine(":memory:") as duck:
            p_tmp, i_tmp = TableName("persons", "main"), TableName("items", "main")
            generate(duck, p_tmp, i_tmp)
            for source, target in ((p_tmp, persons_table), (i_tmp, items_table)):
                data = duck.query_arrow("select_all", relation=source)
                engine.drop(target)
                engine.load_arrow(target, data)
    return Synthetic1M(
        persons=persons_table,
        items=items_table,
        person_rows=engine.count_rows(persons_table),
        item_rows=engine.count_rows(items_table),
        hierarchies=files,
        leaves=list(tree.leaves),
        item_height=tree.height,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Time the synthetic 1:M generator in DuckDB.")
    parser.add_argument("--persons", type=int, default=1_000_000)
    parser.add_argument("--max-items", type=int, default=8)
    parser.add_argument("--leaves", type=int, default=5**5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--database", default=":memory:", help="DuckDB file or :memory:")
    parser.add_argument("--hierarchy-dir", type=Path, default=Path("bench/out/synthetic_1m"))
    args = parser.parse_args()
    with DuckDBEngine(args.database) as engine:
        start = time.perf_counter()
        made = make_synthetic_1m(
            engine,
            args.persons,
            hierarchy_dir=args.hierarchy_dir,
            max_items=args.max_items,
            leaves=args.leaves,
            seed=args.seed,
        )
        seconds = time.perf_counter() - start
    print(
        f"{made.person_rows} persons, {made.item_rows} item rows "
        f"({made.item_rows / made.person_rows:.2f} per person), {len(made.leaves)} leaves "
        f"(height {made.item_height}) in {seconds:.2f} s"
    )


if __name__ == "__main__":
    main()
