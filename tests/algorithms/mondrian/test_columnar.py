"""The planner's numpy helpers against pandas, which the planner used before and whose
semantics (stable orders, first-appearance groups, compensated sums) it must keep: a last-bit
difference in a candidate's loss can flip a tie and change a release."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from anonsql.algorithms.mondrian import columnar as col

small_ints = st.lists(st.integers(-3, 3), min_size=0, max_size=60)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_order_by_is_pandas_stable_multi_key_sort(data: st.DataObject) -> None:
    a = np.array(data.draw(small_ints), np.int64)
    b = np.array(data.draw(st.lists(st.integers(-3, 3), min_size=len(a), max_size=len(a))))
    c = np.array(data.draw(st.lists(st.floats(-2, 2), min_size=len(a), max_size=len(a))))
    frame = pd.DataFrame({"a": a, "b": b, "c": c, "row": np.arange(len(a))})
    expected = frame.sort_values(["a", "c", "b"], ascending=[True, False, True], kind="stable")[
        "row"
    ].to_numpy()
    assert col.order_by(a, -c, b).tolist() == expected.tolist()


@settings(max_examples=200, deadline=None)
@given(small_ints, st.data())
def test_group_helpers_match_pandas(keys: list[int], data: st.DataObject) -> None:
    key = np.sort(np.array(keys, np.int64))
    first = col.starts(key)
    frame = pd.DataFrame({"k": key})
    assert col.rank_in_group(first).tolist() == frame.groupby("k").cumcount().tolist()
    values = np.array(data.draw(st.lists(st.integers(0, 9), min_size=len(key), max_size=len(key))))
    if len(key):
        expected = pd.Series(values).groupby(key, sort=True).min().tolist()
        assert col.segment_reduce(np.minimum, values, first).tolist() == expected
    shuffled = np.array(keys, np.int64)
    kept = pd.Series(shuffled).drop_duplicates().index.to_numpy()
    group, first_of_group = col.groups_in_order(shuffled)
    assert first_of_group.tolist() == kept.tolist()
    assert group.tolist() == pd.Series(shuffled).groupby(shuffled, sort=False).ngroup().tolist()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(-2, 2)), max_size=40, unique=True),
    st.lists(st.tuples(st.integers(0, 5), st.integers(-2, 3)), max_size=40),
)
def test_lookup_is_an_inner_join_on_the_key(
    right: list[tuple[int, int]], left: list[tuple[int, int]]
) -> None:
    # small keys take one combined key; keys spread over 2^40 and more do not fit one int64
    # and take the dense recoding: both must join the same
    for spread in (1, 2**40):
        r = np.array(right, np.int64).reshape(-1, 2) * spread
        lft = np.array(left, np.int64).reshape(-1, 2) * spread
        found = col.lookup((lft[:, 0], lft[:, 1]), (r[:, 0], r[:, 1]))
        index = {tuple(row): i for i, row in enumerate(r.tolist())}
        assert found.tolist() == [index.get(tuple(row), -1) for row in lft.tolist()]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-(2**62), 2**62), max_size=40, unique=True),
    st.lists(st.integers(-(2**62), 2**62), max_size=40),
    st.sampled_from([np.int64, np.int32, np.uint64]),
)
def test_lookup_of_one_key_is_an_inner_join(
    right: list[int], left: list[int], kind: type[np.integer[Any]]
) -> None:
    # one integer key is searched as it is; uint64 (and values that do not fit) take the
    # dense recoding
    info = np.iinfo(kind)
    right = [v for v in right if info.min <= v <= info.max]
    left = [v for v in left if info.min <= v <= info.max] + right[:3]
    found = col.lookup((np.array(left, kind),), (np.array(right, kind),))
    index = {v: i for i, v in enumerate(right)}
    assert found.tolist() == [index.get(v, -1) for v in left]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_small_key_orders_like_the_keys_or_declines(data: st.DataObject) -> None:
    a = np.array(data.draw(st.lists(st.integers(-5, 300), min_size=1, max_size=50)), np.int64)
    b = np.array(data.draw(st.lists(st.integers(-2, 200), min_size=len(a), max_size=len(a))))
    key = col.small_key([a, b])
    if (a.max() - a.min() + 1) * (b.max() - b.min() + 1) > 2**16:
        assert key is None
        return
    assert key is not None and key.dtype == np.uint16
    # the stable radix sort of the small key is the stable sort by the keys
    assert np.argsort(key, kind="stable").tolist() == col.order_by(a, b).tolist()


def test_combined_key_orders_like_the_keys_or_declines() -> None:
    a = np.array([2, 0, 2, 1], np.int64)
    b = np.array([-1, 5, -3, 0], np.int32)
    key = col.combined_key([a, b])
    assert key is not None
    assert np.argsort(key).tolist() == col.order_by(a, b).tolist()
    assert col.combined_key([a * 2**40, a * 2**40]) is None
    assert col.combined_key([a.astype(np.float64)]) is None
    assert col.combined_key([a.astype(np.uint64)]) is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),
            st.floats(-1e12, 1e12, allow_nan=False) | st.sampled_from([0.1, 0.2, 0.3, 1e16]),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_kahan_sums_are_row_order_kahan_sums_bit_for_bit(rows: list[tuple[int, float]]) -> None:
    """The sums Mondrian's split choice compares: Kahan's, in row order, as pandas 2's groupby
    sum computed them (pandas 3 sums otherwise; a release must not change with the pandas
    installed, so the reference is the algorithm, one row at a time)."""
    group = np.array([g for g, _ in rows], np.int64)
    values = np.array([v for _, v in rows], np.float64)
    total: dict[int, float] = {}
    compensation: dict[int, float] = {}
    for g, v in rows:
        s, c = total.get(g, 0.0), compensation.get(g, 0.0)
        y = v - c
        t = s + y
        c = (t - s) - y
        compensation[g] = 0.0 if c != c else c
        total[g] = t
    sums = col.kahan_sums(values, group, int(group.max()) + 1)
    assert [sums[g] for g in sorted(total)] == [total[g] for g in sorted(total)]


def test_codes_order_keys_lexicographically() -> None:
    a = np.array([2, 1, 2, 1, 0], np.int64)
    b = np.array([5, 9, 1, 9, 7], np.int64)
    # (0,7) < (1,9) < (2,1) < (2,5)
    assert col.codes(a, b).tolist() == [3, 1, 2, 1, 0]
