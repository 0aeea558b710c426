"""Metrics in SQL on releases whose values are known: a release that publishes every row
exactly (query error 0, NCP 0) and one that publishes a single group (NCP 1)."""

from __future__ import annotations

import pytest
from personalized_fixtures import load_table_2, paper_config, publish, safe_config

from anonsql.algorithms.personalized.config import CategoricalSA, ClusterKey, NumericSA
from anonsql.engines import Engine
from anonsql.metrics.personalized import make_workload, personalized_metrics, query_error


@pytest.mark.parametrize("profile", ["paper_compat", "safe"])
def test_exact_release_answers_queries_exactly(engine: Engine, profile: str) -> None:
    load_table_2(engine)
    make = paper_config if profile == "paper_compat" else safe_config
    # no per-attribute bucket sizes: buckets of one cell, groups of one row
    categorical = tuple(CategoricalSA(c.column, c.taxonomy) for c in make().categorical)
    numeric = tuple(NumericSA(n.column, n.terms) for n in make().numeric)
    config = make(
        k=1,
        l=1,
        bucket_k=1,
        cluster_key=tuple(ClusterKey(q) for q in ("age", "gender", "zipcode")),
        categorical=categorical,
        numeric=numeric,
    )
    released = publish(engine, config, name=profile)
    assert released.release.grouping.groups == 10
    metrics = personalized_metrics(engine, released.release.decisions, queries=60)
    assert [q.sensitive for q in metrics.query_error] == [1, 2]
    for q in metrics.query_error:
        assert q.queries == 60
        assert q.mean == pytest.approx(0.0, abs=1e-9)
    assert all(v == 0.0 for _, v in metrics.qid_ncp)
    assert metrics.qid_privacy_gain == 0.0


def test_one_group_release(engine: Engine) -> None:
    load_table_2(engine)
    released = publish(engine, paper_config(k=10))
    assert released.release.grouping.groups == 1
    metrics = personalized_metrics(engine, released.release.decisions, queries=30)
    assert dict(metrics.qid_ncp) == {"age": 1.0, "gender": 1.0, "zipcode": 1.0}
    assert metrics.qid_privacy_gain == pytest.approx(0.9)
    # one group: the estimate spreads the group's labels over the predicate's share
    errors = [
        query_error(engine, released.release.decisions, sensitive=2, queries=30, seed=s).mean
        for s in (0, 1)
    ]
    assert all(e > 0 for e in errors)


def test_workload_is_seeded(engine: Engine) -> None:
    load_table_2(engine)
    released = publish(engine, safe_config())
    decisions = released.release.decisions
    first = make_workload(engine, decisions, sensitive=2, queries=20, selectivity=0.3, seed=4)
    again = make_workload(engine, decisions, sensitive=2, queries=20, selectivity=0.3, seed=4)
    assert first[0].equals(again[0]) and first[1].equals(again[1])
    table = first[0].to_pandas()
    assert (table["a0"] != table["a1"]).all()
    with pytest.raises(ValueError, match="sensitive"):
        query_error(engine, released.release.decisions, sensitive=7)
