"""The spec's ``workload:`` queries parsed into the measured shape (anonsql.spec.workload):
the shapes taken, and every other one refused with a SpecError naming what is unsupported."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import people_spec

from anonsql.errors import SpecError
from anonsql.spec.load import spec_from_mapping
from anonsql.spec.model import WorkloadQuery
from anonsql.spec.workload import Condition, ParsedQuery, parse_query


def _parse(sql: str) -> ParsedQuery:
    return parse_query(WorkloadQuery(name="q", sql=sql), "workload[0].sql", "patients", "anon")


def test_supported_shapes() -> None:
    q = _parse(
        "SELECT sex, COUNT(*) AS n FROM patients WHERE age BETWEEN 30 AND 39 "
        "AND zip IN ('13053', '13068') AND 50 > weight AND weight >= -2.5 AND sex = 'F' "
        "GROUP BY sex"
    )
    assert q.aggregate == "count" and q.column is None and q.group_by == ("sex",)
    assert q.where == (
        Condition("age", "between", (30, 39)),
        Condition("zip", "in", ("13053", "13068")),
        Condition("weight", "<", (50,)),
        Condition("weight", ">=", (-2.5,)),
        Condition("sex", "=", ("F",)),
    )
    assert q.columns == ("sex", "age", "zip", "weight")
    s = _parse("SELECT SUM(income) FROM anon.patients WHERE (age < 40)")
    assert (s.aggregate, s.column, s.group_by) == ("sum", "income", ())
    a = _parse("SELECT b, a, AVG(income) FROM patients GROUP BY a, b")
    assert (a.aggregate, a.group_by) == ("avg", ("a", "b"))


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("SELEC COUNT(*) FROM patients", "not valid SQL"),
        ("SELECT COUNT(*) FROM patients; SELECT 1", "2 statements"),
        ("DELETE FROM patients", "not a SELECT"),
        ("SELECT COUNT(*) FROM other", "not the release"),
        ("SELECT COUNT(*) FROM x.patients", "not the release"),
        ("SELECT COUNT(*) FROM patients JOIN t USING (a)", "a join"),
        ("SELECT COUNT(*) FROM (SELECT * FROM patients) AS p", "does not read one table"),
        ("SELECT COUNT(*) FROM patients WHERE age < 3 OR age > 9", "OR condition"),
        ("SELECT COUNT(*) FROM patients WHERE NOT age < 3", "NOT condition"),
        ("SELECT COUNT(*) FROM patients WHERE age + 1 < 3", "not a bare column"),
        ("SELECT COUNT(*) FROM patients WHERE age < weight", "not a literal"),
        ("SELECT COUNT(*) FROM patients WHERE age IN (SELECT 1)", "subquery"),
        ("SELECT COUNT(*) FROM patients WHERE age LIKE '3%'", "LIKE condition"),
        ("SELECT sex, COUNT(*) FROM patients GROUP BY sex HAVING COUNT(*) > 3", "HAVING"),
        ("SELECT COUNT(*) FROM patients ORDER BY 1", "ORDER BY"),
        ("SELECT COUNT(*) FROM patients LIMIT 3", "LIMIT"),
        ("SELECT DISTINCT sex FROM patients", "DISTINCT"),
        ("WITH p AS (SELECT 1) SELECT COUNT(*) FROM patients", "WITH"),
        ("SELECT COUNT(age) FROM patients", "counts an expression"),
        ("SELECT MAX(age) FROM patients", "MAX"),
        ("SELECT COUNT(*), SUM(income) FROM patients", "2 aggregates"),
        ("SELECT sex FROM patients GROUP BY sex", "0 aggregates"),
        ("SELECT sex, COUNT(*) FROM patients", "not the GROUP BY columns"),
        ("SELECT COUNT(*) FROM patients GROUP BY sex", "not the GROUP BY columns"),
        ("SELECT SUM(DISTINCT income) FROM patients", "DISTINCT"),
        ("SELECT COUNT(*) FROM patients GROUP BY sex, sex", "twice"),
    ],
)
def test_refused_shapes(sql: str, problem: str) -> None:
    with pytest.raises(SpecError) as err:
        _parse(sql)
    assert err.value.key == "workload[0].sql"
    assert problem in err.value.problem, err.value


def test_the_spec_refuses_repeated_names(tmp_path: Path) -> None:
    spec = people_spec(tmp_path)
    spec["workload"] = [{"name": "a", "sql": "SELECT COUNT(*) FROM people"}] * 2
    with pytest.raises(SpecError, match="repeat"):
        spec_from_mapping(spec)
