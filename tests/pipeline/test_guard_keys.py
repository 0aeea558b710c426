"""The guard's key comparison: ``IS NOT DISTINCT FROM``, or on an engine that cannot hash that
operator (PostgreSQL) a typed ``COALESCE`` plus an is-null flag. Both forms must withhold the
same rows, NULL keys (and values equal to the NULL stand-in: '' and 0) included, and the
PostgreSQL form must let the planner hash the anti-join."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

from anonsql.engines import Engine
from anonsql.layouts.base import create_guarded_view, guard_params, null_stand_ins
from anonsql.privacy.k_anonymity import KAnonymity, KAnonymityParams
from anonsql.sql import TableName

KEYS = ["label", "code", "share", "flag"]
PERSON = "person"


def released() -> pa.Table:
    """Rows whose keys are NULL or the stand-in a NULL would be coalesced to, in classes of
    one and of two (k = 2 keeps only the classes of two)."""
    rows = [
        # (label, code, share, flag, person)
        (None, None, None, None, 1),  # all-NULL class of two
        (None, None, None, None, 2),
        ("", 0, 0.0, False, 3),  # the stand-ins themselves: a class of one, withheld
        (None, 0, 0.0, False, 4),  # NULL next to the stand-ins: a class of one, withheld
        ("", None, 0.0, False, 5),  # a class of one, withheld
        ("a", 1, 0.5, True, 6),  # class of two
        ("a", 1, 0.5, True, 7),
        ("a", 1, None, True, 8),  # one NULL differs from the class above: withheld
        ("b", 2, 1.5, None, 9),  # class of two with a NULL flag
        ("b", 2, 1.5, None, 10),
    ]
    columns = list(zip(*rows, strict=True))
    return pa.table(
        {
            "label": pa.array(columns[0], pa.string()),
            "code": pa.array(columns[1], pa.int64()),
            "share": pa.array(columns[2], pa.float64()),
            "flag": pa.array(columns[3], pa.bool_()),
            PERSON: pa.array(columns[4], pa.int64()),
        }
    )


def kept_people(engine: Engine, view: TableName) -> list[int]:
    table = engine.query_arrow("select_all", relation=view)
    return sorted(int(p) for p in table.column(PERSON).to_pylist())


def expected_people(data: pa.Table, k: int) -> list[int]:
    frame = data.to_pandas()
    sizes = frame.groupby(KEYS, dropna=False)[PERSON].transform("size")
    return sorted(int(p) for p in frame.loc[sizes >= k, PERSON])


@pytest.mark.parametrize("hashed", [False, True], ids=["not-distinct", "coalesce"])
def test_both_key_forms_withhold_exactly_the_violating_classes(
    engine: Engine, hashed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = released()
    relation = TableName("guard_keys", "main")
    view = TableName("guard_keys_view", "main")
    engine.load_arrow(relation, data)
    # each form on every engine: the template is shared, only the choice is the engine's
    monkeypatch.setattr(type(engine), "hashes_null_safe_joins", not hashed)
    try:
        if hashed:
            assert set(null_stand_ins(engine, relation, [*KEYS, PERSON])) == {*KEYS, PERSON}
        model = KAnonymity(KAnonymityParams(k=2))
        create_guarded_view(engine, view, relation, [model], KEYS, None)
        assert kept_people(engine, view) == expected_people(data, 2) == [1, 2, 6, 7, 9, 10]
    finally:
        engine.drop(view, view=True)
        engine.drop(relation)


def test_postgres_hashes_the_guard_anti_join(engine: Engine) -> None:
    if engine.hashes_null_safe_joins:
        pytest.skip("the engine hashes IS NOT DISTINCT FROM itself")
    data = released()
    relation = TableName("guard_plan", "main")
    engine.load_arrow(relation, data)
    try:
        # the guarded rows' own query (the view fences it in a function, whose plan EXPLAIN
        # does not show)
        params = guard_params(engine, relation, [KAnonymity(KAnonymityParams(k=2))], KEYS, None)
        rows = engine.sql.render("publish/guarded_rows", released=relation, **params)
        engine.execute("SET enable_nestloop = off")  # only a hash (or merge) join is left
        plan = "\n".join(str(r[0]) for r in engine.fetchall(f"EXPLAIN {rows}"))
        assert "Hash Anti Join" in plan or "Hash Right Anti Join" in plan, plan
    finally:
        engine.execute("RESET enable_nestloop")
        engine.drop(relation)


def test_stand_ins_skip_types_without_one(engine: Engine) -> None:
    relation = TableName("guard_types", "main")
    engine.load_arrow(
        relation,
        pd.DataFrame({"label": ["x"], "when": pd.to_datetime(["2020-01-01"])}).pipe(
            pa.Table.from_pandas, preserve_index=False
        ),
    )
    try:
        assert null_stand_ins(engine, relation, ["label", "when"]) == {"label": ""}
    finally:
        engine.drop(relation)
