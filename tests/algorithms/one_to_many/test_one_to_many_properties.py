"""Property: whatever the 1:M data, 1:M-Generalization publishes views that satisfy (k, l)-
diversity and consistency (re-checked independently with pandas), keep every source row and
person, and generalize truthfully; or the run refuses with InfeasibleError, and then the
whole table really cannot be l-diverse."""

from __future__ import annotations

import itertools
from pathlib import Path

import pandas as pd
import pyarrow as pa
from helpers import CITY_HIERARCHY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonsql import api
from anonsql.engines import DuckDBEngine
from anonsql.errors import InfeasibleError
from anonsql.sql import TableName

CITIES = [line.split(";")[0] for line in CITY_HIERARCHY.splitlines()]
CITY_PARENTS = {line.split(";")[0]: set(line.split(";")) for line in CITY_HIERARCHY.splitlines()}
ITEMS = {f"{g}{i}": {f"{g}{i}", g.upper(), "*"} for g in "abc" for i in range(1, 4)}
ITEM_HIERARCHY = "\n".join(f"{item};{item[0].upper()};*" for item in ITEMS) + "\n"
_counter = itertools.count()


@st.composite
def visits(draw: st.DrawFn) -> pd.DataFrame:
    persons = draw(st.integers(min_value=8, max_value=60))
    rows = []
    for person in range(persons):
        age = draw(st.integers(20, 40))
        city = draw(st.sampled_from(CITIES))
        items = draw(st.lists(st.sampled_from(sorted(ITEMS)), min_size=1, max_size=4))
        rows += [(f"p{person}", age, city, item) for item in items]
    return pd.DataFrame(rows, columns=["patient", "age", "city", "code"])


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=visits(), k=st.integers(1, 4), l=st.integers(1, 3))
def test_one_to_many_output_satisfies_the_models(
    data: pd.DataFrame, k: int, l: int, tmp_path: Path
) -> None:
    folder = tmp_path / f"case{next(_counter)}"
    folder.mkdir()
    (folder / "city.csv").write_text(CITY_HIERARCHY, encoding="utf-8")
    (folder / "code.csv").write_text(ITEM_HIERARCHY, encoding="utf-8")
    spec = {
        "source": "main.visits",
        "person_id": "patient",
        "output": {"schema": "anon", "name": "visits"},
        "columns": {
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": str(folder / "city.csv")},
            "code": {
                "role": "sensitive",
                "acknowledge_linked": True,
                "hierarchy": str(folder / "code.csv"),
            },
        },
        "privacy": [{"kl_diversity": {"column": "code", "k": k, "l": l}}],
    }
    with DuckDBEngine(":memory:") as engine:
        engine.load_arrow(TableName("visits", "main"), pa.Table.from_pandas(data))
        try:
            result = api.run(spec, engine=engine)
        except InfeasibleError as err:
            assert f"l = {l} is infeasible" in str(err)
            return
        rows = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
        persons = engine.query_arrow("select_all", relation=result.names.by_person).to_pandas()
        mapping = engine.query_arrow("select_all", relation=result.names.person_map).to_pandas()
    persons["fp"] = persons["code"].map(lambda items: tuple(sorted(items)))
    assert len(rows) == len(data) and len(persons) == data["patient"].nunique()
    assert persons.groupby("fp").size().min() >= k
    cells = persons.groupby(["age", "city", "fp"]).size()
    classes = cells.groupby(level=[0, 1])
    assert (classes.max() * l <= classes.sum()).all()
    assert (rows.groupby("patient")[["age", "city"]].nunique() == 1).all().all()
    # truthful: published values cover the originals, published items generalize the codes
    pseudonym = dict(zip(mapping["person_id"], mapping["person"], strict=True))
    released = persons.set_index("patient")
    for patient, age, city, code in data.itertuples(index=False):
        row = released.loc[pseudonym[patient]]
        lo, _, hi = str(row["age"]).strip("[]").partition(", ")
        assert float(lo) <= age <= float(hi or lo)
        assert row["city"] in CITY_PARENTS[city]
        assert len(set(row["fp"]) & ITEMS[code]) == 1
