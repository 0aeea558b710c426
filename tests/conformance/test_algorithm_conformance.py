"""Every registered algorithm, with every privacy model it accepts, on every engine.

For each algorithm of the registry and each registered model whose kind of data matches (rows,
or persons for 1:M algorithms) and which the algorithm does not refuse by the model's
declarations, a run publishes a verified release whose classes satisfy the model by the model's
own predicate, recomputed with pandas from the published rows (a model requiring a population
reads ``main.population``, the records and every other one again, and is judged against the
population the release publishes generalized as its rows); no row or person is lost; and
the same spec gives the same release twice and on every engine. An algorithm or model added to
the registries (or through entry points) is picked up with no edit here.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import model_checks
import pandas as pd
import pyarrow as pa
import pytest
from engine_configs import CONFIGS, on_session_engines, selected
from helpers import CITY_HIERARCHY

from anonsql import api
from anonsql.algorithms import ALGORITHMS
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.privacy import PRIVACY_MODELS, PrivacyModel
from anonsql.privacy.base import POPULATION_PERSONS
from anonsql.sql import TableName

CITIES = [line.split(";")[0] for line in CITY_HIERARCHY.splitlines()]
ITEMS = [f"{g}{i}" for g in "abc" for i in range(1, 4)]
ITEM_HIERARCHY = "\n".join(f"{item};{item[0].upper()};*" for item in ITEMS) + "\n"
#: Sensitive columns of the data by type; a model reads the first its column check accepts.
SENSITIVE = {"disease": "VARCHAR", "level": "INTEGER"}
_outputs = itertools.count()


def records(n: int = 240, seed: int = 3) -> pa.Table:
    rng = random.Random(seed)
    return pa.table(
        {
            "age": [rng.randint(20, 70) for _ in range(n)],
            "city": [rng.choice(CITIES) for _ in range(n)],
            "disease": [rng.choice(["flu", "cold", "asthma", "ulcer", "gout"]) for _ in range(n)],
            "level": [rng.randint(1, 6) for _ in range(n)],
        }
    )


def visits(persons: int = 80, seed: int = 5) -> pa.Table:
    """1:M data: each person one (age, city) and 1-3 rows with an item each."""
    rng = random.Random(seed)
    rows = []
    for p in range(persons):
        age, city = rng.randint(20, 60), rng.choice(CITIES)
        for item in rng.sample(ITEMS, rng.randint(1, 3)):
            rows.append((f"p{p}", age, city, item))
    names = ("patient", "age", "city", "code")
    return pa.table({name: [r[i] for r in rows] for i, name in enumerate(names)})


def combinations() -> list[tuple[str, str]]:
    found = []
    for algorithm in ALGORITHMS.names():
        person_level = ALGORITHMS.get(algorithm).person_level
        for model in PRIVACY_MODELS.names():
            if PRIVACY_MODELS.get(model).counts_persons == person_level:
                found.append((algorithm, model))
    return found


def strongest(name: str, person_level: bool) -> tuple[PrivacyModel, str | None]:
    """The model's last example that fits a sensitive column of the data (and that column)."""
    cls = PRIVACY_MODELS.get(name)
    if not cls.needs_sensitive:
        return model_checks.instances(name, "unused", "INTEGER")[-1], None
    columns = {"code": "VARCHAR"} if person_level else SENSITIVE
    for column, sa_type in columns.items():
        found = model_checks.instances(name, column, sa_type)
        if found:
            return found[-1], column
    pytest.fail(f"no example of {name} fits the conformance data")


def spec_for(folder: Path, algorithm: str, model: PrivacyModel) -> dict[str, Any]:
    (folder / "city.csv").write_text(CITY_HIERARCHY, encoding="utf-8")
    (folder / "code.csv").write_text(ITEM_HIERARCHY, encoding="utf-8")
    person_level = ALGORITHMS.get(algorithm).person_level
    columns: dict[str, Any] = {
        "age": {"role": "quasi_identifier", "type": "numeric"},
        "city": {"role": "quasi_identifier", "hierarchy": str(folder / "city.csv")},
    }
    if person_level:
        columns["code"] = {
            "role": "sensitive",
            "acknowledge_linked": True,
            "hierarchy": str(folder / "code.csv"),
        }
    else:
        columns.update({c: {"role": "sensitive", "acknowledge_linked": True} for c in SENSITIVE})
    spec: dict[str, Any] = {
        "source": "main.visits" if person_level else "main.records",
        "output": {"schema": "anon", "name": f"out{next(_outputs)}"},
        "columns": columns,
        "privacy": [{model.name: model.parameters()}],
        "algorithm": algorithm,
    }
    if person_level:
        spec["person_id"] = "patient"
    return spec


def load_data(engine: Engine) -> None:
    engine.load_arrow(TableName("records", "main"), records())
    engine.load_arrow(TableName("visits", "main"), visits())


def load_population(engine: Engine) -> None:
    """``main.population``: the records' QIDs, and every other record's once more."""
    rows = records()
    population = pa.concat_tables([rows, rows.take(list(range(0, rows.num_rows, 2)))])
    engine.load_arrow(TableName("population", "main"), population.select(["age", "city"]))


def released_population(engine: Engine, relation: TableName) -> pd.DataFrame:
    """The release's generalized population, one row per person."""
    frame = published(engine, relation)
    return frame.loc[frame.index.repeat(frame[POPULATION_PERSONS].astype(int))].reset_index()


def published(engine: Engine, relation: TableName) -> pd.DataFrame:
    frame: pd.DataFrame = engine.query_arrow("select_all", relation=relation).to_pandas()
    return frame


def accepted(algorithm: str, model: PrivacyModel) -> bool:
    try:
        ALGORITHMS.get(algorithm).from_spec({}).check_models([model])
    except SpecError:
        return False
    return True


@pytest.mark.parametrize(("algorithm", "model_name"), combinations())
def test_release_satisfies_the_model(
    engine: Engine, tmp_path: Path, algorithm: str, model_name: str
) -> None:
    person_level = ALGORITHMS.get(algorithm).person_level
    model, sa = strongest(model_name, person_level)
    if not accepted(algorithm, model):
        pytest.skip(f"{algorithm} declares it cannot enforce {model_name}")
    load_data(engine)
    reads_population = "population" in model.requires
    if reads_population:
        load_population(engine)
    result = api.run(spec_for(tmp_path, algorithm, model), engine=engine)
    assert result.certificate["verified"]
    rows = published(engine, result.names.main)
    person = "patient" if person_level else None
    qids = ["age", "city"]
    population = (
        released_population(engine, result.names.companion("population"))
        if reads_population
        else None
    )
    violations = model_checks.predicate_violations(
        rows, qids, model, sa=sa, person=person, population=population
    )
    assert violations == 0
    source_rows = len(visits()) if person_level else len(records())
    assert len(rows) + int(result.certificate["suppressed_rows"]) == source_rows
    if not person_level:
        # the class table is grouped from the rows before the guard (Layout.unguarded): the
        # guard must withhold none of a verified release's rows
        assert len(rows) == int(result.certificate["published_rows"])
    if person_level:
        assert rows["patient"].nunique() == visits().column("patient").to_pandas().nunique()


def _sorted_rows(frame: pd.DataFrame, pseudonym: str | None) -> list[tuple[Any, ...]]:
    if pseudonym is not None:
        frame = frame.drop(columns=[pseudonym])
    return sorted(map(tuple, frame.astype(str).itertuples(index=False)))


@pytest.mark.parametrize("algorithm", ALGORITHMS.names())
@on_session_engines
def test_same_release_twice_and_on_every_engine(
    algorithm: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Deterministic (two runs on DuckDB) and identical on every engine of the session
    (opt-in engines such as Spark in their own session: ``make test-spark-all``)."""
    person_level = ALGORITHMS.get(algorithm).person_level
    name = "person_k_anonymity" if person_level else "k_anonymity"
    model = PRIVACY_MODELS.get(name).from_spec({"k": 3}, key="k")
    pseudonym = "patient" if person_level else None
    releases = []
    engines = ["duckdb", *(kind for kind in selected() if kind != "duckdb")]
    for kind in [engines[0], *engines]:
        engine = CONFIGS[kind].open(request)
        try:
            load_data(engine)
            spec = spec_for(tmp_path, algorithm, model)
            spec["output"]["name"] = "same"
            result = api.run(spec, engine=engine)
            metrics = sorted((m.name, m.attribute or "", round(m.value, 9)) for m in result.metrics)
            rows = _sorted_rows(published(engine, result.names.main), pseudonym)
            releases.append((kind, rows, metrics))
        finally:
            engine.close()
    first = releases[0]
    for kind, rows, metrics in releases[1:]:
        assert rows == first[1], f"{algorithm}: {kind} published other rows"
        assert metrics == first[2], f"{algorithm}: {kind} measured other metrics"
