"""The QID grouping search (pure NumPy): groups of >= k rows, frequency l-diverse in the safe
profile, a failing tail merged backwards, infeasibility reported."""

from __future__ import annotations

import numpy as np
import pytest

from anonsql.algorithms.personalized.clustering import (
    frequency_l_holds,
    greedy_groups,
    group_sizes_of,
    quota_groups,
)
from anonsql.arrays import IntArray
from anonsql.errors import InfeasibleError


def test_k_only_chunks_blocks() -> None:
    # digest T3: blocks by the first ZIP digit hold 2, 2, 2, 4 rows
    assert greedy_groups(np.array([2, 2, 2, 4]), 2).tolist() == [0, 1, 2, 3]
    # blocks are never split; a short tail joins the last group
    assert greedy_groups(np.array([1, 1, 1, 1, 1]), 2).tolist() == [0, 2]
    assert greedy_groups(np.array([5]), 2).tolist() == [0]
    assert greedy_groups(np.zeros(0, np.int64), 2).tolist() == []
    with pytest.raises(InfeasibleError, match="lower k"):
        greedy_groups(np.array([1, 1]), 3)


@pytest.mark.parametrize("seed", range(12))
def test_groups_hold_k_and_l(seed: int) -> None:
    rng = np.random.default_rng(seed)
    blocks = int(rng.integers(5, 300))
    labels = int(rng.integers(2, 9))
    # blocks of 1-3 rows, labels skewed so that l-diversity binds
    counts = rng.multinomial(
        1, np.r_[0.35, np.full(labels - 1, 0.65 / (labels - 1))], size=(blocks, 3)
    ).sum(axis=1)
    sizes = counts.sum(axis=1)
    l = np.full(labels, 2)
    k = int(rng.integers(1, 8))
    total = counts.sum(axis=0)
    if total.sum() < k or not frequency_l_holds(total[None, :], np.array([total.sum()]), l)[0]:
        with pytest.raises(InfeasibleError):
            greedy_groups(sizes, k, counts, l)
        return
    starts = greedy_groups(sizes, k, counts, l)
    assert starts[0] == 0 and np.all(np.diff(starts) > 0)
    group = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, blocks)))
    per_group = np.zeros((len(starts), labels), np.int64)
    np.add.at(per_group, group, counts)
    group_sizes = group_sizes_of(starts, sizes)
    assert (group_sizes >= k).all()
    assert frequency_l_holds(per_group, group_sizes, l).all()
    # greedy: every group but the last is as short as the conditions allow
    for g in range(len(starts) - 1):
        first, last = starts[g], starts[g + 1] - 1
        if last > first:
            shorter = counts[first:last].sum(axis=0)
            assert not (
                shorter.sum() >= k
                and frequency_l_holds(shorter[None, :], np.array([shorter.sum()]), l)[0]
            )


def test_infeasible_l_is_reported() -> None:
    counts = np.array([[3, 1], [2, 0]])
    with pytest.raises(InfeasibleError, match="lower k or l"):
        greedy_groups(counts.sum(axis=1), 1, counts, np.array([2, 2]))


def test_tail_merges_with_fewest_groups() -> None:
    a, b, c = [1, 0, 0], [0, 1, 0], [0, 0, 1]
    l = np.array([2, 2, 2])
    # A B | C A | B: the tail (B) fails alone and holds with the group before it
    counts = np.array([a, b, c, a, b])
    starts = greedy_groups(counts.sum(axis=1), 2, counts, l)
    assert group_sizes_of(starts, counts.sum(axis=1)).tolist() == [2, 3]
    # B C | A B | A: the tail needs both groups (A B A is 2/3 A)
    counts = np.array([b, c, a, b, a])
    starts = greedy_groups(counts.sum(axis=1), 2, counts, l)
    assert starts.tolist() == [0]


def test_predicate() -> None:
    counts = np.array([[2, 2], [3, 1], [1, 0]])
    sizes = counts.sum(axis=1)
    assert frequency_l_holds(counts, sizes, np.array([2, 2])).tolist() == [True, False, False]
    assert frequency_l_holds(counts, sizes, np.array([1, 1])).tolist() == [True, True, True]


def _check_quota(labels: IntArray, l: IntArray, k: int) -> IntArray:
    group = quota_groups(labels, l, k)
    assert group.min() == 0 and len(np.unique(group)) == group.max() + 1
    sizes = np.bincount(group)
    assert (sizes >= k).all()
    for a in range(labels.shape[1]):
        table = np.zeros((len(sizes), labels[:, a].max() + 1), np.int64)
        np.add.at(table, (group, labels[:, a]), 1)
        assert frequency_l_holds(table, sizes, np.full(table.shape[1], l[a])).all()
    # groups are numbered in key order (by their rows' mean position)
    centers = np.bincount(group, weights=np.arange(len(group))) / sizes
    assert (np.diff(centers) >= 0).all()
    return group


@pytest.mark.parametrize("seed", range(10))
def test_quota_groups_hold_k_and_l(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 400))
    # a skewed region in the middle of the order, as Adult's 40-hour weeks at ages 24-47
    first = rng.choice(3, n, p=[0.45, 0.35, 0.2])
    middle = slice(n // 3, 2 * n // 3)
    first[middle] = rng.choice(3, len(first[middle]), p=[0.7, 0.2, 0.1])
    labels = np.column_stack([first, rng.choice(5, n)])
    l = np.array([2, 3])
    total = np.bincount(first)
    if total.max() * 2 > n or np.bincount(labels[:, 1]).max() * 3 > n:
        with pytest.raises(InfeasibleError):
            greedy_groups(np.ones(n, np.int64), 1, np.eye(3, dtype=np.int64)[first], np.full(3, 2))
        return
    k = int(rng.integers(1, 9))
    group = _check_quota(labels, l, k)
    # the skewed middle does not end up in one huge group, as a contiguous cut would make it
    assert np.bincount(group).max() <= max(4 * max(k, 3), n // 4)


def test_quota_groups_degenerate() -> None:
    assert quota_groups(np.zeros((0, 1), np.int64), np.array([2]), 3).tolist() == []
    # k only: chunks of k in key order, the short rest placed with the nearest group
    group = _check_quota(np.zeros((7, 0), np.int64), np.zeros(0, np.int64), 3)
    assert np.bincount(group).tolist() == [3, 4]
    # fewer rows than a group: one group
    assert quota_groups(np.array([[0], [1]]), np.array([2]), 5).tolist() == [0, 0]
