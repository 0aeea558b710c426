"""Privacy models beyond k-anonymity: l-diversity (distinct, entropy, recursive) and t-closeness.

Hand-built fixtures with known answers (including the papers' worked examples), parameter
validation, and a property test that the SQL violation query and the vectorized predicate agree.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.privacy import (
    PRIVACY_MODELS,
    DataProfile,
    DistinctLDiversity,
    EntropyLDiversity,
    PartStats,
    PrivacyModel,
    RecursiveCLDiversity,
    TCloseness,
)
from anonsql.sql import SqlRenderer, TableName

Key = tuple[Any, ...]

HOSTILE_QIDS = ['zip "code"', "semi; colon -- x", "select", "ünïcødé 名前", "n", "class_size"]
HOSTILE_SA = "it's; DROP TABLE t; --"

_tables = itertools.count()


def model(name: str, **params: Any) -> PrivacyModel:
    return PRIVACY_MODELS.get(name).from_spec(params, key=f"privacy[0].{name}")


def load(engine: Engine, columns: Mapping[str, Sequence[Any]]) -> TableName:
    relation = TableName(f"t{next(_tables)}")
    engine.load_arrow(relation, pa.table(columns))
    return relation


def sql_violations(
    engine: Engine, m: PrivacyModel, relation: TableName, qids: Sequence[str]
) -> dict[Key, tuple[Any, ...]]:
    """Violating classes -> the statistics the query reports for them."""
    rows = engine.fetchall(m.violations_sql(engine.sql, relation, qids))
    return {row[: len(qids)]: row[len(qids) :] for row in rows}


def part_stats(
    columns: Mapping[str, Sequence[Any]], qids: Sequence[str], sa: str
) -> tuple[list[Key], PartStats]:
    """Classes of a table and their PartStats, built with pandas independently of the SQL.

    SA codes number the distinct values in ascending order, NULL last, as the pipeline does.
    """
    frame = pd.DataFrame({c: pd.Series(list(v), dtype=object) for c, v in columns.items()})
    class_ids = frame.groupby(list(qids), dropna=False, sort=False).ngroup().to_numpy()
    firsts = pd.Series(np.arange(len(frame))).groupby(class_ids).first().to_numpy()
    keys = [tuple(columns[q][i] for q in qids) for i in firsts]
    values = sorted({v for v in columns[sa] if v is not None})
    codes = pd.Categorical(frame[sa], categories=values).codes.astype(np.int64)
    has_null = bool((codes < 0).any())
    codes[codes < 0] = len(values)
    width = len(values) + int(has_null)
    histogram = np.zeros((len(keys), width), dtype=np.int64)
    np.add.at(histogram, (class_ids, codes), 1)
    stats = PartStats(
        counts=histogram.sum(axis=1),
        histograms={sa: histogram},
        global_counts={sa: np.bincount(codes, minlength=width).astype(np.int64)},
    )
    return keys, stats


def python_violations(
    m: PrivacyModel, columns: Mapping[str, Sequence[Any]], qids: Sequence[str], sa: str
) -> set[Key]:
    keys, stats = part_stats(columns, qids, sa)
    holds = m.holds(stats)
    return {k for k, ok in zip(keys, holds, strict=True) if not ok}


def histogram_stats(rows: list[list[int]], global_counts: list[int] | None = None) -> PartStats:
    histogram = np.array(rows, dtype=np.int64)
    totals = np.array(global_counts, dtype=np.int64) if global_counts else histogram.sum(axis=0)
    return PartStats(
        counts=histogram.sum(axis=1),
        histograms={"sa": histogram},
        global_counts={"sa": totals},
    )


def classes_table(
    classes: dict[str, list[Any]], qid: str = "qid", sa: str = "sa"
) -> dict[str, list[Any]]:
    """One QID column naming the class and one SA column, from {class: [SA values]}."""
    return {
        qid: [name for name, values in classes.items() for _ in values],
        sa: [v for values in classes.values() for v in values],
    }


# -- hand-built fixtures --------------------------------------------------------------------


def check_both(
    engine: Engine, m: PrivacyModel, columns: dict[str, list[Any]], qids: Sequence[str], sa: str
) -> dict[Key, tuple[Any, ...]]:
    """The SQL violations, after asserting the predicate finds the same classes."""
    found = sql_violations(engine, m, load(engine, columns), qids)
    assert set(found) == python_violations(m, columns, qids, sa)
    return found


def check_classes(
    engine: Engine, table: dict[str, list[Any]], name: str, **params: Any
) -> dict[Key, tuple[Any, ...]]:
    """check_both on a ``classes_table``."""
    return check_both(engine, model(name, column="sa", **params), table, ["qid"], "sa")


def test_distinct_l_diversity_counts_null_as_a_value(engine: Engine) -> None:
    table = classes_table(
        {"a": ["flu", "flu", "cold"], "b": ["flu", None], "c": ["flu", "flu"], "d": [None, None]}
    )
    found = check_classes(engine, table, "distinct_l_diversity", l=2)
    assert found == {("c",): (2, 1), ("d",): (2, 1)}
    found = check_classes(engine, table, "distinct_l_diversity", l=3)
    assert set(found) == {("a",), ("b",), ("c",), ("d",)}


def test_l_diversity_inpatient_example(engine: Engine) -> None:
    """Classes of 4 rows with condition counts [2, 1, 1], as in the l-diversity paper's
    3-diverse inpatient table."""
    table = classes_table(
        {
            "1305*": ["heart", "viral", "cancer", "cancer"],
            "1485*": ["cancer", "heart", "viral", "viral"],
            "1306*": ["cancer", "cancer", "cancer", "heart"],
        }
    )
    ok, bad3, bad13 = ("1305*",), ("1485*",), ("1306*",)

    found = check_classes(engine, table, "distinct_l_diversity", l=3)
    assert found == {bad13: (4, 2)}

    # H([2,1,1] / 4) = 1.5 log 2 ~ 1.0397: below log 3, above log 2.8.
    found = check_classes(engine, table, "entropy_l_diversity", l=3.0)
    assert set(found) == {ok, bad3, bad13}
    assert found[ok][1] == pytest.approx(1.5 * math.log(2))
    found = check_classes(engine, table, "entropy_l_diversity", l=2.8)
    assert set(found) == {bad13}
    assert found[bad13][1] == pytest.approx(-(0.75 * math.log(0.75) + 0.25 * math.log(0.25)))

    # Recursive (c, 3) on [2, 1, 1]: 2 < c * 1 holds for c = 3, not for c = 2.
    found = check_classes(engine, table, "recursive_cl_diversity", c=3, l=3)
    assert found == {bad13: (4, 2, 3, 0)}
    found = check_classes(engine, table, "recursive_cl_diversity", c=2, l=3)
    assert found == {ok: (4, 3, 2, 1), bad3: (4, 3, 2, 1), bad13: (4, 2, 3, 0)}


@pytest.mark.parametrize(
    ("counts", "c", "l", "holds"),
    [
        ([3, 1, 1], 2.0, 2, True),  # 3 < 2 * (1 + 1)
        ([3, 1, 1], 2.0, 3, False),  # 3 < 2 * 1 fails
        ([4, 1, 1], 2.0, 2, False),  # a tie, 4 < 4, is a violation
        ([2, 1], 2.0, 2, False),
        ([2, 1], 2.5, 2, True),
        ([5], 10.0, 1, True),  # l = 1: r1 < c * r1
        ([3] * 11, 0.1, 2, False),  # 3 < 0.1 * 30 is a tie
        ([55, 50], 1.1, 2, False),  # a tie although 1.1 * 50 > 55 in floats
        ([2, 2, 2], 1.0, 3, False),
        ([2, 2, 2], 1.5, 3, True),
        ([1, 1], 5.0, 3, False),  # fewer than l values
    ],
)
def test_recursive_cl_diversity_cases(
    engine: Engine,
    counts: list[int],
    c: float,
    l: int,
    holds: bool,
) -> None:
    values = [f"v{i}" for i, n in enumerate(counts) for _ in range(n)]
    table = classes_table({"x": values})
    m = model("recursive_cl_diversity", column="sa", c=c, l=l)
    found = check_both(engine, m, table, ["qid"], "sa")
    assert (found == {}) is holds


def test_entropy_boundary_is_inclusive(engine: Engine) -> None:
    """A uniform class over l values has entropy exactly log l, which satisfies entropy l."""
    table = classes_table({"two": ["a", "b"], "three": ["a", "b", None], "skew": ["a", "a", "b"]})
    found = check_classes(engine, table, "entropy_l_diversity", l=2.0)
    assert set(found) == {("skew",)}
    found = check_classes(engine, table, "entropy_l_diversity", l=3.0)
    assert set(found) == {("two",), ("skew",)}


SALARY = {"A": [3, 4, 5], "B": [6, 8, 11], "C": [7, 9, 10]}


@pytest.mark.parametrize(
    ("distance", "emd"),
    [
        # Li et al., ICDE 2007, Section 4.3: D[P1, Q] = 0.375 and D[P2, Q] = 0.167.
        ("ordered", {"A": 0.375, "B": 12 / 72, "C": 17 / 72}),
        ("equal", {"A": 2 / 3, "B": 2 / 3, "C": 2 / 3}),
    ],
)
def test_t_closeness_salary_example(engine: Engine, distance: str, emd: dict[str, float]) -> None:
    table = classes_table(SALARY)
    m = model("t_closeness", column="sa", t=0.0, distance=distance)
    found = check_both(engine, m, table, ["qid"], "sa")
    assert {k[0]: v[1] for k, v in found.items()} == pytest.approx(emd)
    for t in (0.2, 0.3, 0.5, 0.7):
        m = model("t_closeness", column="sa", t=t, distance=distance)
        found = check_both(engine, m, table, ["qid"], "sa")
        assert {k[0] for k in found} == {name for name, d in emd.items() if d > t}


def test_t_closeness_ordered_puts_null_last(engine: Engine) -> None:
    table = classes_table({"a": [1, 1], "b": [2, None], "c": [None, None]})
    # Order (1, 2, NULL), Q = [2, 1, 3] / 6. With NULL first, class a would be at 1/3.
    found = check_classes(engine, table, "t_closeness", t=0.0, distance="ordered")
    emd = {"a": 7 / 12, "b": 1 / 6, "c": 5 / 12}
    assert {k[0]: v[1] for k, v in found.items()} == pytest.approx(emd)


def test_t_closeness_single_value_domain(engine: Engine) -> None:
    table = classes_table({"a": ["x"], "b": ["x", "x"]})
    for distance in ("equal", "ordered"):
        m = model("t_closeness", column="sa", t=0.0, distance=distance)
        assert check_both(engine, m, table, ["qid"], "sa") == {}


ALL_MODELS: list[tuple[str, dict[str, Any]]] = [
    ("distinct_l_diversity", {"l": 2}),
    ("entropy_l_diversity", {"l": 1.8}),
    ("recursive_cl_diversity", {"c": 2.0, "l": 2}),
    ("t_closeness", {"t": 0.45, "distance": "equal"}),
    ("t_closeness", {"t": 0.3, "distance": "ordered"}),
]


@pytest.mark.parametrize(("name", "params"), ALL_MODELS)
def test_hostile_names_and_null_qids(engine: Engine, name: str, params: dict[str, Any]) -> None:
    """Quotes, semicolons, keywords, unicode and the queries' own column names as QIDs and SA."""
    a, b, *rest = HOSTILE_QIDS
    rows = [
        ("x", None, "q", "flu"),
        ("x", None, "q", "cold"),
        ("x", None, "q", None),
        ("x", 1, "q", "flu"),
        ("x", 1, "q", "flu"),
        (None, 1, None, "cold"),
        (None, 1, None, "flu"),
        (None, None, None, "flu"),
        ("y", 2, "é", None),
        ("y", 2, "é", "asthma"),
        ("y", 2, "é", "asthma"),
        ("y", 2, "é", "asthma"),
    ]
    qids = [a, b, rest[0]]
    columns: dict[str, list[Any]] = {
        col: [row[i] for row in rows] for i, col in enumerate([*qids, HOSTILE_SA])
    }
    m = model(name, column=HOSTILE_SA, **params)
    found = check_both(engine, m, columns, qids, HOSTILE_SA)
    assert 0 < len(found) < 5
    for extra in rest[1:]:
        columns2 = {**columns, extra: columns[a]}
        qids2 = [extra, b, rest[0]]
        assert set(check_both(engine, m, columns2, qids2, HOSTILE_SA)) == set(found)


@pytest.mark.parametrize(("name", "params"), ALL_MODELS)
def test_queries_transpile_to_postgres(name: str, params: dict[str, Any]) -> None:
    m = model(name, column=HOSTILE_SA, **params)
    sql = m.violations_sql(SqlRenderer("postgres"), TableName("t", "s"), HOSTILE_QIDS)
    assert "QUALIFY" not in sql.upper()


# -- parameters -----------------------------------------------------------------------------


def test_registered() -> None:
    assert PRIVACY_MODELS.get("distinct_l_diversity") is DistinctLDiversity
    assert PRIVACY_MODELS.get("entropy_l_diversity") is EntropyLDiversity
    assert PRIVACY_MODELS.get("recursive_cl_diversity") is RecursiveCLDiversity
    assert PRIVACY_MODELS.get("t_closeness") is TCloseness
    for cls in (DistinctLDiversity, EntropyLDiversity, RecursiveCLDiversity, TCloseness):
        assert cls.needs_sensitive and cls.monotonic and cls.reference


def test_every_registered_model_is_named_as_its_class() -> None:
    """The registry imports a model's module when a spec names it: each entry loads the class
    carrying that name, and a run loads no other model's module."""
    for name in PRIVACY_MODELS.names():
        assert PRIVACY_MODELS.get(name).name == name
    code = (
        "import sys\n"
        "from anonsql.privacy import models_from_entries\n"
        "models_from_entries([{'k_anonymity': {'k': 2}}])\n"
        "print(sorted(m for m in ('anonsql.privacy.uniqueness', 'anonsql.privacy.k_map',\n"
        "    'anonsql.privacy.identity_reserved', 'anonsql.privacy.beta_likeness')\n"
        "    if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("name", "params", "key", "words"),
    [
        ("distinct_l_diversity", {"l": 0}, "l", ["l = 0", "l >= 1"]),
        ("entropy_l_diversity", {"l": 0.5}, "l", ["l = 0.5", "l >= 1"]),
        ("recursive_cl_diversity", {"l": 0, "c": 1.0}, "l", ["l = 0", "l >= 1"]),
        ("recursive_cl_diversity", {"l": 2, "c": 0.0}, "c", ["c = 0.0", "c > 0"]),
        ("recursive_cl_diversity", {"l": 2, "c": -1}, "c", ["c = -1.0", "c > 0"]),
        ("t_closeness", {"t": 1.5}, "t", ["t = 1.5", "0 <= t <= 1"]),
        ("t_closeness", {"t": -0.1}, "t", ["t = -0.1", "0 <= t <= 1"]),
        ("distinct_l_diversity", {"l": 2.5}, "l", []),
        ("entropy_l_diversity", {"l": float("nan")}, "l", []),
        ("recursive_cl_diversity", {"l": 2, "c": float("inf")}, "c", []),
        ("t_closeness", {"t": 0.1, "distance": "manhattan"}, "distance", []),
        ("t_closeness", {"t": 0.1, "k": 3}, "k", []),
        ("distinct_l_diversity", {"l": 2, "column": ""}, "column", []),
    ],
)
def test_bad_parameters(name: str, params: dict[str, Any], key: str, words: list[str]) -> None:
    raw = {"column": "sa", **params}
    with pytest.raises(SpecError) as err:
        PRIVACY_MODELS.get(name).from_spec(raw, key="privacy[1]")
    assert err.value.key == f"privacy[1].{key}"
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize(
    ("name", "params", "ok"),
    [
        ("distinct_l_diversity", {"l": 3}, True),
        ("distinct_l_diversity", {"l": 4}, False),
        ("entropy_l_diversity", {"l": 3.0}, True),
        ("entropy_l_diversity", {"l": 3.5}, False),
        ("recursive_cl_diversity", {"l": 4, "c": 2.0}, False),
        ("t_closeness", {"t": 0.0}, True),
    ],
)
def test_check_against_distinct_values(name: str, params: dict[str, Any], ok: bool) -> None:
    m = PRIVACY_MODELS.get(name).from_spec({"column": "sa", **params}, key="privacy[0]")
    profile = DataProfile(rows=100, distinct_sensitive={"sa": 3})
    if ok:
        m.check_against(profile, "privacy[0]")
        return
    with pytest.raises(SpecError) as err:
        m.check_against(profile, "privacy[0]")
    assert err.value.key == "privacy[0].l"
    assert f"l = {params['l']}" in str(err.value)
    assert "3 distinct values" in str(err.value)
    assert "use l <= 3" in str(err.value)


def test_min_rows() -> None:
    assert model("distinct_l_diversity", column="sa", l=3).min_rows() == 3
    assert model("recursive_cl_diversity", column="sa", c=1.0, l=2).min_rows() == 2
    assert model("entropy_l_diversity", column="sa", l=1.0).min_rows() == 1
    assert model("entropy_l_diversity", column="sa", l=2.0).min_rows() == 2
    assert model("entropy_l_diversity", column="sa", l=2.0000000001).min_rows() == 2
    assert model("entropy_l_diversity", column="sa", l=2.5).min_rows() == 3
    assert model("t_closeness", column="sa", t=0.1).min_rows() == 1


def test_empty_parts_never_hold() -> None:
    stats = histogram_stats([[0, 0], [1, 1]], global_counts=[1, 1])
    for name, params in ALL_MODELS:
        held = model(name, column="sa", **params).holds(stats)
        assert not held[0]
