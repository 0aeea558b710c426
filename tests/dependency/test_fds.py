"""Functional dependencies: parsing errors, SQL validation (counts, never values) and dependency
instances (Gorla 2019, Examples 1.2 and 3.2; digest T2) on both engines."""

from __future__ import annotations

import itertools
from typing import Any

import pyarrow as pa
import pytest
from dependency_fixtures import FDS, TABLE3, TABLE6
from dependency_instances import create_instances, instance_counts

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.resolve.dependencies import check_fds, require_fds
from anonsql.spec.dependencies import FunctionalDependency, instance_groups, parse_fd, parse_fds
from anonsql.sql import TableName

_tables = itertools.count()


def load(engine: Engine, columns: dict[str, list[Any]]) -> TableName:
    table = TableName(f"fd{next(_tables)}", "main")
    engine.load_arrow(table, pa.table(columns))
    return table


def test_parse_sides_and_whitespace() -> None:
    fd = parse_fd("  zip , city->province ")
    assert fd == FunctionalDependency(("zip", "city"), ("province",))
    assert str(fd) == "zip, city -> province"
    assert fd.attributes == ("zip", "city", "province")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("zip province", "exactly one '->', found no"),
        ("a -> b -> c", "exactly one '->', found more than one"),
        (" -> b", "columns on both sides"),
        ("a ->", "columns on both sides"),
        ("a,,b -> c", "left side has an empty column name"),
        ("a -> b,", "right side has an empty column name"),
        ("a, a -> b", "left side names a column twice"),
        ("a, b -> b", "column 'b' is on both sides"),
    ],
)
def test_parse_errors_name_key_and_fix(text: str, problem: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_fds(["x -> y", text])
    assert err.value.key == "functional_dependencies[1]"
    assert problem in err.value.problem
    assert err.value.fix


def test_parse_rejects_non_strings_duplicates_and_unknown_columns() -> None:
    with pytest.raises(SpecError, match="got a int"):
        parse_fd(3)  # type: ignore[arg-type]  # a wrong type on purpose
    with pytest.raises(SpecError, match="listed twice"):
        parse_fds(["a -> b", "a->b"])
    with pytest.raises(SpecError, match="did you mean 'province'"):
        parse_fds(["zip -> provinse"], columns=["zip", "province"])


def test_instance_groups_share_attribute_sets() -> None:
    fds = parse_fds(["a -> b", "b -> a", "a -> c", "c, a -> b"])
    assert instance_groups(fds) == [[0, 1], [2], [3]]


def test_check_counts_violations_without_values(engine: Engine) -> None:
    table = load(
        engine,
        {
            "x": ["a", "a", "a", "b", "b", "c", None, None],
            "y": [1, 1, 2, 3, 3, 4, 5, 6],
            "z": [1, 1, 1, 1, 1, 1, 1, 1],
        },
    )
    fds = parse_fds(["x -> y", "x -> z", "y -> x", "x, y -> z"])
    checks = check_fds(engine, table, fds)
    # x -> y: groups a (y in {1, 2}: 3 rows, 1 to delete) and NULL (y in {5, 6}: 2 rows, 1)
    assert [(c.violating_groups, c.violating_rows, c.excess_rows) for c in checks] == [
        (2, 5, 2),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
    ]
    assert [c.holds for c in checks] == [False, True, True, True]
    with pytest.raises(SpecError) as err:
        require_fds(engine, table, fds)
    assert err.value.key == "functional_dependencies[0]"
    assert "2 left-hand values" in err.value.problem and "removing 2 rows" in err.value.problem
    assert "'a'" not in str(err.value)
    assert require_fds(engine, table, fds[1:])[0].holds


def test_fixture_fds_hold_and_hostile_names(engine: Engine) -> None:
    table = load(engine, dict(TABLE3))
    assert all(c.holds for c in check_fds(engine, table, parse_fds(FDS)))
    hostile: dict[str, list[Any]] = {
        'zip "code"': ["1", "1", "2"],
        "n": ["a", "b", "c"],
        "select; --": [1, 1, 2],
    }
    table = load(engine, hostile)
    checks = check_fds(engine, table, parse_fds(['zip "code" -> select; --', "select; -- -> n"]))
    assert [(c.violating_groups, c.violating_rows) for c in checks] == [(0, 0), (1, 2)]


def test_instances_of_the_thesis_examples(engine: Engine) -> None:
    # Example 3.2 (Table 6, PC -> PRV): {(J5B, QC), (R7A, AB), (K2H, ON)}
    table6 = load(engine, dict(TABLE6))
    assert instance_counts(engine, table6, parse_fds(["PC -> PRV"])) == [3]
    # Example 1.2 (Table 3): p1..p4 from PC -> PRV, p5, p6 from DIAG -> MED
    table3 = load(engine, dict(TABLE3))
    fds = parse_fds([*FDS, "PRV -> PC"])
    assert instance_counts(engine, table3, fds) == [4, 2, 4]
    target = TableName(f"gamma{next(_tables)}", "main")
    assert create_instances(engine, table3, fds, target) == 6
    rows = engine.query("select_all", relation=target)
    got = {(r[0], r[1:]) for r in rows}
    assert (0, ("J5B", "QC", None, None)) in got
    assert (1, (None, None, "seizure", "diazepam")) in got
    assert {r[0] for r in rows} == {0, 1}
