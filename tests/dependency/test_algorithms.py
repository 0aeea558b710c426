"""PAIR-ENUM, k-ASSEMBLE, k-member and Top-down: the thesis's worked examples (digest T8-T11,
T14), brute-force references of the incremental utility bookkeeping, properties on random data
and the size limits."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
import random_data
import reference
from dependency_fixtures import R_DOUBLE_PRIME, R_PRIME, record_of_tuple, records

from anonsql.algorithms.dependency.encoding import EncodedRecords
from anonsql.algorithms.dependency.k_assemble import Assembler, k_assemble
from anonsql.algorithms.dependency.k_member import k_member
from anonsql.algorithms.dependency.loss import dependency_loss, utility
from anonsql.algorithms.dependency.pair_enum import PairEnum, pair_enum
from anonsql.algorithms.dependency.result import ClusteringResult, canonical_labels
from anonsql.algorithms.dependency.top_down import top_down
from anonsql.errors import SpecError


def clusters_as_tuples(e: EncodedRecords, labels: npt.NDArray[np.int64]) -> set[frozenset[int]]:
    """Clusters as sets of tuple numbers 1..8."""
    tuple_of = {r: t + 1 for t, r in enumerate(record_of_tuple(e))}
    out: dict[int, set[int]] = {}
    for r, label in enumerate(labels):
        if label >= 0:
            out.setdefault(int(label), set()).add(tuple_of[r])
    return {frozenset(c) for c in out.values()}


def as_sets(clustering: list[int]) -> set[frozenset[int]]:
    out: dict[int, set[int]] = {}
    for t, c in enumerate(clustering):
        out.setdefault(c, set()).add(t + 1)
    return {frozenset(c) for c in out.values()}


def trace(e: EncodedRecords, *, exact: bool) -> tuple[PairEnum, list[frozenset[int]]]:
    state = PairEnum(e, 2, exact=exact, neighbours=None)
    tuple_of = {r: t + 1 for t, r in enumerate(record_of_tuple(e))}
    chosen = []
    while state.unsealed_records() >= 2 and state.step():
        u, v = state.history[-1][:2]
        chosen.append(frozenset({tuple_of[u], tuple_of[v]}))
    return state, chosen


def test_pair_enum_under_the_definitions_ends_at_r_prime_t8() -> None:
    e = records()
    state, chosen = trace(e, exact=False)
    assert [h[2] for h in state.history] == pytest.approx([4.0, 5.0, 5.5, 5.5])
    assert [h[3] for h in state.history] == [4, 2, 1, 1]  # candidates tied at the maximum
    assert chosen == [frozenset(p) for p in ({1, 2}, {5, 6}, {7, 8}, {3, 4})]
    result = pair_enum(e, 2, neighbours=None)
    assert clusters_as_tuples(e, result.labels) == as_sets(R_PRIME)
    assert dependency_loss(e, result.labels).loss == pytest.approx(0.5)
    assert utility(e, result.labels, 2) == pytest.approx(5.5)


def test_pair_enum_under_exact_match_reproduces_example_4_2_t9() -> None:
    e = records()
    state, chosen = trace(e, exact=True)
    assert [h[2] for h in state.history] == pytest.approx([4.0, 5.0, 5.5, 6.0])
    assert [h[3] for h in state.history] == [2, 1, 2, 1]
    assert chosen == [frozenset(p) for p in ({1, 2}, {7, 8}, {3, 6}, {4, 5})]
    result = pair_enum(e, 2, neighbours=None, exact_distance=True)
    assert clusters_as_tuples(e, result.labels) == as_sets(R_DOUBLE_PRIME)
    assert dependency_loss(e, result.labels).loss == 0.0


def test_pair_enum_breaking_ties_by_closeness_reaches_r_double_prime() -> None:
    """An extension, not the thesis: among equal-utility merges take the closest clusters."""
    e = records()
    result = pair_enum(e, 2, neighbours=None, ties="closest")
    assert clusters_as_tuples(e, result.labels) == as_sets(R_DOUBLE_PRIME)
    assert dependency_loss(e, result.labels).loss == 0.0


def test_nearest_neighbours_t10() -> None:
    e = records()
    r = record_of_tuple(e)
    state = Assembler(e, 2, index_size=None)
    grown = state.grow(np.array([r[0], r[3], r[4], r[2], r[5], r[6]]))
    partner = {int(row[0]): int(row[1]) for row in grown}
    assert partner == {r[0]: r[1], r[3]: r[4], r[4]: r[3], r[2]: r[5], r[5]: r[2], r[6]: r[7]}


def test_k_assemble_example_4_3_t11() -> None:
    e = records()
    r = record_of_tuple(e)
    state = Assembler(e, 2, index_size=None)
    start = utility(e, np.arange(8), 2)
    cands = state.grow(np.array([r[0], r[3]]))
    assert start + state.gains(cands) == pytest.approx([4.0, 3.5])
    state.round(np.array([r[0], r[3]]))
    now = start + 1.0
    cands = state.grow(np.array([r[4], r[6]]))
    assert now + state.gains(cands) == pytest.approx([4.5, 5.0])


Clustering = frozenset[frozenset[int]]


def final_states(state: Assembler, m: int, seen: dict[bytes, set[Clustering]]) -> set[Clustering]:
    """Every final clustering reachable from ``state`` over all ordered seed draws of size m."""
    key = state.labels.tobytes()
    if key in seen:
        return seen[key]
    open_ = np.flatnonzero(state.unsealed)
    if len(open_) < state.k:
        labels = state.labels
        clusters = (np.flatnonzero(labels == c).tolist() for c in set(labels.tolist()) if c >= 0)
        out = {frozenset(frozenset(c) for c in clusters)}
        seen[key] = out
        return out
    out = set()
    for seeds in itertools.permutations(open_.tolist(), min(m, len(open_))):
        nxt = copy.deepcopy(state)
        nxt.round(np.array(seeds))
        out |= final_states(nxt, m, seen)
    seen[key] = out
    return out


@pytest.mark.parametrize("m", [1, 2, 3])
def test_k_assemble_reaches_zero_loss_for_every_seed_choice_t11(m: int) -> None:
    e = records()
    finals = final_states(Assembler(e, 2, index_size=None), m, {})
    tuple_of = {rec: t + 1 for t, rec in enumerate(record_of_tuple(e))}
    as_tuples = {frozenset(frozenset(tuple_of[x] for x in c) for c in f) for f in finals}
    assert as_tuples == {frozenset(as_sets(R_DOUBLE_PRIME))}


@pytest.mark.parametrize(("n", "k", "seed"), [(10, 2, 0), (11, 3, 1), (12, 2, 2), (13, 4, 3)])
def test_pair_enum_matches_the_brute_force_reference(n: int, k: int, seed: int) -> None:
    e = random_data.records(n, seed)
    for exact in (False, True):
        want, history = reference.pair_enum(e, k, exact=exact)
        state = PairEnum(e, k, exact=exact, neighbours=None)
        while state.unsealed_records() >= k and state.step():
            pass
        assert [h[2] for h in state.history] == pytest.approx(history)
        assert np.array_equal(canonical_labels(state.labels()), want)


@pytest.mark.parametrize(("n", "k", "q", "seed"), [(12, 2, 1, 4), (14, 3, 2, 5), (13, 2, 3, 6)])
def test_pair_enum_opt1_matches_the_brute_force_reference(
    n: int, k: int, q: int, seed: int
) -> None:
    e = random_data.records(n, seed)
    want, _ = reference.pair_enum(e, k, q=q)
    result = pair_enum(e, k, neighbours=q)
    assert np.array_equal(result.labels, want)


@pytest.mark.parametrize(("n", "k", "pool", "seed"), [(10, 2, 1, 0), (12, 3, 2, 1), (13, 2, 3, 2)])
def test_k_assemble_matches_the_brute_force_reference(n: int, k: int, pool: int, seed: int) -> None:
    e = random_data.records(n, seed)
    for exact in (False, True):
        want = reference.k_assemble(e, k, pool=pool, seed=seed, exact=exact)
        got = k_assemble(e, k, pool=pool, seed=seed, exact_distance=exact)
        assert np.array_equal(got.labels, want)


def check_result(e: EncodedRecords, result: ClusteringResult, k: int, exactly_k: bool) -> None:
    labels = result.labels
    sizes = np.bincount(labels[labels >= 0]) if (labels >= 0).any() else np.zeros(0, int)
    assert (sizes >= k).all()
    if exactly_k:
        assert (sizes == k).all()
        assert result.suppressed < k
    else:
        assert result.suppressed == (e.size if e.size < k else 0)
    parts = result.parts.to_pydict()
    kept = [i for i, pid in enumerate(parts["pid"]) if pid >= 0]
    assert [parts["n"][i] for i in kept] == sizes.tolist()
    for a, attribute in enumerate(e.qi):
        for i in kept:
            members = e.codes[labels == parts["pid"][i], a]
            if attribute.values is not None:
                assert parts[f"lo{a}"][i] == attribute.values[members.min()]
                assert parts[f"hi{a}"][i] == attribute.values[members.max()]
            else:
                assert attribute.tree is not None
                node = parts[f"node{a}"][i]
                assert attribute.tree.first_leaf[node] <= members.min()
                assert members.max() <= attribute.tree.last_leaf[node]
                assert node == attribute.tree.lca(members.min(), members.max())


@pytest.mark.parametrize("seed", range(6))
def test_properties_on_random_data(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    k = int(rng.integers(2, 6))
    e = random_data.records(n, seed)
    runs: dict[str, Callable[[int], ClusteringResult]] = {
        "pair_enum": lambda s: pair_enum(e, k, neighbours=3),
        "k_assemble": lambda s: k_assemble(e, k, pool=3, seed=s),
        "k_assemble_opt2": lambda s: k_assemble(e, k, pool=2, seed=s, index_size=2 * k + 1),
        "k_member": lambda s: k_member(e, k, seed=s),
        "top_down": lambda s: top_down(e, k, seed=s),
    }
    for name, run in runs.items():
        first = run(seed)
        check_result(e, first, k, exactly_k=name.startswith(("pair", "k_assemble")))
        assert np.array_equal(first.labels, run(seed).labels), name  # deterministic
        loss = dependency_loss(e, first.labels)
        assert 0.0 <= loss.loss <= e.instances
        if name == "top_down":
            sizes = np.bincount(first.labels[first.labels >= 0])
            assert (sizes < 2 * k).all() or e.size < 2 * k


def test_fewer_records_than_k_are_all_suppressed() -> None:
    e = random_data.records(3, 0)
    for result in (pair_enum(e, 4), k_assemble(e, 4), k_member(e, 4), top_down(e, 4)):
        assert result.suppressed == 3 and result.clusters == 0


def test_limits_and_parameters_are_enforced() -> None:
    e = random_data.records(30, 0)
    with pytest.raises(SpecError) as err:
        pair_enum(e, 2, max_records=20)
    assert err.value.key == "algorithm.pair_enum.max_records"
    assert "30 records exceed" in err.value.problem and err.value.fix
    with pytest.raises(SpecError, match="every pair is a candidate"):
        pair_enum(e, 2, neighbours=None, max_records_all_pairs=10)
    with pytest.raises(SpecError) as err:
        pair_enum(e, 2, max_cells=100)
    assert err.value.key == "algorithm.pair_enum.max_cells"
    with pytest.raises(SpecError, match="max_records"):
        k_assemble(e, 2, max_records=10)
    with pytest.raises(SpecError, match="max_records"):
        k_member(e, 2, max_records=10)
    with pytest.raises(SpecError, match="max_records"):
        top_down(e, 2, max_records=10)
    with pytest.raises(SpecError, match="index_size"):
        k_assemble(e, 3, index_size=6)
    with pytest.raises(SpecError, match="pool"):
        k_assemble(e, 3, pool=0)
    with pytest.raises(SpecError, match="neighbours"):
        pair_enum(e, 3, neighbours=0)
    with pytest.raises(SpecError, match="k = 0"):
        k_member(e, 0)
