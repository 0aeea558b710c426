"""``algorithm: mondrian`` enforcing k-map against a population table, on both engines.

A sample of 40 rows (``zip`` with a hierarchy, ``age`` numeric) and a population ten times its
size, some of it at ages and zips the sample lacks: every published class must match at least k
persons of the population, counted independently here (pandas) from the published labels alone
(a person matches a class when its zip lies under the published node and its age in the
published interval), equal to the release's population companion; k-map at k publishes finer
classes than k-anonymity at the same k; a population value outside the hierarchy is a SpecError
naming the column and the count of rows, never the value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from anonsql import api
from anonsql.algorithms.mondrian.evaluate import Bins, PartEvaluator
from anonsql.algorithms.mondrian.population import PopulationPoints
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.privacy.base import POPULATION_PERSONS
from anonsql.sql import TableName

SAMPLE = TableName("mkmap_sample", "main")
POPULATION = TableName("mkmap_population", "main")
ZIPS = [f"z{i}" for i in range(8)]
# z0..z7 under Z0..Z3 (pairs), under *
HIERARCHY = "".join(f"{z};Z{i // 2};*\n" for i, z in enumerate(ZIPS))
K = 12


def leaves_under(label: str) -> set[str]:
    if label == "*":
        return set(ZIPS)
    if label.startswith("Z"):
        pair = int(label[1:])
        return {ZIPS[2 * pair], ZIPS[2 * pair + 1]}
    return {label}


def age_bounds(label: Any) -> tuple[float, float]:
    text = str(label)
    if text.startswith("["):
        lo, hi = text.strip("[]").split(",")
        return float(lo), float(hi)
    return float(text), float(text)


def load(engine: Engine, *, stray: bool = False) -> None:
    rng = np.random.default_rng(7)
    zips = rng.choice(ZIPS[:6], 40)
    ages = rng.integers(20, 60, 40) // 2 * 2  # even ages only: odd ones lie between classes
    pop_zip = list(zips) + list(rng.choice(ZIPS, 160))
    pop_age = list(ages) + list(rng.integers(18, 64, 160))
    persons = [2] * 40 + list(rng.integers(1, 4, 160))
    if stray:
        pop_zip[-1] = "nowhere"
    engine.drop(SAMPLE)
    engine.drop(POPULATION)
    engine.load_arrow(
        SAMPLE,
        pa.table(
            {
                "zip": pa.array(zips.tolist()),
                "age": pa.array(ages.tolist(), pa.int32()),
                "note": [f"n{i}" for i in range(40)],
            }
        ),
    )
    engine.load_arrow(
        POPULATION,
        pa.table(
            {
                "zip": pa.array(pop_zip),
                "age": pa.array([int(a) for a in pop_age], pa.int32()),
                "persons": pa.array([int(p) for p in persons], pa.int64()),
            }
        ),
    )


def spec(tmp_path: Path, model: dict[str, Any], name: str) -> dict[str, Any]:
    (tmp_path / "zip.csv").write_text(HIERARCHY, encoding="utf-8")
    return {
        "source": str(SAMPLE),
        "output": {"schema": "anon", "name": name},
        "columns": {
            "zip": {"role": "quasi_identifier", "hierarchy": str(tmp_path / "zip.csv")},
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "note": {"role": "identifier"},
        },
        "privacy": [model],
        "algorithm": "mondrian",
    }


def kmap_model() -> dict[str, Any]:
    return {"k_map": {"k": K, "population": str(POPULATION), "count": "persons"}}


def matched_persons(engine: Engine, classes: pd.DataFrame) -> list[float]:
    """Per class (published zip and age labels), the population's persons it matches."""
    population = engine.query_arrow("select_all", relation=POPULATION).to_pandas()
    found = []
    for zip_label, age_label in classes[["zip", "age"]].itertuples(index=False):
        lo, hi = age_bounds(age_label)
        inside = population["zip"].isin(leaves_under(str(zip_label))) & population["age"].between(
            lo, hi
        )
        found.append(float(population.loc[inside, "persons"].sum()))
    return found


@pytest.mark.parametrize("split", ["loss", "widest"])
def test_release_matches_k_persons(engine: Engine, tmp_path: Path, split: str) -> None:
    load(engine)
    config = spec(tmp_path, kmap_model(), f"mkmap_{split}")
    config["algorithm"] = {"mondrian": {"split": split}}
    result = api.run(config, engine=engine)
    assert result.certificate["verified"]
    recorded = json.loads(result.certificate["search"])["population"]
    assert recorded["table"] == str(POPULATION) and recorded["rows"] == 200
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    assert len(frame) == 40
    classes = frame.groupby(["zip", "age"]).size().reset_index(name="rows")
    persons = matched_persons(engine, classes)
    assert min(persons) >= K
    # the release's population companion holds the same counts, class by class
    companion = engine.query_arrow(
        "select_all", relation=result.names.companion("population")
    ).to_pandas()
    got = {
        (str(z), str(a)): float(n)
        for z, a, n in companion[["zip", "age", POPULATION_PERSONS]].itertuples(index=False)
    }
    expected = {
        (str(z), str(a)): n
        for (z, a), n in zip(classes[["zip", "age"]].itertuples(index=False), persons, strict=True)
    }
    assert got == expected
    # some class holds fewer than K rows of the sample: k-map is not k-anonymity
    assert classes["rows"].min() < K
    # anonsql check on the release re-runs k-map's query against the companion
    assert api.check_output(engine, result.names.main).holds


def test_finer_than_k_anonymity(engine: Engine, tmp_path: Path) -> None:
    load(engine)
    kmap = api.run(spec(tmp_path, kmap_model(), "mkmap_fine"), engine=engine)
    kanon = api.run(spec(tmp_path, {"k_anonymity": {"k": K}}, "mkanon_fine"), engine=engine)
    assert kmap.partitioning.partitions > kanon.partitioning.partitions


def test_population_value_outside_the_hierarchy(engine: Engine, tmp_path: Path) -> None:
    load(engine, stray=True)
    with pytest.raises(SpecError) as caught:
        api.run(spec(tmp_path, kmap_model(), "mkmap_stray"), engine=engine)
    assert caught.value.key == "privacy.k_map.population.zip"
    assert "1 rows" in str(caught.value)
    assert "nowhere" not in str(caught.value)
    assert not engine.exists(TableName("mkmap_stray", "anon"))


def test_prefix_boxes_equal_unions() -> None:
    """The running boxes of pooled prefixes count the persons of the explicit unions' boxes,
    and a single bin's box those of its own range, against a brute-force count."""
    rng = np.random.default_rng(3)
    n_bins, n_points = 30, 200
    lo = {0: rng.integers(0, 50, n_bins).astype(np.float64)}
    hi = {0: lo[0] + rng.integers(0, 20, n_bins)}
    points = PopulationPoints(
        codes={0: rng.integers(0, 80, n_points).astype(np.float64)},
        persons=rng.integers(1, 5, n_points).astype(np.float64),
        first_leaf={},
        arrays={},
        source=POPULATION,
        count=None,
        records=n_points,
    )
    bins = Bins(
        pid=np.repeat(np.arange(3), 10),
        dim=np.zeros(n_bins, np.int64),
        bin=np.tile(np.arange(10), 3),
        counts=np.ones(n_bins, np.int64),
        histograms={},
        lo=lo,
        hi=hi,
    )
    evaluator = PartEvaluator([], [], population=points)
    order = rng.permutation(n_bins).astype(np.int64)
    starts = np.array([0, 7, 19], np.int64)
    prefix = evaluator.prefix_stats(bins, order, starts)
    segment = np.searchsorted(starts, np.arange(n_bins), side="right") - 1
    for i in range(n_bins):
        members = order[starts[segment[i]] : i + 1]
        low, high = lo[0][members].min(), hi[0][members].max()
        inside = (points.codes[0] >= low) & (points.codes[0] <= high)
        assert prefix.population is not None
        assert prefix.population[i] == points.persons[inside].sum()
    single = evaluator.bin_stats(bins, np.arange(n_bins))
    union = evaluator.union_stats(bins, np.arange(n_bins), np.arange(n_bins), n_bins)
    assert single.population is not None and union.population is not None
    assert np.array_equal(single.population, union.population)
