"""``algorithm: full_domain`` enforcing k-map against a population table, on both engines.

A hand-made sample of 8 unique rows (``zip`` with a hierarchy, ``age`` numeric on its binary
ladder) and a larger population (a count column): at the same k, k-map allows a finer node than
k-anonymity. Every lattice node is judged by a brute-force computation in pandas (the sample's
classes, the population rolled up through the same hierarchies): the evaluator's classes and
verdicts at every node must agree, and the search's choice must be the one minimal anonymous
node; the release verifies, its guarded view reads the release's
generalized population, ``check_output`` re-checks it, and a population value outside the
hierarchy is a SpecError giving the column and the count of rows, never the value.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest

from anonsql import api
from anonsql.algorithms.full_domain import NodeEvaluator
from anonsql.algorithms.full_domain.algorithm import dimension_levels, workspace_frequency
from anonsql.algorithms.full_domain.population import build_population
from anonsql.algorithms.population import population_source
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.hierarchies import load_hierarchies
from anonsql.prepare import prepared
from anonsql.privacy.base import POPULATION_PERSONS
from anonsql.resolve import resolve
from anonsql.sql import TableName

SAMPLE = TableName("kmap_sample", "main")
POPULATION = TableName("kmap_population", "main")
ZIP_HIERARCHY = "z1;Z12;*\nz2;Z12;*\nz3;Z34;*\nz4;Z34;*\n"
ZIP_LEVELS = [
    {f"z{i}": f"z{i}" for i in range(1, 5)},
    {"z1": "Z12", "z2": "Z12", "z3": "Z34", "z4": "Z34"},
    {f"z{i}": "*" for i in range(1, 5)},
]
AGES = [20, 21, 22, 23]
# the numeric ladder over the sample's four ages: values, pairs, everything
AGE_LEVELS = [{a: a for a in AGES}, {a: AGES.index(a) >> 1 for a in AGES}, {a: 0 for a in AGES}]

SAMPLE_ROWS = [("z1", 20), ("z1", 21), ("z2", 20), ("z2", 21)]
SAMPLE_ROWS += [("z3", 22), ("z3", 23), ("z4", 22), ("z4", 23)]
# persons of the population per (zip, age); (z1, 22) is not in the sample
POPULATION_ROWS = {
    ("z1", 20): 2,
    ("z1", 21): 2,
    ("z2", 20): 1,
    ("z2", 21): 3,
    ("z3", 22): 3,
    ("z3", 23): 2,
    ("z4", 22): 1,
    ("z4", 23): 1,
    ("z1", 22): 5,
}
K = 3


def load(engine: Engine, population: dict[tuple[str, int], int] | None = None) -> None:
    rows = POPULATION_ROWS if population is None else population
    engine.drop(SAMPLE)
    engine.drop(POPULATION)
    engine.load_arrow(
        SAMPLE,
        pa.table(
            {
                "zip": [z for z, _ in SAMPLE_ROWS],
                "age": pa.array([a for _, a in SAMPLE_ROWS], pa.int32()),
                "note": [f"n{i}" for i in range(len(SAMPLE_ROWS))],
            }
        ),
    )
    engine.load_arrow(
        POPULATION,
        pa.table(
            {
                "zip": [z for z, _ in rows],
                "age": pa.array([a for _, a in rows], pa.int32()),
                "persons": pa.array(list(rows.values()), pa.int64()),
            }
        ),
    )


def spec(tmp_path: Path, model: dict[str, Any], name: str) -> dict[str, Any]:
    (tmp_path / "zip.csv").write_text(ZIP_HIERARCHY, encoding="utf-8")
    return {
        "source": str(SAMPLE),
        "output": {"schema": "anon", "name": name},
        "columns": {
            "zip": {"role": "quasi_identifier", "hierarchy": str(tmp_path / "zip.csv")},
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "note": {"role": "identifier"},
        },
        "privacy": [model],
        "suppression_limit": 0.0,
        "algorithm": {"full_domain": {"objective": "entropy"}},
    }


def kmap_model() -> dict[str, Any]:
    return {"k_map": {"k": K, "population": str(POPULATION), "count": "persons"}}


def generalize(frame: pd.DataFrame, node: tuple[int, int]) -> pd.DataFrame:
    return frame.assign(
        zip=frame["zip"].map(ZIP_LEVELS[node[0]]), age=frame["age"].map(AGE_LEVELS[node[1]])
    )


def anonymous_nodes(model: str) -> set[tuple[int, int]]:
    """Brute force over the 3 x 3 lattice: the nodes where every sample class has at least K
    rows (k-anonymity) or K persons of the population rolled up alike (k-map)."""
    sample = pd.DataFrame(SAMPLE_ROWS, columns=["zip", "age"])
    population = pd.DataFrame(
        [(z, a, n) for (z, a), n in POPULATION_ROWS.items()], columns=["zip", "age", "n"]
    )
    found = set()
    for node in itertools.product(range(3), range(3)):
        classes = generalize(sample, node).groupby(["zip", "age"]).size()
        if model == "k_map":
            persons = generalize(population, node).groupby(["zip", "age"])["n"].sum()
            sizes = persons.reindex(classes.index, fill_value=0)
        else:
            sizes = classes
        if (sizes >= K).all():
            found.add(node)
    return found


def minimal(nodes: set[tuple[int, int]]) -> set[tuple[int, int]]:
    return {
        n
        for n in nodes
        if not any(m != n and all(a <= b for a, b in zip(m, n, strict=True)) for m in nodes)
    }


def frame_of(engine: Engine, relation: TableName) -> pd.DataFrame:
    frame: pd.DataFrame = engine.query_arrow("select_all", relation=relation).to_pandas()
    return frame


def test_kmap_allows_a_finer_node_than_k_anonymity(engine: Engine, tmp_path: Path) -> None:
    kmap, kanon = minimal(anonymous_nodes("k_map")), minimal(anonymous_nodes("k_anonymity"))
    # the fixture is built so that each has one minimal anonymous node, and they differ
    assert kmap == {(1, 0)} and kanon == {(1, 1)}
    load(engine)
    chosen = {}
    for name, model in (("k_map", kmap_model()), ("k_anonymity", {"k_anonymity": {"k": K}})):
        result = api.run(spec(tmp_path, model, f"kmap_{name}"), engine=engine)
        assert result.certificate["verified"]
        search = json.loads(result.certificate["search"])
        chosen[name] = tuple(search["node"].values())
    assert chosen == {"k_map": (1, 0), "k_anonymity": (1, 1)}


def test_release_verifies_guards_and_rechecks(engine: Engine, tmp_path: Path) -> None:
    load(engine)
    live = spec(tmp_path, kmap_model(), "kmap_release")
    live["output"]["materialize"] = "live"  # the guard below is the live view's
    result = api.run(live, engine=engine)
    assert result.certificate["verified"] and result.certificate["suppressed_rows"] == 0
    search = json.loads(result.certificate["search"])
    assert search["population"] == {
        "table": str(POPULATION),
        "count": "persons",
        "rows": len(POPULATION_ROWS),
        "persons": float(sum(POPULATION_ROWS.values())),
    }
    view = frame_of(engine, result.names.main)
    assert len(view) == len(SAMPLE_ROWS)
    # the release's classes: Z12/Z34 by exact age; each with its persons in the population
    companion = frame_of(engine, result.names.companion("population"))
    keys = zip(companion["zip"], companion["age"], strict=True)
    persons = dict(zip(keys, companion[POPULATION_PERSONS], strict=True))
    assert persons == {("Z12", "20"): 3, ("Z12", "21"): 5, ("Z34", "22"): 4, ("Z34", "23"): 3}
    assert set(zip(view["zip"], view["age"], strict=True)) == set(persons)
    assert api.check_output(engine, result.names.main).holds
    # the guarded view reads the release's population: with fewer persons a class is withheld
    engine.execute(
        f"UPDATE {result.names.companion('population').sql()} SET "
        f"{POPULATION_PERSONS} = 1 WHERE zip = 'Z34' AND age = '23'"
    )
    view = frame_of(engine, result.names.main)
    assert sorted(zip(view["zip"], view["age"], strict=True)) == [
        ("Z12", "20"),
        ("Z12", "20"),
        ("Z12", "21"),
        ("Z12", "21"),
        ("Z34", "22"),
        ("Z34", "22"),
    ]
    assert api.check_output(engine, result.names.main).holds
    assert api.status(engine, str(result.names.main)).hidden_rows == 2


def test_population_value_outside_the_hierarchy(engine: Engine, tmp_path: Path) -> None:
    load(engine, {**POPULATION_ROWS, ("z9", 20): 4, ("z9", 21): 1})
    with pytest.raises(SpecError) as err:
        api.run(spec(tmp_path, kmap_model(), "kmap_uncovered"), engine=engine)
    message = str(err.value)
    assert "zip" in message and "2 rows of the population table" in message
    assert "z9" not in message and "hierarchy" in message


def test_every_node_matches_the_brute_force(engine: Engine, tmp_path: Path) -> None:
    """The evaluator's classes at every node of the lattice: sizes, population counts (through
    the model's verdict) and suppression, against pandas."""
    load(engine)
    spec_ = api.as_spec(spec(tmp_path, kmap_model(), "kmap_nodes"))
    resolved = resolve(spec_, engine)
    hierarchies = load_hierarchies(engine, spec_, resolved.source, resolved.hierarchy_columns)
    sample = pd.DataFrame(SAMPLE_ROWS, columns=["zip", "age"])
    population = pd.DataFrame(
        [(z, a, n) for (z, a), n in POPULATION_ROWS.items()], columns=["zip", "age", "n"]
    )
    with prepared(resolved, hierarchies, engine) as workspace:
        levels = [dimension_levels(workspace, d) for d in workspace.dimensions]
        freq = workspace_frequency(workspace, levels)
        named = population_source(workspace.models)
        assert named is not None
        built = build_population(workspace, *named)
        assert (built.records, built.persons) == (len(POPULATION_ROWS), 20.0)
        evaluator = NodeEvaluator(freq, workspace.models, budget=0, population=built)
        for node in itertools.product(range(3), range(3)):
            table = evaluator.classes(node)
            classes = generalize(sample, node).groupby(["zip", "age"]).size()
            persons = generalize(population, node).groupby(["zip", "age"])["n"].sum()
            persons = persons.reindex(classes.index, fill_value=0)
            assert sorted(table.counts.tolist()) == sorted(classes.tolist()), node
            # per class size, the rows suppressed: those of classes below K persons
            expected = sorted(zip(classes.tolist(), (persons < K).tolist(), strict=True))
            found = sorted(zip(table.counts.tolist(), table.suppressed.tolist(), strict=True))
            assert found == expected, node
            assert evaluator.evaluate(node).anonymous == (node in anonymous_nodes("k_map"))


def test_population_table_or_count_column_missing(engine: Engine, tmp_path: Path) -> None:
    load(engine)
    missing = {"k_map": {"k": K, "population": "main.nowhere"}}
    with pytest.raises(SpecError, match="does not exist"):
        api.run(spec(tmp_path, missing, "kmap_missing"), engine=engine)
    no_count = {"k_map": {"k": K, "population": str(POPULATION), "count": "weight"}}
    with pytest.raises(SpecError, match="lacks the column"):
        api.run(spec(tmp_path, no_count, "kmap_no_count"), engine=engine)
