"""The linkage measures (anonsql.measure.linkage) against an independent recomputation in pandas
(tests/support/linkage_reference.py), on random releases of random tables, on every engine:
recovery per quasi-identifier through random sets of columns, and refined-class sizes in rows
and in persons. The releases are built here, not by a run, so that every kind of published
value occurs: points, intervals of any width, hierarchy leaves, inner nodes and the root."""

from __future__ import annotations

import itertools
from typing import Any

import linkage_reference as reference
import pandas as pd
import pyarrow as pa
import pytest
from helpers import CITY_HIERARCHY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonsql.engines import Engine
from anonsql.hierarchies.model import Hierarchy
from anonsql.measure.linkage import (
    CoveredQid,
    LinkageTarget,
    measure_linkage,
    recovered_rows,
    refined_checks,
)
from anonsql.privacy.check import PlannedCheck, run_checks
from anonsql.privacy.delta_disclosure import DeltaDisclosureParams, DeltaDisclosurePrivacy
from anonsql.privacy.k_anonymity import KAnonymity, KAnonymityParams
from anonsql.privacy.one_to_many import (
    PersonConsistency,
    PersonConsistencyParams,
    PersonKAnonymity,
    PersonKParams,
)
from anonsql.resolve.linked import LinkageColumns
from anonsql.sql import TableName

PATHS = [line.split(";") for line in CITY_HIERARCHY.splitlines()]
CITIES = [path[0] for path in PATHS]
QIDS = (CoveredQid("age", True), CoveredQid("city", False))
COLUMNS = ("a", "b", "c")
_tables = itertools.count()


def nodes_table() -> pa.Table:
    """The release's ``hierarchy_nodes`` for the city hierarchy (as the stage step writes it)."""
    hierarchy = Hierarchy(PATHS, name="city")
    nodes = hierarchy.nodes
    return pa.table(
        {
            "attribute": ["city"] * len(nodes),
            "label": [n.label for n in nodes],
            "leaf_count": pa.array([n.leaf_count for n in nodes], pa.int64()),
            "first_leaf": pa.array([n.first_leaf for n in nodes], pa.int32()),
            "last_leaf": pa.array([n.last_leaf for n in nodes], pa.int32()),
        }
    )


@st.composite
def releases(draw: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(source, release): source rows with original values, and the release of some of them
    with each quasi-identifier published at a random generalization covering its value."""
    n = draw(st.integers(1, 25))
    rows = []
    for _ in range(n):
        rows.append(
            {
                "age": draw(st.integers(0, 9)),
                "city": draw(st.sampled_from(CITIES)),
                "a": draw(st.sampled_from(["x", "y", None])),
                "b": draw(st.sampled_from([0, 1, 2])),
                "c": draw(st.sampled_from([0.5, 1.5])),
                "pid": draw(st.integers(0, max(n // 2, 1))),
            }
        )
    source = pd.DataFrame(rows)
    published: list[dict[str, Any]] = []
    for row in rows:
        if not draw(st.booleans()) and len(published) < n - 1:
            continue  # left out of the release (suppressed), still in the population
        lo = draw(st.integers(0, row["age"]))
        hi = draw(st.integers(row["age"], 9))
        path = next(p for p in PATHS if p[0] == row["city"])
        published.append(
            {
                **row,
                "age": f"[{lo}, {hi}]" if lo < hi else str(lo),
                "city": draw(st.sampled_from(path)),
            }
        )
    if not published:
        published.append({**rows[0], "age": str(rows[0]["age"])})
    return source, pd.DataFrame(published)


def load(engine: Engine, frame: pd.DataFrame, types: dict[str, pa.DataType]) -> TableName:
    relation = TableName(f"linkage{next(_tables)}", "main")
    engine.load_arrow(
        # missing values as None: pandas 3 holds a missing string as NaN
        relation,
        pa.table(
            {
                c: pa.array([None if pd.isna(v) else v for v in frame[c].tolist()], types[c])
                for c in frame.columns
            }
        ),
    )
    return relation


SOURCE_TYPES = {"age": pa.int64(), "city": pa.string(), "a": pa.string(), "b": pa.int64()}
SOURCE_TYPES |= {"c": pa.float64(), "pid": pa.int64()}
RELEASE_TYPES = {**SOURCE_TYPES, "age": pa.string()}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=releases(), columns=st.sets(st.sampled_from(COLUMNS)))
def test_recovery_matches_pandas(
    engine: Engine, data: tuple[pd.DataFrame, pd.DataFrame], columns: set[str]
) -> None:
    source, release = data
    nodes = TableName("linkage_nodes", "main")
    if not engine.exists(nodes):
        engine.load_arrow(nodes, nodes_table())
    chosen = [c for c in COLUMNS if c in columns]
    src = load(engine, source, SOURCE_TYPES)
    rel = load(engine, release, RELEASE_TYPES)
    got = recovered_rows(engine, rel, src, nodes, QIDS, chosen)
    expected = reference.recovered(release, source, {"age": None, "city": PATHS}, chosen)
    assert got == expected
    # monotone: every column together recovers at least what any subset does
    everything = recovered_rows(engine, rel, src, nodes, QIDS, list(COLUMNS))
    assert all(everything[q] >= got[q] for q in got)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=releases(), columns=st.sets(st.sampled_from(COLUMNS), min_size=1), k=st.integers(1, 4))
def test_refined_classes_match_pandas(
    engine: Engine, data: tuple[pd.DataFrame, pd.DataFrame], columns: set[str], k: int
) -> None:
    """Refined classes in rows (k-anonymity) and in persons (person-level k-anonymity): the
    models' own queries with the columns added to the class key, against pandas' class sizes."""
    _, release = data
    chosen = [c for c in COLUMNS if c in columns]
    rel = load(engine, release, RELEASE_TYPES)
    keys = ["age", "city", *chosen]
    by_rows = PlannedCheck(rel, ("age", "city"), (KAnonymity(KAnonymityParams(k=k)),))
    by_persons = PlannedCheck(
        rel,
        ("age", "city"),
        (
            PersonKAnonymity(PersonKParams(k=k)),
            PersonConsistency(PersonConsistencyParams()),
        ),
        person="pid",
    )
    planned = refined_checks([by_rows, by_persons], rel, chosen)
    # consistency is a person's rows agreeing on the quasi-identifiers: not refined
    assert [m.name for c in planned for m in c.models] == ["k_anonymity", "person_k_anonymity"]
    found = run_checks(engine, rel, planned).violations
    rows, persons = found.values()
    sizes = reference.refined_sizes(release, keys, person="pid")
    assert rows == sum(1 for n, _ in sizes if n < k)
    assert persons == sum(1 for _, p in sizes if p < k)


def test_non_monotonic_models_are_checked_with_single_columns_and_pairs() -> None:
    relation = TableName("r", "main")
    delta = DeltaDisclosurePrivacy(DeltaDisclosureParams(column="s", delta=1.0))
    check = PlannedCheck(relation, ("q",), (KAnonymity(KAnonymityParams(k=2)), delta))
    planned = refined_checks([check], relation, ["a", "b", "c"])
    labels = [(c.label, [m.name for m in c.models]) for c in planned]
    # the full set for every model; for delta-disclosure also 3 singles and 3 pairs
    assert labels[0] == (
        "classes refined by (a, b, c)",
        ["k_anonymity", "delta_disclosure_privacy"],
    )
    assert [label for label, _ in labels[1:]] == [
        f"classes refined by ({', '.join(s)})"
        for s in [("a",), ("b",), ("c",), ("a", "b"), ("a", "c"), ("b", "c")]
    ]
    assert all(models == ["delta_disclosure_privacy"] for _, models in labels[1:])
    assert planned[0].qids == ("q", "a", "b", "c")
    # a check on another relation (1:M's person-level view) is not refined
    assert refined_checks([check], TableName("other", "main"), ["a"]) == []


@pytest.mark.parametrize(("k", "behind"), [(2, ("decade", "digit")), (3, ("digit",))])
def test_the_gate_evaluates_the_full_sets_once(
    engine: Engine, k: int, behind: tuple[str, ...]
) -> None:
    """The gate's cost does not grow with the columns (one recovery query and one query per
    model), and its explanation names the smallest combination: here a pair, as neither
    column alone recovers anything."""
    ages = list(range(20, 60))
    source = pd.DataFrame(
        {
            "age": ages,
            "city": [CITIES[i % len(CITIES)] for i in range(len(ages))],
            "decade": [a // 10 for a in ages],
            "digit": [a % 10 for a in ages],
            "pid": list(range(len(ages))),
        }
    )
    # decades [20, 39] and [40, 59]: neither the decade nor the digit alone narrows an age
    # to one value; together they do
    release = source.assign(age=["[20, 39]" if a < 40 else "[40, 59]" for a in ages], city="*")
    types = {"age": pa.int64(), "city": pa.string(), "decade": pa.int64()}
    types |= {"digit": pa.int64(), "pid": pa.int64()}
    src = load(engine, source, types)
    rel = load(engine, release, {**types, "age": pa.string()})
    nodes = TableName("linkage_nodes", "main")
    if not engine.exists(nodes):
        engine.load_arrow(nodes, nodes_table())
    columns = LinkageColumns(recovery=("decade", "digit"), classes=("decade", "digit"))
    target = LinkageTarget(
        engine=engine,
        relation=rel,
        source=src,
        nodes=nodes,
        qids=QIDS,
        checks=(PlannedCheck(rel, ("age", "city"), (KAnonymity(KAnonymityParams(k=k)),)),),
        columns=columns,
    )
    before = engine.stats.statements
    linkage = measure_linkage(target, explained=False)
    # one recovery query for both quasi-identifiers, one query for the one model
    assert engine.stats.statements - before == 2
    # the pair gives the exact age, so the row, so its city
    assert linkage.recovered == {"age": 40, "city": 40}
    assert linkage.refined == {f"k_anonymity(k={k}) on classes refined by (decade, digit)": 40}
    explained = measure_linkage(target)
    recovery = [f for f in explained.findings if f.kind == "recovery"]
    assert [(f.columns, f.qid, f.rows) for f in recovery] == [
        (("decade", "digit"), "age", 40),
        (("decade", "digit"), "city", 40),
    ]
    classes = [f for f in explained.findings if f.kind == "classes"]
    # the pair makes classes of one row; the digit alone classes of two (20 and 30, ...), the
    # decade alone classes of ten
    assert [f.columns for f in classes] == [behind]
    # recovery: two singles, then the pair; classes: two singles, then the pair if needed
    assert explained.queries == 3 + 2 + (len(behind) == 2)
