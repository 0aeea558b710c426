"""The four identity-reserved models: the paper's tables (digest T1, T3), parameter validation,
and the SQL violation query against the predicate over PartStats (with its fields for
individuals) on random relations, on both engines."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ir_fixtures import TABLE_3, TABLE_4, columns
from ir_helpers import load, model, python_violations, sql_violations

from anonsql.algorithms.identity_reserved.encoding import build_individuals, individual_part_stats
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.privacy.base import DataProfile, PartStats

QIDS = ["gender", "age", "postcode"]
T3_Q1 = ("F", "[30, 39]", "1007*")
T3_Q2 = ("*", "[30, 39]", "1008*")
T4_Q1 = ("{F}", "[33, 34]", "{10070, 10073, 10087}")
T4_Q2 = ("{F, M}", "[36, 38]", "{10076, 10077, 10085, 10086}")


def check(engine: Engine, table: list[Any], name: str, **params: Any) -> dict[Any, Any]:
    cols = columns(table)
    m = model(name, column="disease", **params)
    found = sql_violations(engine, m, load(engine, cols), QIDS, "id_num")
    assert set(found) == python_violations(m, cols, QIDS, "id_num", "disease")
    return found


def test_table_3_is_ir_but_q2_leaks(engine: Engine) -> None:
    # T1: IR (3,3) and IR (0.4,0.6) hold; in Q2 every individual has Hypertension, so the
    # minimum hitting set is {Hypertension} and |P(Hyp)| / n = 3/3
    assert check(engine, TABLE_3, "ir_kl_anonymity", k=3, l=3) == {}
    assert check(engine, TABLE_3, "ir_alpha_beta_anonymity", alpha=0.4, beta=0.6) == {}
    assert check(engine, TABLE_3, "eir_l_diversity", l=3) == {T3_Q2: (3, 3, 1)}
    assert check(engine, TABLE_3, "eir_alpha_beta_anonymity", alpha=0.4, beta=0.6) == {
        T3_Q2: (3, 5, 2, 3)
    }
    # Q1 {2,5,6,7}: τ = 4, so EIR 4-diversity holds there and fails only in Q2
    assert set(check(engine, TABLE_3, "eir_l_diversity", l=4)) == {T3_Q2}
    assert set(check(engine, TABLE_3, "eir_l_diversity", l=5)) == {T3_Q1, T3_Q2}


def test_table_4_satisfies_all_four_and_the_boundaries(engine: Engine) -> None:
    # T3: both classes satisfy EIR 3-div, EIR/IR (0.4, 0.6), IR (3,3)
    cases: list[tuple[str, dict[str, Any]]] = [
        ("ir_kl_anonymity", {"k": 3, "l": 3}),
        ("ir_alpha_beta_anonymity", {"alpha": 0.4, "beta": 0.6}),
        ("eir_l_diversity", {"l": 3}),
        ("eir_alpha_beta_anonymity", {"alpha": 0.4, "beta": 0.6}),
    ]
    for name, params in cases:
        assert check(engine, TABLE_4, name, **params) == {}, name
    # τ = 3 in both classes: EIR 4-diversity fails on both, reporting τ
    assert check(engine, TABLE_4, "eir_l_diversity", l=4) == {
        T4_Q1: (3, 5, 3),
        T4_Q2: (4, 4, 3),
    }
    # Q2: |P(Hyp)| / n = 2/4 > 0.49; the α test is inclusive (2/5 = 0.4 passes, 0.39 fails)
    assert check(engine, TABLE_4, "eir_alpha_beta_anonymity", alpha=0.4, beta=0.49) == {
        T4_Q2: (4, 5, 2, 2)
    }
    assert set(check(engine, TABLE_4, "eir_alpha_beta_anonymity", alpha=0.39, beta=0.6)) == {
        T4_Q1,
        T4_Q2,
    }
    # IR (α,β) counts records: |R(Hyp)| / |Q2| = 2/5
    assert check(engine, TABLE_4, "ir_alpha_beta_anonymity", alpha=0.4, beta=0.39) == {
        T4_Q2: (5, 2, 2)
    }


def test_protected_record_counts_refine_the_classes(engine: Engine) -> None:
    # the record-count hole: in Table 4's Q2 only Id_num 1 has two records, so an attacker who
    # knows Mike has two diagnoses learns both; refined by record count, Q2 splits into {1}
    # (τ = 1) and {2,3,5} (τ = 3), Q1 into {4,6} (τ = 2) and {7} (τ = 1)
    found = check(engine, TABLE_4, "eir_l_diversity", l=3, record_counts="protected")
    assert found == {
        (*T4_Q1, 1): (1, 1, 1),
        (*T4_Q1, 2): (2, 4, 2),
        (*T4_Q2, 2): (1, 2, 1),
    }
    assert check(engine, TABLE_4, "eir_l_diversity", l=3) == {}


def test_k_and_l_of_ir_kl_are_separate(engine: Engine) -> None:
    assert set(check(engine, TABLE_4, "ir_kl_anonymity", k=4, l=3)) == {T4_Q1}
    assert set(check(engine, TABLE_4, "ir_kl_anonymity", k=3, l=5)) == {T4_Q2}


@pytest.mark.parametrize(
    ("name", "params", "key"),
    [
        ("ir_kl_anonymity", {"k": 0, "l": 2}, "k"),
        ("ir_kl_anonymity", {"k": 2, "l": 0}, "l"),
        ("eir_l_diversity", {"l": 0}, "l"),
        ("ir_alpha_beta_anonymity", {"alpha": 0.0, "beta": 0.5}, "alpha"),
        ("eir_alpha_beta_anonymity", {"alpha": 0.5, "beta": 1.5}, "beta"),
    ],
)
def test_bad_parameters_name_the_key(name: str, params: dict[str, Any], key: str) -> None:
    with pytest.raises(SpecError) as err:
        model(name, column="sa", **params)
    assert err.value.key == f"privacy[0].{name}.{key}"


def test_parameters_against_the_data() -> None:
    profile = DataProfile(rows=5, distinct_sensitive={"sa": 3})
    with pytest.raises(SpecError, match="exceeds the 3 distinct sensitive values"):
        model("eir_l_diversity", column="sa", l=4).check_against(profile, "privacy[0].x")
    with pytest.raises(SpecError, match="exceeds the 5 individuals"):
        model("ir_kl_anonymity", column="sa", k=6, l=2).check_against(profile, "privacy[0].x")
    # EIR (α,β) needs n >= ceil(1/β) individuals per class (digest D-5)
    eab = model("eir_alpha_beta_anonymity", column="sa", alpha=0.5, beta=0.15)
    assert eab.min_rows() == 7
    with pytest.raises(SpecError, match="needs at least 7 individuals"):
        eab.check_against(profile, "privacy[0].x")
    assert model("ir_alpha_beta_anonymity", column="sa", alpha=0.4, beta=0.1).min_rows() == 3


def test_models_need_the_person_column(engine: Engine) -> None:
    m = model("eir_l_diversity", column="disease", l=2)
    with pytest.raises(SpecError, match="person_id"):
        m.violations_sql(engine.sql, load(engine, columns(TABLE_4)), QIDS)


def test_models_needing_record_counts_refuse_plain_part_stats() -> None:
    plain = PartStats(counts=np.array([3]), histograms={"sa": np.array([[1, 2]])})
    with pytest.raises(ValueError, match="set_histograms, set_members of column 'sa'"):
        model("eir_l_diversity", column="sa", l=2).holds(plain)
    # IR (k,l) only needs individuals and values per part, which PartStats has
    assert model("ir_kl_anonymity", column="sa", k=3, l=2).holds(plain).tolist() == [True]


def test_part_stats_take_keeps_the_extended_fields() -> None:
    individuals = build_individuals(
        np.array([1, 1, 2, 3, 3, 3]), np.array(["a", "b", "a", "c", "a", "b"], dtype=object)
    )
    stats = individual_part_stats(individuals, np.array([0, 1, 1]), 2, "sa")
    taken = stats.take(np.array([1]))
    assert taken.records is not None and taken.max_person_records is not None
    assert taken.counts.tolist() == [2]
    assert taken.records.tolist() == [4]
    assert taken.max_person_records.tolist() == [3]


# -- SQL == predicate on random relations ------------------------------------------------------

HOSTILE = ['zip "code"', "cls", "select", "ünï名"]


@st.composite
def relations(draw: st.DrawFn) -> dict[str, list[Any]]:
    """Rows of persons: a few classes (two QIDs), persons with several rows, possibly spread
    over classes, sensitive values from a small domain including NULL, repeats allowed."""
    persons = draw(st.integers(1, 12))
    rows: list[tuple[Any, ...]] = []
    for p in range(persons):
        vector = (draw(st.sampled_from(["a", "b"])), draw(st.integers(0, 2)))
        for _ in range(draw(st.integers(1, 4))):
            if draw(st.integers(0, 9)) == 0:
                vector = (draw(st.sampled_from(["a", "b"])), draw(st.integers(0, 2)))
            value = draw(st.sampled_from(["flu", "cold", "hiv", "ulcer", "gout", None]))
            rows.append((p, *vector, value))
    q0, q1, person, sa = HOSTILE
    return {
        person: [r[0] for r in rows],
        q0: [r[1] for r in rows],
        q1: [r[2] for r in rows],
        sa: [r[3] for r in rows],
    }


MODEL_CASES: list[tuple[str, dict[str, Any]]] = [
    ("ir_kl_anonymity", {"k": 2, "l": 2}),
    ("ir_kl_anonymity", {"k": 3, "l": 1}),
    ("ir_alpha_beta_anonymity", {"alpha": 0.5, "beta": 0.5}),
    ("ir_alpha_beta_anonymity", {"alpha": 0.4, "beta": 0.6}),
    ("eir_alpha_beta_anonymity", {"alpha": 0.5, "beta": 0.5}),
    ("eir_alpha_beta_anonymity", {"alpha": 0.6, "beta": 0.4}),
    ("eir_l_diversity", {"l": 2}),
    ("eir_l_diversity", {"l": 3}),
    ("eir_l_diversity", {"l": 2, "record_counts": "protected"}),
    ("ir_kl_anonymity", {"k": 2, "l": 2, "record_counts": "protected"}),
    ("eir_alpha_beta_anonymity", {"alpha": 0.6, "beta": 0.5, "record_counts": "protected"}),
]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=relations())
def test_sql_agrees_with_the_predicate(engine: Engine, data: dict[str, list[Any]]) -> None:
    q0, q1, person, sa = HOSTILE
    relation = load(engine, data)
    for name, params in MODEL_CASES:
        m = model(name, column=sa, **params)
        found = sql_violations(engine, m, relation, [q0, q1], person)
        assert set(found) == python_violations(m, data, [q0, q1], person, sa), (name, params)


def _reasoning_minimum(sets: list[frozenset[Any]]) -> int:
    """Brute force over the reasoning space: one value per individual, fewest distinct."""
    return min(len(set(choice)) for choice in itertools.product(*[sorted(s) for s in sets]))


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    sets=st.lists(st.frozensets(st.integers(0, 6), min_size=1, max_size=3), min_size=1, max_size=6)
)
def test_reported_hitting_set_is_the_smallest_reasoning_set(
    engine: Engine, sets: list[frozenset[int]]
) -> None:
    # T13 / digest D-1: Theorem 3.1 is an equivalence, and the SQL search reports τ exactly
    rows = [(p, v) for p, values in enumerate(sets) for v in sorted(values)]
    data: dict[str, list[Any]] = {
        "p": [r[0] for r in rows],
        "q": ["x"] * len(rows),
        "s": [r[1] for r in rows],
    }
    relation = load(engine, data)
    tau = _reasoning_minimum(sets)
    for ell in (tau, tau + 1):
        found = sql_violations(
            engine, model("eir_l_diversity", column="s", l=ell), relation, ["q"], "p"
        )
        if ell > tau:
            assert found == {("x",): (len(sets), len(frozenset().union(*sets)), tau)}
        else:
            assert found == {}
        # EIR l-diversity implies IR (l,l)-anonymity (digest D-3)
        if not found:
            kl = model("ir_kl_anonymity", column="s", k=ell, l=ell)
            assert sql_violations(engine, kl, relation, ["q"], "p") == {}
