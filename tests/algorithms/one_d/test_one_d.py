"""Optimal 1D k-anonymity against the seed's worked examples (digest 001 §4.3-4.4)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.one_d.optimal import optimal_groups
from anonsql.hierarchies import Hierarchy

# the 12 records in slide (1D key) order: Age, Weight
AGE = [35, 40, 45, 45, 55, 60, 60, 65, 55, 60, 65, 70]
WEIGHT = [50, 55, 60, 65, 65, 60, 55, 50, 75, 75, 85, 80]


def run(k: int, weights: list[int] | None = None) -> tuple[list[int], float]:
    numeric = np.array([AGE, WEIGHT], dtype=np.float64).T
    w = np.array(weights or [1] * 12, dtype=np.int64)
    groups, cost = optimal_groups(w, numeric, [35.0, 35.0], np.zeros((12, 0), np.int64), [], k)
    return groups.tolist(), cost


def sizes(groups: list[int]) -> list[int]:
    return [groups.count(g) for g in sorted(set(groups))]


@pytest.mark.parametrize(
    ("k", "expected_sizes", "gcp"),
    [
        (2, [2, 2, 2, 2, 2, 2], Fraction(5, 42)),
        (3, [3, 3, 3, 3], Fraction(19, 56)),
        (4, [4, 4, 4], Fraction(5, 14)),
        (5, [5, 7], Fraction(5, 8)),
        (6, [6, 6], Fraction(9, 14)),
    ],
)
def test_slide_example(k: int, expected_sizes: list[int], gcp: Fraction) -> None:
    groups, cost = run(k)
    assert sizes(groups) == expected_sizes
    # cost is sum |G| * NCP averaged over the 2 QIDs; GCP = cost / N
    assert cost / 12 == pytest.approx(float(gcp))


def test_k4_total_matches_the_dp_table() -> None:
    _, cost = run(4)
    assert cost * 2 == pytest.approx(60 / 7)  # the digest's Opt(12), NCP summed over QIDs


def test_weights_keep_equal_vectors_together() -> None:
    """An item of 5 identical rows is never split; groups still reach k rows."""
    groups, _ = run(4, weights=[1, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    rows = [1, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    per_group = [
        sum(r for r, g in zip(rows, groups, strict=True) if g == gid) for gid in set(groups)
    ]
    assert min(per_group) >= 4


def test_categorical_dimension_uses_lowest_common_ancestors() -> None:
    h = Hierarchy(
        [["a", "ab", "*"], ["b", "ab", "*"], ["c", "cd", "*"], ["d", "cd", "*"]], name="x"
    )
    ranks = np.array([[0], [1], [2], [3]], dtype=np.int64)
    groups, cost = optimal_groups(
        np.ones(4, np.int64), np.zeros((4, 0)), [], ranks, [HierarchyArrays(h)], 2
    )
    assert groups.tolist() == [0, 0, 1, 1]
    assert cost == pytest.approx(4 * 0.5)  # each row published as a 2-leaf node of 4


def test_too_few_rows() -> None:
    with pytest.raises(ValueError, match="exceeds"):
        run(13)
