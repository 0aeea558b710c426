"""Bad 1:M declarations and data: clear errors that name the key and the fix, never a data
value, nothing published and the source untouched; hostile names work."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from helpers import snapshot, work_schemas
from one_to_many_fixtures import TABLE_1A, example_spec, load_table_1a, table_1a

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import SpecError
from anonsql.sql import TableName

SOURCE = TableName("visits", "main")


def _person_id(spec: dict[str, Any]) -> None:
    spec["person_id"] = "patient"


def _person_is_qid(spec: dict[str, Any]) -> None:
    spec["columns"]["pid"] = {"role": "quasi_identifier", "type": "numeric"}


def _record_level_model(spec: dict[str, Any]) -> None:
    spec["privacy"].append({"k_anonymity": {"k": 2}})


def _no_person_column(spec: dict[str, Any]) -> None:
    del spec["person_id"]


def _no_sa_hierarchy(spec: dict[str, Any]) -> None:
    spec["columns"]["disease"] = {"role": "sensitive", "acknowledge_linked": True}


def _two_fingerprint_columns(spec: dict[str, Any]) -> None:
    spec["columns"]["name"] = {
        "role": "sensitive",
        "acknowledge_linked": True,
        "hierarchy": {"builder": "mask"},
    }
    spec["privacy"].append({"fingerprint_k_anonymity": {"column": "name", "k": 2}})


def _mondrian(spec: dict[str, Any]) -> None:
    spec["algorithm"] = "mondrian"


def _suppression(spec: dict[str, Any]) -> None:
    spec["suppression_limit"] = 0.1


def _k_above_persons(spec: dict[str, Any]) -> None:
    spec["privacy"] = [{"kl_diversity": {"column": "disease", "k": 7, "l": 1}}]


def _join_unknown_table(spec: dict[str, Any]) -> None:
    spec["join"] = [{"table": "main.nowhere", "using": "pid"}]


def _join_key_missing(spec: dict[str, Any]) -> None:
    spec["join"] = [{"table": "main.extra", "using": "name"}]


def _join_ambiguous(spec: dict[str, Any]) -> None:
    spec["join"] = [{"table": "main.extra", "using": "pid"}]  # extra has a `zip` too


CASES: list[tuple[Callable[[dict[str, Any]], None], str, str]] = [
    (_person_id, "person_id", "not a column of the source"),
    (_person_is_qid, "columns.pid", "declared quasi_identifier"),
    (_record_level_model, "privacy[1].k_anonymity", "counted in persons"),
    (_no_person_column, "privacy[0].kl_diversity", "person_id"),
    (_no_sa_hierarchy, "columns.disease.hierarchy", "hierarchy"),
    (_two_fingerprint_columns, "privacy", "2 different sensitive columns"),
    (_mondrian, "algorithm", "one_to_many"),
    (_suppression, "privacy[0].kl_diversity", "suppression"),
    (_k_above_persons, "privacy[0].kl_diversity.k", "exceeds the 6 persons"),
    (_join_unknown_table, "join[0].table", "does not exist"),
    (_join_key_missing, "join[0].using[0]", "not a column of main.extra"),
    (_join_ambiguous, "columns.zip", "column of both"),
]


@pytest.mark.parametrize(("mutate", "key", "problem"), CASES, ids=[c[0].__name__ for c in CASES])
def test_bad_declarations(
    tmp_path: Path, mutate: Callable[[dict[str, Any]], None], key: str, problem: str
) -> None:
    with DuckDBEngine() as engine:
        load_table_1a(engine)
        engine.load_arrow(
            TableName("extra", "main"),
            pa.table({"pid": pa.array([1, 2], pa.int64()), "zip": ["x", "y"]}),
        )
        spec = example_spec(tmp_path)
        mutate(spec)
        before = snapshot(engine, SOURCE)
        with pytest.raises(SpecError) as err:
            api.run(spec, engine=engine)
        assert err.value.key == key, str(err.value)
        assert problem in str(err.value)
        assert "Fix:" in str(err.value)
        assert snapshot(engine, SOURCE) == before
        assert not engine.exists(TableName("visits", "anon"))
        assert work_schemas(engine) == []


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        ({"pid": None}, "person_id", "1 rows have NULL in the person column"),
        ({"disease": None}, "columns.disease", "1 rows have NULL in the sensitive column"),
        ({"disease": "z_9"}, "columns.disease.hierarchy", "1 distinct values (1 rows)"),
    ],
)
def test_bad_data(
    engine: Engine, tmp_path: Path, change: dict[str, Any], key: str, problem: str
) -> None:
    rows = [list(r) for r in TABLE_1A]
    columns = ["name", "pid", "age", "gender", "zip", "disease"]
    for column, value in change.items():
        rows[4][columns.index(column)] = value
    load_table_1a(engine, rows=[tuple(r) for r in rows])
    with pytest.raises(SpecError) as err:
        api.run(example_spec(tmp_path), engine=engine)
    assert err.value.key == key and problem in str(err.value)
    assert "z_9" not in str(err.value) and "b_2" not in str(err.value)
    assert work_schemas(engine) == []


def test_hostile_names(engine: Engine, tmp_path: Path) -> None:
    """Person, QID and sensitive columns named like SQL, with quotes and spaces."""
    names = {
        "pid": 'p"; DROP TABLE x; --',
        "age": "select",
        "gender": "gender\u00e9 'x'",
        "zip": "person",
        "disease": "fp",
    }
    table = table_1a().rename_columns(
        ["name", *(names[c] for c in ("pid", "age", "gender", "zip", "disease"))]
    )
    engine.load_arrow(SOURCE, table)
    spec = example_spec(tmp_path)
    spec["person_id"] = names["pid"]
    spec["columns"] = {names.get(c, c): v for c, v in spec["columns"].items()}
    spec["privacy"] = [{"kl_diversity": {"column": names["disease"], "k": 2, "l": 3}}]
    result = api.run(spec, engine=engine)
    assert result.certificate["verified"]
    assert result.metric("sa_ncp") == pytest.approx(80 / 3)
    assert api.check_output(engine, result.names.main).holds
    columns = [c.name for c in engine.columns(result.names.by_person) or []]
    assert columns == [names[c] for c in ("pid", "age", "gender", "zip", "disease")]
