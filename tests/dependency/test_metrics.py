"""Entropy penalty, value distance, dependency loss and utility on the thesis's example
(Gorla 2019, Examples 3.8, 3.10, 4.1; digest T3-T7, T12), in NumPy and in SQL on both engines,
plus properties of the definitions on random data."""

from __future__ import annotations

import itertools
import math

import numpy as np
import numpy.typing as npt
import pytest
import random_data
from dependency_fixtures import (
    R_DOUBLE_PRIME,
    R_PRIME,
    hierarchies,
    record_of_tuple,
    records,
    table3,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from anonsql.algorithms.dependency.distance import (
    AttributeMetric,
    EntropyTable,
    Metrics,
    value_distance,
)
from anonsql.algorithms.dependency.loss import dependency_loss, ncp, utility
from anonsql.engines import Engine
from anonsql.hierarchies import materialize
from anonsql.metrics.dependency_loss import node_entropies, value_distances
from anonsql.sql import TableName

LOG10 = math.log(10)
Codes = npt.NDArray[np.int64]


def code(value: int) -> Codes:
    """A code as the vectorized functions take codes (a 0-d array: they call np.asarray)."""
    return np.asarray(value, np.int64)


def labels_of(clustering: list[int]) -> npt.NDArray[np.int64]:
    """Tuple-indexed clustering -> record-indexed labels."""
    e = records()
    out = np.empty(8, np.int64)
    out[record_of_tuple(e)] = clustering
    return out


def node_range(column: str, label: str) -> tuple[Codes, Codes]:
    node = hierarchies()[column].node_by_label[label]
    return code(node.first_leaf), code(node.last_leaf)


def metric(column: str) -> AttributeMetric:
    e = records()
    return Metrics(e).attributes[[a.name for a in e.attributes].index(column)]


def test_entropy_penalties_t3() -> None:
    prv, pc, med = metric("PRV"), metric("PC"), metric("MED")
    # H(X_PRV) = H(X_PC) = log 4, H(X_MED) = log 2 (thesis: ≈ 0.6 and 0.3 in log10)
    assert prv.table.h / LOG10 == pytest.approx(math.log10(4))
    assert pc.table.h == pytest.approx(math.log(4))
    assert med.table.h == pytest.approx(math.log(2))
    cc, jkl = node_range("PRV", "Central Canada"), node_range("PC", "[J,K,L]")
    # E(Central Canada) = E([J,K,L]) = 0.5 log 2 ≈ 0.15 (log10), Example 3.8
    assert prv.table.entropy(*cc) / LOG10 == pytest.approx(0.5 * math.log10(2))
    assert pc.table.entropy(*jkl) == pytest.approx(0.5 * math.log(2))
    assert prv.table.entropy(*node_range("PRV", "Prairies")) == 0.0
    assert med.table.entropy(*node_range("MED", "NSAID")) == 0.0
    assert prv.table.entropy(*node_range("PRV", "*")) == pytest.approx(prv.table.h)
    assert prv.table.entropy(*node_range("PRV", "QC")) == 0.0


def test_value_distances_t4_and_triangle_counterexample() -> None:
    prv, pc, med = metric("PRV"), metric("PC"), metric("MED")

    def delta(m: AttributeMetric, column: str, a: str, b: str) -> float:
        return float(value_distance(m, *node_range(column, a), *node_range(column, b)))

    assert delta(prv, "PRV", "QC", "Central Canada") == pytest.approx(0.25)
    assert delta(pc, "PC", "J5B", "[J,K,L]") == pytest.approx(0.25)
    assert delta(prv, "PRV", "BC", "Central Canada") == 1.0
    assert delta(prv, "PRV", "QC", "ON") == 1.0
    assert delta(prv, "PRV", "Central Canada", "*") == pytest.approx(0.75)
    assert delta(prv, "PRV", "MB", "Prairies") == 0.0
    assert delta(med, "MED", "ibuprofen", "NSAID") == 0.0
    assert delta(med, "MED", "ibuprofen", "*") == 1.0
    assert delta(prv, "PRV", "Central Canada", "QC") == delta(prv, "PRV", "QC", "Central Canada")
    # Proposition 1(c) is false: δ(QC, ON) = 1 > δ(QC, CC) + δ(CC, ON) = 0.5
    via = delta(prv, "PRV", "QC", "Central Canada") + delta(prv, "PRV", "Central Canada", "ON")
    assert delta(prv, "PRV", "QC", "ON") > via


def test_sql_entropies_and_distances_match_numpy(engine: Engine) -> None:
    source = TableName("t3", "main")
    engine.load_arrow(source, table3())
    for column, h in hierarchies().items():
        leaves, nodes = TableName(f"l_{column}", "main"), TableName(f"n_{column}", "main")
        materialize(engine, h, leaves, nodes)
        m = metric(column)
        sql = node_entropies(engine, source, column, leaves, nodes)
        assert [e.label for e in sql] == [n.label for n in h.nodes]
        for e in sql:
            lo, hi = code(e.first_leaf), code(e.last_leaf)
            assert e.entropy == pytest.approx(float(m.table.entropy(lo, hi)))
            assert e.ne == pytest.approx(float(m.ne(lo, hi)))
        labels = [n.label for n in h.nodes]
        pairs = list(itertools.product(labels[:6], labels[:6]))
        got = value_distances(engine, source, column, leaves, nodes, pairs)
        want = [
            float(value_distance(m, *node_range(column, a), *node_range(column, b)))
            for a, b in pairs
        ]
        assert got == pytest.approx(want)


def test_instance_distance_t5_and_loss_t6() -> None:
    e = records()
    r1, r2 = labels_of(R_PRIME), labels_of(R_DOUBLE_PRIME)
    loss1, loss2 = dependency_loss(e, r1), dependency_loss(e, r2)
    # Δ(R') = 0.5: p2 = (J5B, QC) and p3 = (K2H, ON) are at d = 0.25 from ([J,K,L], CC)
    assert loss1.loss == pytest.approx(0.5)
    assert loss1.normalized == pytest.approx(0.5 / 6)
    assert [g.loss for g in loss1.groups] == pytest.approx([0.5, 0.0])
    assert loss2.loss == pytest.approx(0.0)
    assert e.instances == 6
    # publishing only the cluster {t3, t6}: (J5B, QC, *, osteoarthritis) and (J5B, QC, *,
    # seizure); d(p5, the first) = (0 + δ(ibuprofen, *)) / 2 = 0.5, likewise d(p6, the second);
    # of PC -> PRV only p2 = (J5B, QC) is preserved, the other three cost 1
    pair = np.full(8, -1)
    pair[[record_of_tuple(e)[2], record_of_tuple(e)[5]]] = 0
    partial = dependency_loss(e, pair)
    assert [g.loss for g in partial.groups] == pytest.approx([3.0, 1.0])
    assert dependency_loss(e, np.full(8, -1)).loss == pytest.approx(6.0)  # all suppressed


def test_utility_t7_and_identity() -> None:
    e = records()
    singleton = np.arange(8)
    assert utility(e, singleton, 2) == pytest.approx(3.0)
    assert utility(e, labels_of(R_PRIME), 2) == pytest.approx(5.5)
    assert utility(e, labels_of(R_DOUBLE_PRIME), 2) == pytest.approx(6.0)
    # iteration 1 of PAIR-ENUM: utility of each merged pair (tuples 1..8)
    order = record_of_tuple(e)
    seen: dict[float, set[tuple[int, int]]] = {}
    for i, j in itertools.combinations(range(8), 2):
        clustering = list(range(8))
        clustering[j] = i
        lab = np.empty(8, np.int64)
        lab[order] = clustering
        u = round(utility(e, lab, 2), 9)
        seen.setdefault(u, set()).add((i + 1, j + 1))
    assert seen[4.0] == {(1, 2), (3, 4), (5, 6), (7, 8)}  # the thesis says 3.5 for (3, 4)
    assert seen[3.5] == {
        (1, 3), (1, 4), (2, 3), (2, 4), (3, 5), (3, 6), (4, 5), (4, 6), (5, 7), (5, 8), (6, 7),
        (6, 8),
    }  # fmt: skip
    assert len(seen[3.0]) == 28 - 16
    # exact-match δ reproduces the thesis's 3.5 for (3, 4)
    lab = np.empty(8, np.int64)
    lab[order] = [0, 1, 2, 2, 4, 5, 6, 7]
    assert utility(e, lab, 2, exact=True) == pytest.approx(3.5)


def test_classical_penalties_prefer_r_prime_t12() -> None:
    e = records()
    # NCP (anonsql's): R' generalizes 4 records on PC ([J,K,L]: 2 of 4 leaves) and PRV
    # (Central Canada: 2 of 7); R'' 4 records on MED (*: 8 of 8)
    assert ncp(e, labels_of(R_PRIME)) == pytest.approx(100 * (4 * 2 / 4 + 4 * 2 / 7) / 24)
    assert ncp(e, labels_of(R_DOUBLE_PRIME)) == pytest.approx(100 * 4 / 24)
    assert ncp(e, labels_of(R_PRIME)) < ncp(e, labels_of(R_DOUBLE_PRIME))


@st.composite
def counts(draw: st.DrawFn) -> npt.NDArray[np.int64]:
    return np.array(draw(st.lists(st.integers(0, 20), min_size=1, max_size=12)), np.int64)


@settings(max_examples=60, deadline=None)
@given(counts(), st.data())
def test_entropy_of_a_range_is_p_times_conditional_entropy(
    n: npt.NDArray[np.int64],
    data: st.DataObject,
) -> None:
    total = int(n.sum())
    table = EntropyTable.of(n)
    lo = data.draw(st.integers(0, len(n) - 1))
    hi = data.draw(st.integers(lo, len(n) - 1))
    inside = n[lo : hi + 1]
    nv = int(inside.sum())
    if total == 0:
        return
    expected = 0.0
    if nv:
        p = inside[inside > 0] / nv
        expected = nv / total * float(-(p * np.log(p)).sum())
    assert float(table.entropy(code(lo), code(hi))) == pytest.approx(expected, abs=1e-12)
    ne = float(table.normalized(code(lo), code(hi)))
    assert 0.0 <= ne <= 1.0
    assert float(table.normalized(code(0), code(len(n) - 1))) == (1.0 if table.h > 0 else 0.0)


def test_loss_is_bounded_and_zero_without_generalization() -> None:
    rng = np.random.default_rng(3)
    e = records()
    for _ in range(20):
        labels = rng.integers(-1, 3, size=8)
        loss = dependency_loss(e, labels)
        assert 0.0 <= loss.loss <= e.instances
    assert dependency_loss(e, np.arange(8)).loss == 0.0


@pytest.mark.parametrize("seed", range(5))
def test_utility_is_gamma_minus_loss_for_complete_k_clusterings(seed: int) -> None:
    """Digest §2.7: with every cluster of exactly k records, utility = |Γ| - Δ."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 5))
    e = random_data.records(6 * k, seed)
    labels = rng.permutation(np.repeat(np.arange(6), k))
    for exact in (False, True):
        loss = dependency_loss(e, labels, exact=exact).loss
        assert utility(e, labels, k, exact=exact) == pytest.approx(e.instances - loss)
