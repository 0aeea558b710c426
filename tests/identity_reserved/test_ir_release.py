"""Releases on both engines: fetching individuals, the published text form, the model checks on
published clusterings, and the metrics in SQL (digest T9, T11, vulnerable share)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ir_fixtures import AGE_DOMAIN, GENDERS, POSTCODES, hierarchies, table_2_columns
from ir_helpers import load, model, sql_violations

from anonsql.algorithms.identity_reserved.danonyir import DAnonyIROptions, danonyir, run_seeds
from anonsql.algorithms.identity_reserved.encoding import (
    Individuals,
    build_individuals,
    fetch_individuals,
)
from anonsql.algorithms.identity_reserved.geneir import GeneIROptions, geneir
from anonsql.algorithms.identity_reserved.generalization import (
    Interval,
    Suppressed,
    ValueSet,
    format_interval,
    format_set,
    parse_generalized,
)
from anonsql.algorithms.identity_reserved.limits import LimitError
from anonsql.algorithms.identity_reserved.record_counts import by_record_count
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.metrics.identity_reserved import (
    count_query_workload,
    information_loss,
    publish_clustering,
    query_error,
    vulnerable_share,
)
from anonsql.sql import TableName

QIDS = ["age", "gender", "postcode"]


def fetch_table_2(engine: Engine) -> tuple[TableName, Individuals]:
    source = load(engine, table_2_columns(), "t2_")
    individuals = fetch_individuals(
        engine,
        source,
        person="id_num",
        sensitive="disease",
        numeric=["age"],
        categorical=["gender", "postcode"],
        domains={"age": AGE_DOMAIN},
        categories={"gender": GENDERS, "postcode": POSTCODES},
    )
    return source, individuals


def test_fetched_individuals_match_the_in_memory_encoding(engine: Engine) -> None:
    _, fetched = fetch_table_2(engine)
    cols = table_2_columns()
    built = build_individuals(
        np.array(cols["id_num"]),
        np.array(cols["disease"], dtype=object),
        numeric={"age": cols["age"]},
        categorical={"gender": cols["gender"], "postcode": cols["postcode"]},
        domains={"age": AGE_DOMAIN},
        categories={"gender": GENDERS, "postcode": POSTCODES},
    )
    assert fetched.ids.tolist() == built.ids.tolist() == [1, 2, 3, 4, 5, 6, 7]
    assert fetched.records.tolist() == built.records.tolist() == [2, 1, 1, 2, 1, 2, 1]
    assert (fetched.codes == built.codes).all()
    assert (fetched.low == built.low).all() and (fetched.high == built.high).all()
    assert fetched.sa_indptr.tolist() == built.sa_indptr.tolist()
    assert fetched.sa_codes.tolist() == built.sa_codes.tolist()
    assert fetched.sa_values == built.sa_values


def test_fetch_refuses_bad_input(engine: Engine) -> None:
    base: dict[str, list[Any]] = {
        "p": [1, 1, 2],
        "c": ["x", "y", "x"],
        "n": [1, 2, None],
        "s": ["a", "b", "a"],
    }
    source = load(engine, base)
    with pytest.raises(SpecError, match="different values of this categorical") as err:
        fetch_individuals(engine, source, person="p", sensitive="s", categorical=["c"])
    assert err.value.key == "columns.c"
    with pytest.raises(SpecError, match="NULL in a quasi-identifier"):
        fetch_individuals(engine, source, person="p", sensitive="s", numeric=["n"])
    with pytest.raises(LimitError, match="2 individuals, above this algorithm's limit of 1"):
        fetch_individuals(engine, source, person="p", sensitive="s", max_individuals=1)
    source = load(engine, {"p": [1, 2], "n": [1, 5], "s": ["a", "b"]})
    with pytest.raises(SpecError, match="declared domain does not contain"):
        fetch_individuals(
            engine, source, person="p", sensitive="s", numeric=["n"], domains={"n": (2.0, 9.0)}
        )


# -- the text form --------------------------------------------------------------------------------

HOSTILE_TEXT = st.text(alphabet=st.sampled_from(list("ab ,{}%*[]'\\名")), max_size=6)


@settings(max_examples=200, deadline=None)
@given(values=st.lists(HOSTILE_TEXT, min_size=1, max_size=5, unique=True))
def test_sets_round_trip(values: list[str]) -> None:
    assert parse_generalized(format_set(values)) == ValueSet(tuple(values))


def test_text_forms() -> None:
    assert format_interval(33.0, 34.0) == "[33, 34]"
    assert format_interval(0.5, 1.25) == "[0.5, 1.25]"
    assert parse_generalized("[33, 34]") == Interval(33.0, 34.0)
    assert parse_generalized("[-1.5, 2]") == Interval(-1.5, 2.0)
    assert format_set(["10070", "a, b", "{x}", "5%"]) == "{10070, a%2C b, %7Bx%7D, 5%25}"
    assert parse_generalized("*") == Suppressed()
    with pytest.raises(ValueError, match="never empty"):
        format_set([])
    with pytest.raises(ValueError, match=r"\[lo, hi\]"):
        parse_generalized("36")


# -- releases and metrics in SQL --------------------------------------------------------------


def test_running_example_metrics(engine: Engine) -> None:
    source, individuals = fetch_table_2(engine)
    t4 = run_seeds(individuals, model("eir_l_diversity", column="disease", l=3), [5, 2])
    kl = model("ir_kl_anonymity", column="disease", k=3, l=3)
    t3 = geneir(
        individuals, kl, hierarchies(), GeneIROptions(order=("age", "postcode", "age", "gender"))
    )
    workload = load(
        engine,
        {
            "query": [0, 1, 2, 3, 4],
            "sa": ["Hypertension", "Hypertension", "Heart", "Hypertension", "Heart"],
            "lo0": [35.0, 33.0, None, None, 33.0],
            "hi0": [38.0, 33.0, None, None, 34.0],
            "v0": [None, None, None, "M", "F"],
            "v1": [None, None, "10085", None, None],
        },
        "w",
    )
    # T11 (Eq. 19 with integer overlaps): prec and relative errors on Tables 3 and 4
    expected = {
        "t3": ([6 / 5, 3 / 10, 1 / 3, 3 / 2, 3 / 10], 23 / 36, 1),
        "t4": ([2.0, 1 / 2, 1 / 4, 1.0, 1.0], 13 / 36, 0),
    }
    for name, result in (("t3", t3), ("t4", t4)):
        published = TableName(f"{name}_release", "main")
        publish_clustering(
            engine,
            target=published,
            source=source,
            individuals=individuals,
            clustering=result,
            person="id_num",
            sensitive="disease",
        )
        est, nloss, vulnerable = expected[name]
        report = information_loss(
            engine,
            published,
            source_records=individuals.total_records,
            numeric=individuals.numeric,
            categorical=individuals.categorical,
        )
        assert report.nloss == pytest.approx(nloss)
        assert report.loss == pytest.approx(result.loss)
        errors = query_error(
            engine,
            source=source,
            published=published,
            workload=workload,
            person="id_num",
            sensitive="disease",
            numeric=["age"],
            categorical=["gender", "postcode"],
        )
        assert errors.prec.tolist() == [2, 1, 1, 2, 1]
        assert errors.est.tolist() == pytest.approx(est)
        # the relative error is the mean over the queries
        assert errors.relative_error == pytest.approx(
            float(np.mean(np.abs(np.array(est) - errors.prec) / errors.prec))
        )
        share = vulnerable_share(
            engine, published, QIDS, person="id_num", sensitive="disease", k=3, ell=3
        )
        assert (share.classes, share.ir_classes, share.vulnerable) == (2, 2, vulnerable)
        share = vulnerable_share(
            engine, published, QIDS, person="id_num", sensitive="disease", alpha=0.4, beta=0.6
        )
        assert share.vulnerable == vulnerable
    # T9: Eq. 11 and 12 on single values through the loss query
    single = load(engine, {"age": ["[33, 38]"], "postcode": ["{10070, 10073, 10087}"]})
    one = information_loss(
        engine,
        single,
        source_records=1,
        numeric=individuals.numeric,
        categorical=individuals.categorical[1:],
    )
    assert Fraction(one.loss).limit_denominator(100) == Fraction(5, 9) + Fraction(2, 6)


def random_records(seed: int, n: int = 60) -> dict[str, list[Any]]:
    rng = np.random.default_rng(seed)
    rows: list[tuple[Any, ...]] = []
    values = ["flu", "cold, acute", "{hiv}", "ulcer%", "gout", "asthma", "mumps"]
    for p in range(n):
        age = int(rng.integers(18, 80))
        city = str(rng.choice(["Lyon", "Paris, FR", "Nice", "Rome"]))
        for v in rng.choice(values, size=int(rng.integers(1, 4)), replace=False):
            rows.append((f"p{p}", age, city, str(v)))
    return {
        "who": [r[0] for r in rows],
        "age": [r[1] for r in rows],
        "city": [r[2] for r in rows],
        "dx": [r[3] for r in rows],
    }


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("eir_l_diversity", {"l": 3}),
        ("eir_alpha_beta_anonymity", {"alpha": 0.5, "beta": 0.5}),
        ("ir_kl_anonymity", {"k": 3, "l": 3}),
        ("ir_alpha_beta_anonymity", {"alpha": 0.5, "beta": 0.4}),
    ],
)
def test_published_danonyir_releases_pass_their_check(
    engine: Engine, name: str, params: dict[str, float]
) -> None:
    data = random_records(len(name))
    source = load(engine, data)
    individuals = fetch_individuals(
        engine, source, person="who", sensitive="dx", numeric=["age"], categorical=["city"]
    )
    m = model(name, column="dx", **params)
    result = danonyir(individuals, m, DAnonyIROptions(seed=1))
    published = TableName(f"release_{name}", "main")
    publish_clustering(
        engine,
        target=published,
        source=source,
        individuals=individuals,
        clustering=result,
        person="who",
        sensitive="dx",
    )
    assert sql_violations(engine, m, published, ["age", "city"], "who") == {}
    assert engine.count_rows(published) == individuals.total_records - result.suppressed_records
    report = information_loss(
        engine,
        published,
        source_records=individuals.total_records,
        numeric=individuals.numeric,
        categorical=individuals.categorical,
    )
    assert report.loss == pytest.approx(result.loss)
    assert report.suppressed_records == result.suppressed_records
    workload = count_query_workload(individuals, queries=40, lam=2, seed=5)
    loaded = TableName(f"workload_{name}", "main")
    engine.load_arrow(loaded, workload)
    errors = query_error(
        engine,
        source=source,
        published=published,
        workload=loaded,
        person="who",
        sensitive="dx",
        numeric=["age"],
        categorical=["city"],
    )
    # every query matches its anchor individual, so none is skipped
    assert errors.skipped == 0 and (errors.prec >= 1).all()
    assert errors.relative_error >= 0.0


def test_releases_by_record_count_close_the_hole(engine: Engine) -> None:
    data = random_records(11, n=90)
    source = load(engine, data)
    individuals = fetch_individuals(
        engine, source, person="who", sensitive="dx", numeric=["age"], categorical=["city"]
    )
    protected = model("eir_l_diversity", column="dx", l=2, record_counts="protected")
    plain = danonyir(individuals, protected, DAnonyIROptions(seed=2))
    strata = by_record_count(individuals, lambda part: danonyir(part, protected))
    for name, result in (("plain", plain), ("strata", strata)):
        published = TableName(f"counts_{name}", "main")
        publish_clustering(
            engine,
            target=published,
            source=source,
            individuals=individuals,
            clustering=result,
            person="who",
            sensitive="dx",
        )
        found = sql_violations(engine, protected, published, ["age", "city"], "who")
        if name == "strata":
            assert found == {}
            for c in range(result.classes):
                members = result.cluster == c
                assert np.unique(individuals.records[members]).shape[0] == 1
        else:
            # clustering over all counts leaves count-refined classes that fail
            assert found != {}
    assert strata.persons.sum() + strata.suppressed_individuals == len(individuals)


def test_workload_is_seeded_and_constrains_lambda_columns() -> None:
    individuals = build_individuals(
        np.repeat(np.arange(30), 2),
        np.array([f"v{i % 7}" for i in range(60)], dtype=object),
        numeric={"a": np.repeat(np.arange(30), 2), "b": np.repeat(np.arange(30) % 5, 2)},
        categorical={"c": np.repeat(np.array(["x", "y", "z"] * 10), 2)},
    )
    first = count_query_workload(individuals, queries=50, lam=2, seed=9)
    assert first.equals(count_query_workload(individuals, queries=50, lam=2, seed=9))
    assert not first.equals(count_query_workload(individuals, queries=50, lam=2, seed=10))
    used = np.column_stack([np.asarray(first.column(c).is_valid()) for c in ("lo0", "lo1", "v0")])
    assert (used.sum(axis=1) == 2).all()
    with pytest.raises(ValueError, match="lambda"):
        count_query_workload(individuals, lam=4)


def test_release_table_loads(engine: Engine) -> None:
    # the class table carries one text per quasi-identifier, the assignment one row per person
    source, individuals = fetch_table_2(engine)
    result = run_seeds(individuals, model("ir_kl_anonymity", column="disease", k=3, l=3), [5, 2])
    published = TableName("kl_release", "main")
    publish_clustering(
        engine,
        target=published,
        source=source,
        individuals=individuals,
        clustering=result,
        person="id_num",
        sensitive="disease",
    )
    rows = engine.query("select_all", relation=published)
    # pseudonyms are the ranks 1..7 of a seeded hash, a bijection with the individuals
    assert sorted({r[0] for r in rows}) == [1, 2, 3, 4, 5, 6, 7]
    assert len(rows) == 10
    assert engine.count_rows(published.with_name("kl_release__classes")) == 2
    assert engine.count_rows(published.with_name("kl_release__assignment")) == 7


def test_vulnerable_share_over_count_refined_classes(engine: Engine) -> None:
    # Table 4 refined by record count: Q1 -> {4,6} (τ = 2) and {7} (one value); Q2 -> {1}
    # (two values, τ = 1) and {2,3,5} (τ = 3). IR (1,2) holds on all but {7}; of those, EIR
    # 2-diversity fails on {1} alone: Mike's two diagnoses are disclosed to who knows he has two
    source, individuals = fetch_table_2(engine)
    t4 = run_seeds(individuals, model("eir_l_diversity", column="disease", l=3), [5, 2])
    published = TableName("t4_counts", "main")
    publish_clustering(
        engine,
        target=published,
        source=source,
        individuals=individuals,
        clustering=t4,
        person="id_num",
        sensitive="disease",
    )
    share = vulnerable_share(
        engine,
        published,
        QIDS,
        person="id_num",
        sensitive="disease",
        k=1,
        ell=2,
        record_counts=True,
    )
    assert (share.classes, share.ir_classes, share.vulnerable) == (4, 3, 1)
    plain = vulnerable_share(
        engine, published, QIDS, person="id_num", sensitive="disease", k=1, ell=2
    )
    assert (plain.classes, plain.vulnerable) == (2, 0)


def test_bench_templates(engine: Engine) -> None:
    # the INFORMS benchmark's relation: distinct (person, code) pairs with demographics
    demographics = load(
        engine,
        {
            "DUPERSID": ["a", "b"],
            "DOBMM": [1, 2],
            "DOBYY": [1950, 1960],
            "RACEX": [1, 2],
            "EDUCYEAR": [12, 16],
            "marry": [1, 5],
            "income": [100, 200],
        },
    )
    conditions = load(
        engine, {"DUPERSID": ["a", "a", "a", "b"], "ICD9CODX": ["401", "401", "250", "V70"]}
    )
    target = TableName("informs_like", "main")
    engine.run(
        "bench/identity_reserved_informs",
        target=target,
        conditions=conditions,
        demographics=demographics,
    )
    assert engine.count_rows(target) == 3
    values = engine.query("bench/distinct_values", relation=target, column="marry")
    assert sorted(v[0] for v in values) == [1, 5]
