"""Dependency-preserving generalization as a product feature, on both engines: the spec's
``functional_dependencies`` checked in the resolve step, the four clustering algorithms run by
the pipeline (releases k-anonymous by an independent pandas re-check, no row lost), and the
``dependency_loss`` metric equal to Gorla's Def. 8 recomputed here, in plain Python, from the
published relation and the source (not from anonsql's SQL or NumPy code)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from helpers import CITY_HIERARCHY

from anonsql import api
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.sql import TableName

CITIES = [line.split(";") for line in CITY_HIERARCHY.splitlines()]
CLUSTERING = ["pair_enum", "k_assemble", "k_member", "top_down"]
FDS = ["zip -> city", "city -> country"]
_outputs = itertools.count()


def shops(n: int = 160, seed: int = 1) -> pa.Table:
    """zip (numeric QI, three per city) -> city (categorical QI) -> country (sensitive)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        c = rng.randrange(len(CITIES))
        rows.append((1000 + 10 * c + rng.randrange(3), CITIES[c][0], CITIES[c][1]))
    return pa.table(
        {
            "zip": [r[0] for r in rows],
            "city": [r[1] for r in rows],
            "country": [r[2] for r in rows],
            "age": [rng.randint(20, 70) for _ in rows],
        }
    )


def spec(folder: Path, algorithm: Any, k: int = 4, **extra: Any) -> dict[str, Any]:
    (folder / "city.csv").write_text(CITY_HIERARCHY, encoding="utf-8")
    out: dict[str, Any] = {
        "source": "main.shops",
        "output": {"schema": "anon", "name": f"shops{next(_outputs)}"},
        "columns": {
            "zip": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": str(folder / "city.csv")},
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "country": {"role": "sensitive", "acknowledge_linked": True},
        },
        "privacy": [{"k_anonymity": {"k": k}}],
        "algorithm": algorithm,
        "functional_dependencies": FDS,
    }
    out.update(extra)
    return out


def load(engine: Engine, table: pa.Table | None = None) -> TableName:
    name = TableName("shops", "main")
    engine.load_arrow(name, table if table is not None else shops())
    return name


# -- the independent recomputation of Def. 8 -------------------------------------------------


def _plogp(counts: list[int]) -> float:
    return sum(n * math.log(n) for n in counts if n > 0)


def independent_loss(
    source: pd.DataFrame, published: pd.DataFrame, fds: list[str]
) -> tuple[float, int]:
    """Δ and |Γ| of ``published`` (Gorla Def. 8, Eq. 3.1/3.2/4.3), written from the thesis.

    Categorical city: a published label is a node of CITY_HIERARCHY covering its leaves;
    numeric: "[lo, hi]" or the value; country (kept): equality. NE(v) = E(v) / H(A), with
    E(v) = (n_v ln n_v - Σ_leaves b of v n_b ln n_b) / N over the source's values.
    """
    total = len(source)

    def entropy_penalty(column: str, covered: list[Any]) -> float:
        counts = Counter(source[column])
        h = (_plogp([total]) - _plogp(list(counts.values()))) / total
        inside = [counts[v] for v in covered if counts[v]]
        e = (_plogp([sum(inside)]) - _plogp(inside)) / total
        return min(max(e / h, 0.0), 1.0) if h > 0 else 0.0

    def covers(column: str, label: str, value: Any) -> tuple[bool, list[Any]]:
        if column == "city":
            leaves = [row[0] for row in CITIES if label in row]
            return value in leaves, leaves
        text = str(label)
        lo, hi = (
            (float(x) for x in text[1:-1].split(", "))
            if text.startswith("[")
            else (float(text),) * 2
        )
        values = sorted({v for v in source[column] if lo <= float(v) <= hi})
        return lo <= float(value) <= hi, values

    loss, instances = 0.0, 0
    seen: set[frozenset[str]] = set()
    for fd in fds:
        lhs, rhs = (side.strip() for side in fd.split("->"))
        columns = [c.strip() for c in lhs.split(",")] + [c.strip() for c in rhs.split(",")]
        if frozenset(columns) in seen:
            continue
        seen.add(frozenset(columns))
        gamma = source[columns].drop_duplicates().itertuples(index=False)
        released = list(published[columns].drop_duplicates().itertuples(index=False))
        for p in gamma:
            instances += 1
            best = 1.0
            for t in released:
                d = 0.0
                for column, pv, tv in zip(columns, p, t, strict=True):
                    if column == "country":
                        d += 0.0 if pv == tv else 1.0
                    else:
                        inside, covered = covers(column, tv, pv)
                        d += entropy_penalty(column, covered) if inside else 1.0
                best = min(best, d / len(columns))
            loss += best
    return loss, instances


def rows_of(engine: Engine, relation: TableName) -> pd.DataFrame:
    frame: pd.DataFrame = engine.query_arrow("select_all", relation=relation).to_pandas()
    return frame


# -- the four algorithms through the pipeline ------------------------------------------------


@pytest.mark.parametrize("algorithm", CLUSTERING)
def test_release_is_k_anonymous_and_its_loss_recomputes(
    engine: Engine, tmp_path: Path, algorithm: str
) -> None:
    source = load(engine)
    k = 4
    result = api.run(spec(tmp_path, algorithm, k=k), engine=engine)
    assert result.certificate["verified"]
    published = rows_of(engine, result.names.main)
    sizes = published.groupby(["zip", "city", "age"], dropna=False).size()
    assert sizes.min() >= k
    assert len(published) + int(result.certificate["suppressed_rows"]) == 160
    loss, instances = independent_loss(rows_of(engine, source), published, FDS)
    metrics = {(m.name, m.attribute): m.value for m in result.metrics}
    assert metrics[("dependency_instances", None)] == instances
    assert metrics[("dependency_loss_sum", None)] == pytest.approx(loss)
    assert metrics[("dependency_loss", None)] == pytest.approx(100 * loss / instances)
    assert 0 <= loss <= instances


def test_mondrian_release_reports_the_loss_too(engine: Engine, tmp_path: Path) -> None:
    source = load(engine)
    result = api.run(spec(tmp_path, "mondrian", k=4), engine=engine)
    published = rows_of(engine, result.names.main)
    loss, instances = independent_loss(rows_of(engine, source), published, FDS)
    metrics = {(m.name, m.attribute): m.value for m in result.metrics}
    assert metrics[("dependency_loss_sum", None)] == pytest.approx(loss)
    assert 0 < loss < instances
    assert metrics[("dependency_loss", "zip -> city")] >= 0.0
    assert ("dependency_loss", "city -> country") in metrics


def test_k1_release_loses_nothing(engine: Engine, tmp_path: Path) -> None:
    load(engine)
    result = api.run(spec(tmp_path, "mondrian", k=1), engine=engine)
    metrics = {(m.name, m.attribute): m.value for m in result.metrics}
    assert metrics[("dependency_loss", None)] == pytest.approx(0.0, abs=1e-12)


def test_no_dependency_no_metric(engine: Engine, tmp_path: Path) -> None:
    load(engine)
    s = spec(tmp_path, "k_member")
    del s["functional_dependencies"]
    result = api.run(s, engine=engine)
    assert result.certificate["verified"]
    assert not [m for m in result.metrics if m.name.startswith("dependency_")]


# -- the spec checked against the catalog and the data ---------------------------------------


def test_dependency_that_does_not_hold_is_refused_with_counts(
    engine: Engine, tmp_path: Path
) -> None:
    table = shops()
    cities = table.column("city").to_pylist()
    cities[0] = "Toronto" if cities[0] != "Toronto" else "Lyon"  # zip no longer -> city
    load(engine, table.set_column(1, "city", pa.array(cities)))
    s = spec(tmp_path, "mondrian")
    s["columns"]["country"] = {"role": "insensitive"}
    with pytest.raises(SpecError) as err:
        api.run(s, engine=engine)
    assert err.value.key == "functional_dependencies[0]"
    assert "1 left-hand values have several right-hand values" in err.value.problem
    assert "Toronto" not in str(err.value) and "Lyon" not in str(err.value)
    assert "clean the data" in err.value.fix


@pytest.mark.parametrize(
    ("fds", "key", "words"),
    [
        (["zip -> cty"], "functional_dependencies[0]", "did you mean 'city'"),
        (["zip"], "functional_dependencies[0]", "'->'"),
        (["zip -> city", "zip -> city"], "functional_dependencies[1]", "twice"),
        (["zip -> name"], "functional_dependencies[0]", "not declared"),
    ],
)
def test_malformed_dependencies_are_refused(
    engine: Engine, tmp_path: Path, fds: list[str], key: str, words: str
) -> None:
    table = shops()
    load(engine, table.append_column("name", pa.array([f"n{i}" for i in range(160)])))
    with pytest.raises(SpecError) as err:
        api.run(spec(tmp_path, "mondrian", functional_dependencies=fds), engine=engine)
    assert err.value.key == key
    assert words in str(err.value)


def test_spec_entries_must_be_strings(tmp_path: Path) -> None:
    with pytest.raises(SpecError):
        api.run(spec(tmp_path, "mondrian", functional_dependencies=[1]))


# -- what the clustering algorithms refuse ---------------------------------------------------


def test_models_beyond_class_sizes_are_refused(engine: Engine, tmp_path: Path) -> None:
    load(engine)
    s = spec(tmp_path, "pair_enum")
    s["privacy"].append({"distinct_l_diversity": {"column": "country", "l": 2}})
    with pytest.raises(SpecError) as err:
        api.run(s, engine=engine)
    assert err.value.key == "privacy[1].distinct_l_diversity"
    assert "mondrian" in err.value.fix


def test_size_limit_names_the_option(engine: Engine, tmp_path: Path) -> None:
    load(engine)
    with pytest.raises(SpecError) as err:
        api.run(spec(tmp_path, {"pair_enum": {"max_records": 100}}), engine=engine)
    assert err.value.key == "algorithm.pair_enum.max_records"
    assert "160 records exceed" in err.value.problem


def test_unknown_option_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as err:
        api.run(spec(tmp_path, {"k_assemble": {"pool_size": 3}}))
    assert "pool" in err.value.fix


def test_insensitive_dependency_column_is_refused_by_clustering(
    engine: Engine, tmp_path: Path
) -> None:
    load(engine)
    s = spec(tmp_path, "k_assemble")
    s["columns"]["country"] = {"role": "insensitive"}
    with pytest.raises(SpecError) as err:
        api.run(s, engine=engine)
    assert err.value.key == "functional_dependencies[1]"
    assert "mondrian" in err.value.fix


def test_leftovers_suppressed_within_the_budget_else_attached(
    engine: Engine, tmp_path: Path
) -> None:
    """PAIR-ENUM leaves fewer than k records unclustered: suppressed when the spec allows it,
    otherwise attached to a cluster (nothing suppressed)."""
    load(engine, shops(n=163))
    k = 4
    attached = api.run(spec(tmp_path, "k_assemble", k=k), engine=engine)
    assert int(attached.certificate["suppressed_rows"]) == 0
    assert len(rows_of(engine, attached.names.main)) == 163
    budget = api.run(spec(tmp_path, "k_assemble", k=k, suppression_limit=0.05), engine=engine)
    suppressed = int(budget.certificate["suppressed_rows"])
    assert 0 < suppressed < k
    published = rows_of(engine, budget.names.main)
    assert len(published) == 163 - suppressed
    assert published.groupby(["zip", "city", "age"]).size().min() >= k


# -- FD-aware Mondrian -----------------------------------------------------------------------


def test_mondrian_dependency_weight_narrows_dependency_attributes(
    engine: Engine, tmp_path: Path
) -> None:
    """With zip and city weighted (age is in no dependency), Mondrian splits them first: the
    release stays k-anonymous and loses fewer dependency instances (at some NCP)."""
    source = load(engine, shops(n=400))
    found = {}
    for weight in (1.0, 10.0):
        s = spec(tmp_path, {"mondrian": {"dependency_weight": weight}}, k=5)
        result = api.run(s, engine=engine)
        published = rows_of(engine, result.names.main)
        assert published.groupby(["zip", "city", "age"]).size().min() >= 5
        loss, _ = independent_loss(rows_of(engine, source), published, FDS)
        metrics = {(m.name, m.attribute): m.value for m in result.metrics}
        assert metrics[("dependency_loss_sum", None)] == pytest.approx(loss)
        found[weight] = (loss, metrics[("ncp", None)])
    assert found[10.0][0] < found[1.0][0]
    assert found[10.0][1] > found[1.0][1]


def test_dependency_weight_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as err:
        api.run(spec(tmp_path, {"mondrian": {"dependency_weight": 0}}))
    assert "dependency_weight" in str(err.value)


def test_one_to_many_data_is_refused(engine: Engine, tmp_path: Path) -> None:
    table = shops()
    load(engine, table.append_column("patient", pa.array([f"p{i // 2}" for i in range(160)])))
    s = spec(tmp_path, "one_to_many", person_id="patient")
    s["privacy"] = [{"person_k_anonymity": {"k": 2}}]
    with pytest.raises(SpecError) as err:
        api.run(s, engine=engine)
    assert err.value.key == "functional_dependencies"
    assert "1:M" in err.value.problem
