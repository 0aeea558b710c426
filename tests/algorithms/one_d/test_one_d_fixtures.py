"""The seed slides' information-loss and privacy examples as fixtures (digest 001 §2.5, §3.2,
§3.4, §3.5): categorical IL by leaves under the lowest common ancestor, numeric IL over the
table's range, the 2-anonymous release that fails 2-diversity, checked in SQL on every engine."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pyarrow as pa
import pytest

from anonsql import api
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.one_d.optimal import optimal_groups
from anonsql.engines import Engine
from anonsql.hierarchies import Hierarchy
from anonsql.sql import TableName

COUNTRY = Hierarchy(
    [
        ["Italy", "Southern-Europe", "*"],
        ["Spain", "Southern-Europe", "*"],
        ["Greece", "Southern-Europe", "*"],
        ["France", "Western-Europe", "*"],
        ["Germany", "Western-Europe", "*"],
    ],
    name="country",
)


@pytest.mark.parametrize(
    ("values", "il"),
    [
        (["Italy"], Fraction(0)),
        (["Italy", "Spain"], Fraction(3, 5)),
        (["Italy", "Greece"], Fraction(3, 5)),
        (["France", "Germany"], Fraction(2, 5)),
        (["Italy", "France"], Fraction(1)),
    ],
)
def test_categorical_il(values: list[str], il: Fraction) -> None:
    arrays = HierarchyArrays(COUNTRY)
    ranks = [COUNTRY.leaves.index(v) for v in values]
    node = arrays.lca(np.array([min(ranks)]), np.array([max(ranks)]))
    assert float(arrays.ncp_of(node)[0]) == pytest.approx(float(il))


def test_numeric_il_of_g2() -> None:
    """G2 = records 33, 35, 40, 42 of the 12-record table: IL_Age 10/35, IL_Weight 15/35; the
    DP's cost of that single group (one group of k = 4 rows) is 4 * (25/35) / 2."""
    age = [55, 60, 60, 65]
    weight = [65, 60, 55, 50]
    numeric = np.array([age, weight], np.float64).T
    _, cost = optimal_groups(
        np.ones(4, np.int64), numeric, [35.0, 35.0], np.zeros((4, 0), np.int64), [], 4
    )
    assert cost == pytest.approx(4 * (10 / 35 + 15 / 35) / 2)


# digest §2.5: Andy, Bill, Ken, Nash, Mike, Sam
AGE = [42, 47, 51, 55, 62, 67]
ZIP = [52000, 43000, 32000, 27000, 41000, 55000]
DISEASE = ["Ulcer", "Pneumonia", "Flu", "Gastritis", "Dyspepsia", "Dyspepsia"]


def test_privacy_example_release_gcp() -> None:
    """In age order, the optimal 2-anonymous partition is the slide's release, GCP 13/50."""
    numeric = np.array([AGE, ZIP], np.float64).T
    groups, cost = optimal_groups(
        np.ones(6, np.int64), numeric, [25.0, 28000.0], np.zeros((6, 0), np.int64), [], 2
    )
    assert groups.tolist() == [0, 0, 1, 1, 2, 2]
    assert cost / 6 == pytest.approx(13 / 50)


def test_privacy_example_fails_l_diversity(engine: Engine) -> None:
    """The slide's release is 2-anonymous, but Mike and Sam both have Dyspepsia."""
    table = TableName("release", "main")
    engine.load_arrow(
        table,
        pa.table(
            {
                "age": ["[42, 47]", "[42, 47]", "[51, 55]", "[51, 55]", "[62, 67]", "[62, 67]"],
                "zip": ["[43000, 52000]"] * 2 + ["[27000, 32000]"] * 2 + ["[41000, 55000]"] * 2,
                "disease": DISEASE,
            }
        ),
    )
    k_only = api.check(engine, table, ["age", "zip"], [{"k_anonymity": {"k": 2}}])
    assert k_only.holds
    diverse = api.check(
        engine,
        table,
        ["age", "zip"],
        [{"distinct_l_diversity": {"column": "disease", "l": 2}}],
    )
    assert not diverse.holds
    assert sum(diverse.violations.values()) == 1  # only the third group
