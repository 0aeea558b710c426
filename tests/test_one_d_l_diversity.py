"""The linear l-diversity heuristic against the digest's traces (001 §8.4, §4.6) and its
properties on random inputs (§8.3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonsql.algorithms.one_d_l_diversity import (
    Groups,
    NotEligible,
    linear_l_diverse,
    merge_sharing_vectors,
    merge_to_k,
)

# the 12 records in slide key order (22, 24, 30, 31, 33, 35, 40, 42, 55, 56, 61, 63)
KEYS = [22, 24, 30, 31, 33, 35, 40, 42, 55, 56, 61, 63]
DISEASE = ["Gas", "Dia", "Gas", "Pne", "Gas", "Dia", "Dia", "Alz", "Dia", "Flu", "Flu", "Alz"]
CODES = {name: code for code, name in enumerate(sorted(set(DISEASE)))}


def key_groups(groups: Groups) -> list[set[int]]:
    return [
        {KEYS[i] for i in groups.items[groups.starts[g] : groups.starts[g + 1]].tolist()}
        for g in range(groups.count)
    ]


def slide_groups(ell: int) -> list[set[int]]:
    values = np.array([CODES[d] for d in DISEASE], np.int64)
    return key_groups(linear_l_diverse(values, np.ones(12, np.int64), ell))


def test_trace_l3() -> None:
    assert slide_groups(3) == [{22, 24, 31}, {30, 35, 42}, {33, 40, 56}, {55, 61, 63}]


def test_trace_l2() -> None:
    assert slide_groups(2) == [{22, 24}, {30, 31}, {33, 35}, {40, 42}, {55, 56}, {61, 63}]


def test_l4_is_not_eligible() -> None:
    with pytest.raises(NotEligible) as caught:
        slide_groups(4)
    assert caught.value.largest_l == 3  # Diabetes: 4 of 12
    assert "Dia" not in str(caught.value)


def test_unflipped_hilbert_order() -> None:
    # natural orientation: r1, r2, r3, r4, r10, r9, r11, r12, r5, r6, r7, r8 (digest §4.6)
    order = [0, 1, 2, 3, 9, 8, 10, 11, 4, 5, 6, 7]
    values = np.array([CODES[DISEASE[r]] for r in order], np.int64)
    groups = linear_l_diverse(values, np.ones(12, np.int64), 3)
    got = [
        {KEYS[order[i]] for i in groups.items[groups.starts[g] : groups.starts[g + 1]].tolist()}
        for g in range(groups.count)
    ]
    assert got == [{22, 24, 31}, {30, 55, 56}, {35, 61, 63}, {33, 40, 42}]


def test_counts_are_records() -> None:
    """An item of 3 records is the same as 3 one-record items with the same value."""
    values = np.array([0, 1, 2, 0], np.int64)
    grouped = linear_l_diverse(values, np.array([1, 3, 2, 2], np.int64), 2)
    assert grouped.starts[-1] == 8
    sizes = np.diff(grouped.starts)
    assert ((sizes >= 2) & (sizes <= 3)).all()


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda ell: st.tuples(
            st.just(ell),
            st.lists(st.integers(0, 6), min_size=ell, max_size=60),
            st.lists(st.integers(1, 3), min_size=60, max_size=60),
        )
    )
)
def test_properties(case: tuple[int, list[int], list[int]]) -> None:
    ell, raw_values, raw_counts = case
    values = np.array(raw_values, np.int64)
    counts = np.array(raw_counts[: len(values)], np.int64)
    total = int(counts.sum())
    most = int(np.bincount(values, weights=counts).max())
    if ell * most > total:
        with pytest.raises(NotEligible):
            linear_l_diverse(values, counts, ell)
        return
    groups = linear_l_diverse(values, counts, ell)
    # every record is picked once
    assert np.bincount(groups.items, minlength=len(values)).tolist() == counts.tolist()
    for g in range(groups.count):
        members = values[groups.items[groups.starts[g] : groups.starts[g + 1]]]
        assert ell <= len(members) <= 2 * ell - 1
        assert len(set(members.tolist())) == len(members)  # distinct values
    # merged by vector (two items per vector here) the groups stay frequency-l-diverse
    vectors = np.arange(len(values)) // 2
    merged = merge_sharing_vectors(groups, vectors)
    group_of_pick = np.repeat(merged, np.diff(groups.starts))
    for m in np.unique(merged).tolist():
        picked = groups.items[group_of_pick == m]
        assert ell * np.bincount(values[picked]).max() <= len(picked)
        # a vector's rows never span two merged groups
    owner: dict[int, int] = {}
    for g, v in zip(group_of_pick.tolist(), vectors[groups.items].tolist(), strict=True):
        assert owner.setdefault(v, g) == g


def test_merge_to_k() -> None:
    ids = merge_to_k(np.array([0, 3, 6, 9]), np.array([2, 2, 2, 2]), 4)
    assert ids.tolist() == [0, 0, 1, 1]
    ids = merge_to_k(np.array([0, 3, 6, 9]), np.array([2, 2, 2, 1]), 4)
    assert ids.tolist() == [0, 0, 0, 0]  # the short tail (3 rows) joins the group before
    ids = merge_to_k(np.array([0, 3, 6]), np.array([4, 4, 1]), 4)
    assert ids.tolist() == [0, 1, 1]
