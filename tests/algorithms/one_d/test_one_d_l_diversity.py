"""The linear l-diversity heuristic against the digest's traces (001 §8.4, §4.6) and its
properties on random inputs (§8.3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonsql.algorithms.one_d.l_diversity import Diversity, NotEligible, l_diverse_groups

# the 12 records in slide key order (22, 24, 30, 31, 33, 35, 40, 42, 55, 56, 61, 63)
KEYS = [22, 24, 30, 31, 33, 35, 40, 42, 55, 56, 61, 63]
DISEASE = ["Gas", "Dia", "Gas", "Pne", "Gas", "Dia", "Dia", "Alz", "Dia", "Flu", "Flu", "Alz"]
CODES = {name: code for code, name in enumerate(sorted(set(DISEASE)))}


def record_groups(order: list[int], ell: int, k: int = 1) -> list[set[int]]:
    """Each record its own vector, in the given key order; groups as sets of slide keys."""
    values = np.array([CODES[DISEASE[r]] for r in order], np.int64)
    group = l_diverse_groups(
        np.arange(12), values, np.ones(12, np.int64), Diversity(k=k, frequency_l=ell)
    )
    return [{KEYS[order[i]] for i in np.nonzero(group == g)[0]} for g in range(group.max() + 1)]


SLIDE_ORDER = list(range(12))


def test_trace_l3() -> None:
    assert record_groups(SLIDE_ORDER, 3) == [{22, 24, 31}, {30, 35, 42}, {33, 40, 56}, {55, 61, 63}]


def test_trace_l2() -> None:
    assert record_groups(SLIDE_ORDER, 2) == [
        {22, 24}, {30, 31}, {33, 35}, {40, 42}, {55, 56}, {61, 63}
    ]  # fmt: skip


def test_unflipped_hilbert_order() -> None:
    # natural orientation: r1, r2, r3, r4, r10, r9, r11, r12, r5, r6, r7, r8 (digest §4.6)
    order = [0, 1, 2, 3, 9, 8, 10, 11, 4, 5, 6, 7]
    assert record_groups(order, 3) == [{22, 24, 31}, {30, 55, 56}, {35, 61, 63}, {33, 40, 42}]


def test_l4_is_not_eligible() -> None:
    with pytest.raises(NotEligible) as caught:
        record_groups(SLIDE_ORDER, 4)
    assert caught.value.largest_l == 3  # Diabetes: 4 of 12
    assert "Dia" not in str(caught.value)


def test_k_closes_groups_later() -> None:
    groups = record_groups(SLIDE_ORDER, 2, k=4)
    assert all(len(g) >= 4 for g in groups)
    assert sum(len(g) for g in groups) == 12


def test_vectors_are_never_split() -> None:
    """Vector 1 holds 3 rows of value 1; it lands in one group as a whole."""
    vector = np.array([0, 1, 2, 2, 3], np.int64)
    values = np.array([0, 1, 0, 2, 2], np.int64)
    counts = np.array([1, 3, 2, 1, 2], np.int64)
    group = l_diverse_groups(vector, values, counts, Diversity(frequency_l=2))
    assert len(group) == 4
    assert (group >= 0).all()


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 5),
    st.integers(1, 12),
    st.lists(
        st.lists(st.tuples(st.integers(0, 6), st.integers(1, 3)), min_size=1, max_size=3),
        min_size=1,
        max_size=40,
    ),
)
def test_properties(ell: int, k: int, raw: list[list[tuple[int, int]]]) -> None:
    vector, values, counts = [], [], []
    for v, histogram in enumerate(raw):
        for value, count in sorted(dict(histogram).items()):
            vector.append(v)
            values.append(value)
            counts.append(count)
    vec = np.array(vector, np.int64)
    val = np.array(values, np.int64)
    cnt = np.array(counts, np.int64)
    total = int(cnt.sum())
    most = int(np.bincount(val, weights=cnt).max())
    need = Diversity(k=k, frequency_l=ell)
    if ell * most > total or total < k:
        with pytest.raises(NotEligible):
            l_diverse_groups(vec, val, cnt, need)
        return
    group = l_diverse_groups(vec, val, cnt, need)
    assert len(group) == len(raw) and (group >= 0).all()
    for g in np.unique(group).tolist():
        mine = group[vec] == g
        size = int(cnt[mine].sum())
        assert size >= k
        assert ell * np.bincount(val[mine], weights=cnt[mine]).max() <= size


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(1, 8),
    st.lists(
        st.lists(st.tuples(st.integers(0, 5), st.integers(1, 4)), min_size=1, max_size=3),
        min_size=1,
        max_size=40,
    ),
)
def test_distinct_and_entropy(distinct: int, k: int, raw: list[list[tuple[int, int]]]) -> None:
    """With the declared models' conditions every group holds them, or the table cannot."""
    vector, values, counts = [], [], []
    for v, histogram in enumerate(raw):
        for value, count in sorted(dict(histogram).items()):
            vector.append(v)
            values.append(value)
            counts.append(count)
    vec, val, cnt = (np.array(x, np.int64) for x in (vector, values, counts))
    need = Diversity(k=k, distinct_l=distinct, entropy_l=distinct * 0.8 if distinct > 1 else 1.0)
    whole = np.bincount(val, weights=cnt).astype(np.int64)
    if not need.holds(whole, int(cnt.sum())):
        with pytest.raises(NotEligible):
            l_diverse_groups(vec, val, cnt, need)
        return
    group = l_diverse_groups(vec, val, cnt, need)
    for g in np.unique(group).tolist():
        mine = group[vec] == g
        held = np.bincount(val[mine], weights=cnt[mine], minlength=whole.size).astype(np.int64)
        assert need.holds(held, int(held.sum()))
