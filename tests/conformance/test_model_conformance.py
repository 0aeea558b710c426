"""Every registered privacy model, held to its own declarations on every engine.

For each model of the registry and each of its ``examples``, on random tables (hostile column
names, NULL quasi-identifiers, several rows per person), the number of rows its SQL violation
query (rendered by the model ``prepared`` for the table) returns equals what its Python predicate
says: the classes where ``holds`` fails plus its ``table_violations`` and, for a table-level
model, its ``table_level_violations`` (one row when the table violates it). A model that
``requires`` a population gets one built here (the table's rows and every other one again, as
``main.population``), and one that reads the sensitive values' text gets it. The statistics the
predicate sees are built here with pandas, independently of anonsql's SQL: rows per class for
models that count rows, persons per class (and their SA fingerprints) for models that count
persons. A model added to the registry (or through an entry point) is picked up with no edit
here.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import model_checks
import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pytest
from engine_configs import CONFIGS
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from anonsql.arrays import FloatArray
from anonsql.engines import Engine
from anonsql.privacy import PRIVACY_MODELS, PartStats, PrivacyModel
from anonsql.sql import TableName

QIDS = ['zip "code"', "select", "ünïcødé 名前"]
SA = "it's; DROP TABLE t; --"
PERSON = "per son"
_tables = itertools.count()


def instances(name: str, sa_type: str) -> list[PrivacyModel]:
    return model_checks.instances(name, SA, sa_type)


@st.composite
def person_tables(draw: st.DrawFn, *, null_sa: bool) -> pd.DataFrame:
    """Rows of persons: each person has one QID vector and 1-3 rows with an SA value each."""
    n_qids = draw(st.integers(1, 3))
    persons = draw(st.integers(1, 14))
    domains: list[list[int | str]] = [[10, 20, 30, 40], ["a", "B", "é", "z z"]]
    values = draw(st.sampled_from(domains))
    sa_values = (
        st.one_of(st.none(), st.sampled_from(values)) if null_sa else st.sampled_from(values)
    )
    rows = []
    for person in range(persons):
        vector = [draw(st.sampled_from([0, 1, 2, None])) for _ in range(n_qids)]
        for _ in range(draw(st.integers(1, 3))):
            rows.append([f"p{person}", *vector, draw(sa_values)])
    frame = pd.DataFrame(rows, columns=[PERSON, *QIDS[:n_qids], SA], dtype=object)
    frame.attrs["sa_type"] = "INTEGER" if isinstance(values[0], int) else "VARCHAR"
    return frame


def load(engine: Engine, frame: pd.DataFrame) -> TableName:
    relation = TableName(f"conform{next(_tables)}")
    columns = {c: pa.array(list(frame[c])) for c in frame.columns}
    engine.load_arrow(relation, pa.table(columns))
    return relation


POPULATION = TableName("population", "main")


def population_of(frame: pd.DataFrame, qids: list[str]) -> pd.DataFrame:
    """A population containing the sample: its rows, and every other row once more."""
    return pd.concat([frame[qids], frame[qids].iloc[::2]], ignore_index=True)


def expected_violations(
    frame: pd.DataFrame, qids: list[str], model: PrivacyModel, population: pd.DataFrame | None
) -> int:
    return model_checks.predicate_violations(
        frame, qids, model, sa=SA, person=PERSON, population=population
    )


def sql_violations(
    engine: Engine, relation: TableName, qids: list[str], model: PrivacyModel
) -> int:
    person = PERSON if model.counts_persons else None
    ready = model.prepared(engine, relation, qids)
    return engine.count_query_rows(ready.violations_sql(engine.sql, relation, qids, person=person))


def load_population(
    engine: Engine, frame: pd.DataFrame, qids: list[str], models: list[PrivacyModel]
) -> pd.DataFrame | None:
    """The population table of models that require one (none otherwise)."""
    if not any("population" in m.requires for m in models):
        return None
    population = population_of(frame, qids)
    engine.drop(POPULATION)
    engine.load_arrow(POPULATION, pa.table({c: pa.array(list(population[c])) for c in qids}))
    return population


def grouped_violations(
    engine: Engine, relation: TableName, qids: list[str], model: PrivacyModel
) -> int:
    """A weighted model's violations on the rows grouped as the publish step groups them
    (``publish/refined``, finer than its classes: by the person too), read through the
    grouping's weights (:class:`~anonsql.privacy.check.Grouping`)."""
    grouping = TableName(f"{relation.name}_grouped")
    engine.run(
        "publish/refined",
        target=grouping,
        relation=relation,
        columns=[*qids, SA, PERSON],
        working_table="",
    )
    try:
        sql = model.violations_sql(engine.sql, grouping, qids, weight="__anonsql_rows")
        return engine.count_query_rows(sql)
    finally:
        engine.drop(grouping)


def check_model(engine: Engine, name: str, frame: pd.DataFrame) -> None:
    qids = [c for c in frame.columns if c in QIDS]
    models = instances(name, str(frame.attrs["sa_type"]))
    if not models:
        return
    relation = load(engine, frame)
    population = load_population(engine, frame, qids, models)
    try:
        for model in models:
            found = sql_violations(engine, relation, qids, model)
            expected = expected_violations(frame, qids, model, population)
            assert found == expected, model.describe()
            if model.weighted:
                grouped = grouped_violations(engine, relation, qids, model)
                assert grouped == expected, f"{model.describe()} on the grouped rows"
    finally:
        engine.drop(relation)
        engine.drop(POPULATION)


@pytest.mark.parametrize("name", PRIVACY_MODELS.names())
def test_sql_query_agrees_with_predicate(engine: Engine, name: str) -> None:
    cls = PRIVACY_MODELS.get(name)
    # fingerprints are sets of items; a missing item is not part of one (the pipeline refuses it)
    tables = person_tables(null_sa=not cls.reads_fingerprints)

    @settings(
        max_examples=CONFIGS[engine.name].examples,
        phases=[p for p in Phase if CONFIGS[engine.name].shrink or p is not Phase.shrink],
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        derandomize=True,
    )
    @given(frame=tables)
    def check(frame: pd.DataFrame) -> None:
        check_model(engine, name, frame)

    check()


@pytest.mark.parametrize("name", PRIVACY_MODELS.names())
def test_declarations(name: str) -> None:
    """Registered under its own name, documented, with examples whose parameters validate."""
    cls = PRIVACY_MODELS.get(name)
    assert cls.name == name
    assert cls.reference, f"{name}: cite the paper in `reference`"
    assert cls.__doc__, f"{name}: document the model"
    assert instances(name, "INTEGER") or instances(name, "VARCHAR")
    if cls.needs_person:
        assert cls.counts_persons, f"{name} reads a person column but counts rows"
    if cls.reads_fingerprints:
        assert cls.counts_persons and cls.needs_sensitive


def _holds_all(model: PrivacyModel, stats: PartStats) -> Mapping[str, Any]:
    return {"holds": model.holds(stats).tolist()}


@pytest.mark.parametrize("name", PRIVACY_MODELS.names())
def test_monotonic_models_hold_on_unions(name: str) -> None:
    """A model that declares itself monotonic holds on the union of parts it holds on."""
    cls = PRIVACY_MODELS.get(name)
    if not cls.monotonic:
        pytest.skip(f"{name} declares itself non-monotonic")
    rng = np.random.default_rng(0)
    for model in instances(name, "INTEGER"):
        if model_checks.reads_records(model):
            _check_unions_of_individuals(model, rng)
            continue
        for _ in range(40):
            histogram = rng.integers(0, 4, size=(int(rng.integers(2, 6)), 4)).astype(np.int64)
            totals = histogram.sum(axis=0) + 1
            population: FloatArray = np.asarray(
                rng.integers(0, 8, size=histogram.shape[0]), dtype=np.float64
            )
            values: dict[str, tuple[str | None, ...]] = (
                {SA: tuple(str(v) for v in range(4))} if model.needs_sensitive else {}
            )
            stats = PartStats(
                counts=histogram.sum(axis=1),
                histograms={SA: histogram} if model.needs_sensitive else {},
                global_counts={SA: totals} if model.needs_sensitive else {},
                population=population,
                values=values,
            )
            held = model.holds(stats)
            if held.sum() < 2:
                continue
            union = histogram[held].sum(axis=0, keepdims=True)
            merged = PartStats(
                counts=union.sum(axis=1),
                histograms={SA: union} if model.needs_sensitive else {},
                global_counts={SA: totals} if model.needs_sensitive else {},
                population=population[held].sum(keepdims=True),
                values=values,
            )
            assert model.holds(merged)[0], (model.describe(), _holds_all(model, stats))


def _check_unions_of_individuals(model: PrivacyModel, rng: np.random.Generator) -> None:
    """The same for models over individuals owning several records: random classes of persons
    (1-3 rows each), the classes the model holds on merged into one (for a model judged on
    count-refined classes, the count-refined classes it holds on)."""
    refined = any(b.kind == "record_count_refinement" for b in model.bounds())

    def class_ids(frame: pd.DataFrame) -> npt.NDArray[np.integer[Any]]:
        """The classes as the stats builder numbers them."""
        keys = frame[["cls", PERSON]].copy()
        if refined:
            keys["rows"] = keys.groupby(["cls", PERSON])[PERSON].transform("size")
        return (
            keys.groupby([c for c in keys.columns if c != PERSON], sort=False).ngroup().to_numpy()
        )

    for _ in range(40):
        rows = [
            [f"p{p}", int(cls), int(rng.integers(0, 5))]
            for p, cls in enumerate(rng.integers(0, 5, size=int(rng.integers(4, 16))))
            for _ in range(int(rng.integers(1, 4)))
        ]
        frame = pd.DataFrame(rows, columns=[PERSON, "cls", SA])
        stats = model_checks.individual_stats(frame, ["cls"], model, sa=SA, person=PERSON)
        held = model.holds(stats)
        if held.sum() < 2:
            continue
        moved = held[class_ids(frame)]
        merged = frame.assign(cls=np.where(moved, -1, frame["cls"]))
        after = model_checks.individual_stats(merged, ["cls"], model, sa=SA, person=PERSON)
        unions = np.unique(class_ids(merged)[moved])
        assert model.holds(after)[unions].all(), model.describe()


@pytest.mark.parametrize("name", PRIVACY_MODELS.names())
def test_guard_leaves_a_relation_that_satisfies_the_model(engine: Engine, name: str) -> None:
    """The live views' guard, built from the model's own violation query and its declared
    ``guard`` key, withholds what violates and leaves a relation on which the model holds."""
    from anonsql.layouts.base import create_guarded_view

    cls = PRIVACY_MODELS.get(name)
    tables = person_tables(null_sa=not cls.reads_fingerprints)

    @settings(
        max_examples=min(10, CONFIGS[engine.name].examples),
        phases=[p for p in Phase if CONFIGS[engine.name].shrink or p is not Phase.shrink],
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        derandomize=True,
    )
    @given(frame=tables)
    def check(frame: pd.DataFrame) -> None:
        qids = [c for c in frame.columns if c in QIDS]
        relation = load(engine, frame)
        models = instances(name, str(frame.attrs["sa_type"]))
        load_population(engine, frame, qids, models)
        try:
            for model in models:
                person = PERSON if model.counts_persons else None
                view = relation.with_name(relation.name + "_guarded")
                # as the layout publishes it: bound to the released rows (prepared)
                ready = model.prepared(engine, relation, qids)
                create_guarded_view(engine, view, relation, [ready], qids, person)
                try:
                    assert sql_violations(engine, view, qids, model) == 0, model.describe()
                    if sql_violations(engine, relation, qids, model) == 0:
                        assert engine.count_rows(view) == len(frame), "withheld while it holds"
                finally:
                    engine.drop(view, view=True)
        finally:
            engine.drop(relation)
            engine.drop(POPULATION)

    check()
