"""Minimum hitting sets (Theorem 3.1): the exact search, the incremental product family
(Algorithm 5) and the paper's BHS / Algorithm 2 against brute force (digest T6-T8)."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonsql.algorithms.identity_reserved.limits import LimitError
from anonsql.privacy.hitting_sets import (
    HittingFamily,
    bhs,
    bitmask_rows,
    hitting_set_within,
    is_eir_diverse,
    minimum_hitting_set_size,
    sat_el_algorithm2,
)

PAPER_PSI = [{1, 3}, {1, 3, 5}, {1, 6}, {3, 5}, {5, 7}, {4}, {4, 5}, {4, 6}]


def rows(sets: list[set[int]] | list[frozenset[int]], values: int = 130) -> npt.NDArray[np.uint64]:
    indptr = np.concatenate([[0], np.cumsum([len(s) for s in sets])])
    codes = [v for s in sets for v in sorted(s)]
    return bitmask_rows(indptr, codes, values)


def brute_force(sets: list[frozenset[int]]) -> int:
    values = sorted(frozenset().union(*sets))
    for size in range(len(values) + 1):
        for candidate in itertools.combinations(values, size):
            if all(s & set(candidate) for s in sets):
                return size
    raise AssertionError("unreachable")


def test_bhs_reproduces_the_papers_worked_example() -> None:
    # T8: BHS returns {x1,x4,x5}, {x3,x4,x5,x6}, {x3,x4,x6,x7}; the true minimal family also
    # holds {x1,x3,x4,x7}, but the minimum size, 3, is what matters
    found = {frozenset(h) for h in bhs(PAPER_PSI)}
    assert found == {frozenset({1, 4, 5}), frozenset({3, 4, 5, 6}), frozenset({3, 4, 6, 7})}
    assert minimum_hitting_set_size(rows(PAPER_PSI)) == 3
    assert bhs([{2, 3}, {2, 4}, {1, 2}]) == {frozenset({2})}


def test_algorithm_2_branches() -> None:
    # T7: three singletons give |ξ| = 3 >= 3; Table 3's Q2 gives ξ = {Hyp}, Ψ then empty
    assert sat_el_algorithm2([{"Cancer"}, {"HIV"}, {"Syphilis"}], 3)
    q2 = [{"Hyp", "Heart"}, {"Hyp"}, {"Hyp", "Diab"}]
    assert not sat_el_algorithm2(q2, 3)
    assert not sat_el_algorithm2(q2, 2)
    assert sat_el_algorithm2(q2, 1)


def test_incremental_trace_of_the_running_example() -> None:
    # T6: {6} -> Leuk + Heart; +7 -> Leuk·Syph + Heart·Syph; +4 -> four sets of size 3
    leuk, heart, syph, hyp, diab = range(5)
    family = HittingFamily(4, 5)
    family.add([leuk, heart])
    assert family.minimum() == 1 and family.family.shape[0] == 2
    family.add([syph])
    assert family.minimum() == 2 and family.family.shape[0] == 2
    family.add([hyp, diab])
    assert family.minimum() == 3 and family.family.shape[0] == 4
    at_three = HittingFamily(3, 5)
    for values in ([leuk, heart], [syph], [hyp, diab]):
        assert not at_three.satisfied
        at_three.add(values)
    assert at_three.satisfied


@settings(max_examples=100, deadline=None)
@given(
    sets=st.lists(
        st.frozensets(st.integers(0, 129), min_size=1, max_size=4), min_size=1, max_size=8
    ),
    small=st.booleans(),
)
def test_deciders_agree_with_brute_force(sets: list[frozenset[int]], small: bool) -> None:
    if small:
        sets = [frozenset(v % 7 for v in s) for s in sets]
    tau = brute_force(sets)
    bits = rows(sets)
    assert minimum_hitting_set_size(bits) == tau
    assert min(len(h) for h in bhs(sets)) == tau
    for ell in range(1, 6):
        assert is_eir_diverse(bits, ell) == (tau >= ell)
        assert sat_el_algorithm2(sets, ell) == (tau >= ell)
        family = HittingFamily(ell, 130)
        for s in sets:
            family.add(sorted(s))
        assert family.satisfied == (tau >= ell)
        if not family.satisfied:
            assert family.minimum() == tau


def test_family_overflows_past_its_cap() -> None:
    family = HittingFamily(6, 100, cap=50)
    for start in range(0, 40, 4):
        family.add(list(range(start, start + 4)))
    assert family.overflowed


def test_search_limit_is_a_clear_error() -> None:
    # the edges of K9: a hitting set is a vertex cover, the minimum has 8 vertices, and the
    # counting bound (36 sets / 8 per vertex) cannot prove it
    edges = [set(e) for e in itertools.combinations(range(9), 2)]
    with pytest.raises(LimitError, match="search nodes") as err:
        hitting_set_within(rows(edges, 9), 7, node_limit=100)
    assert "MAX_SEARCH_NODES" in err.value.fix
    assert err.value.key == "privacy.eir_l_diversity.l"
    assert not hitting_set_within(rows(edges, 9), 7)
    assert minimum_hitting_set_size(rows(edges, 9)) == 8
