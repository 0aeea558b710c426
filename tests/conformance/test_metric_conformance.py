"""Every registered metric: 0 where it declares it (``zero_when_exact``) on a release that
generalizes and suppresses nothing, on every engine; what a run records in ``__metrics`` is what
``anonsql metrics`` recomputes on the release read back (where the reader finds its inputs);
and its hand-computed values on a small release built here by hand (published labels, hierarchy
nodes), so they do not depend on any algorithm. A metric of anonsql's needs a fixture below
(the suite says so); one another package registers is held to the rest (finite values, row
names no other metric reports)."""

from __future__ import annotations

import dataclasses
import itertools
import math
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from helpers import CITY_HIERARCHY

from anonsql import api
from anonsql.engines import Engine
from anonsql.hierarchies import read_hierarchy
from anonsql.layouts import LAYOUTS
from anonsql.measure import release_context
from anonsql.metrics import (
    METRICS,
    ON_DEMAND,
    Metric,
    MetricContext,
    MetricInput,
    MetricValue,
    QidInfo,
)
from anonsql.metrics.risk import RiskSettings
from anonsql.metrics.sa_ncp import Fingerprints
from anonsql.release import read_release
from anonsql.sql import TableName

_names = itertools.count()

#: Four rows in two classes of a 4-row source (k = 2), or of a 5-row source (one row
#: suppressed). Age spans [20, 50]; the city hierarchy has 8 leaves, FR 3 of them, IT 2.
RELEASE = {
    "age": ["[20, 30]", "[20, 30]", "[40, 50]", "[40, 50]"],
    "city": ["FR", "FR", "IT", "IT"],
}
#: Fingerprint cut nodes of a 1:M release: (label, ncp, persons, items they stand for).
FINGERPRINTS = [("a", 0.0, 2, 3), ("B", 3 / 9, 2, 4), ("*", 1.0, 2, 1)]

#: Re-identification risk of two classes of 2 rows, ARX's default population (USA, 317,238,626
#: persons) and threshold (0.2): every record's prosecutor risk is 1/2; sdcMicro's individual
#: risk of a class of 2 with p = f/F = the sampling fraction is p/(1-p) - (p/(1-p))^2 ln(1/p);
#: with no sample unique every population-uniqueness estimate is 0.
_USA = 317_238_626
_P = 4 / _USA
_ODDS = _P / (1 - _P)
_INDIVIDUAL = _ODDS - _ODDS**2 * math.log(1 / _P)
RISK = {
    "records": 4,
    "classes": 2,
    "threshold": 0.2,
    "population_size": _USA,
    "sampling_fraction": _P,
    **{
        f"{attacker}.{figure}": value
        for attacker in ("prosecutor", "journalist")
        for figure, value in (
            ("records_at_risk", 1.0),
            ("highest_risk", 0.5),
            ("lowest_risk", 0.5),
            ("success_rate", 0.5),
        )
    },
    "marketer.success_rate": 0.5,
    "individual_risk.expected_reidentifications": 4 * _INDIVIDUAL,
    "individual_risk.global_risk": _INDIVIDUAL,
    "individual_risk.highest_risk": _INDIVIDUAL,
    "individual_risk.records_at_risk": 0.0,
    "records_affected_by_highest_risk": 1.0,
    "records_affected_by_lowest_risk": 1.0,
    "sample_uniques": 0,
    "sample_uniqueness": 0.0,
    **{f"population_uniqueness.{e}": 0.0 for e in ("pitman", "zayatz", "snb", "dankar")},
}

#: Hand-computed values, by metric name, for source_rows = 4 and 5 (k = 2).
FIXTURES: dict[str, dict[int, dict[tuple[str, str | None], float]]] = {
    "ncp": {
        # age: each row (30 - 20) / 30; city: FR 3/8 for two rows, IT 2/8 for two
        4: {
            ("ncp", "age"): 100 / 3,
            ("ncp", "city"): 100 * (3 / 8 * 2 + 2 / 8 * 2) / 4,
            ("ncp", None): (100 / 3 + 31.25) / 2,
        },
        # the suppressed row costs 1 per quasi-identifier
        5: {
            ("ncp", "age"): 100 * (4 / 3 + 1) / 5,
            ("ncp", "city"): 100 * (1.25 + 1) / 5,
            ("ncp", None): (100 * (4 / 3 + 1) / 5 + 45.0) / 2,
        },
    },
    "classes": {
        4: {
            ("classes", None): 2,
            ("published_rows", None): 4,
            ("suppressed_rows", None): 0,
            ("discernibility", None): 2**2 + 2**2,
            ("average_class_size", None): 2,
            ("normalized_average_class_size", None): 1,
        },
        5: {
            ("classes", None): 2,
            ("published_rows", None): 4,
            ("suppressed_rows", None): 1,
            ("discernibility", None): 8 + 1 * 5,
            ("average_class_size", None): 2,
            ("normalized_average_class_size", None): 1,
        },
    },
    # SA-NCP: items weighted by the NCP of the node standing for them: (0*3 + 4/3 + 1) / 8
    "sa_ncp": {n: {("sa_ncp", None): 100 * (4 * 3 / 9 + 1) / 8} for n in (4, 5)},
    # no functional dependency is declared here: nothing to report (hand-computed values with
    # dependencies are in tests/dependency/test_pipeline.py)
    "dependency_loss": {n: {} for n in (4, 5)},
    # it reads the working tables of a personalized run: nothing here (its values are checked
    # in tests/personalized/test_personalized_metrics.py)
    "personalized": {n: {} for n in (4, 5)},
    # no workload is declared here: nothing to report (the estimator is held to an independent
    # recomputation in tests/metrics/test_workload_error.py)
    "workload_error": {n: {} for n in (4, 5)},
    # risk of the 4 published rows (suppressed rows are not published): two classes of 2
    "risk": {n: {(f"risk.{k}", None): v for k, v in RISK.items()} for n in (4, 5)},
}


def hand_release(engine: Engine, tmp_path: Path) -> dict[str, TableName]:
    (tmp_path / "city.csv").write_text(CITY_HIERARCHY, encoding="utf-8")
    hierarchy = read_hierarchy(tmp_path / "city.csv", name="city")
    n = next(_names)
    names = {k: TableName(f"{k}{n}") for k in ("release", "nodes", "fingerprints")}
    engine.load_arrow(names["release"], pa.table(RELEASE))
    nodes = hierarchy.nodes
    engine.load_arrow(
        names["nodes"],
        pa.table(
            {
                "attribute": ["city"] * len(nodes),
                "label": [node.label for node in nodes],
                "depth": pa.array([node.depth for node in nodes], pa.int32()),
                "leaf_count": [node.leaf_count for node in nodes],
                "ncp": [hierarchy.ncp(node) for node in nodes],
                "first_leaf": pa.array([node.first_leaf for node in nodes], pa.int32()),
                "last_leaf": pa.array([node.last_leaf for node in nodes], pa.int32()),
            }
        ),
    )
    columns = ("label", "ncp", "persons", "items")
    engine.load_arrow(
        names["fingerprints"],
        pa.table({c: [f[i] for f in FINGERPRINTS] for i, c in enumerate(columns)}),
    )
    return names


@pytest.mark.parametrize("name", METRICS.names())
def test_metric_declarations(name: str) -> None:
    """A paper, layouts that exist, and inputs that are frozen :class:`MetricInput` s."""
    metric = METRICS.get(name)
    assert metric.name == name and metric.reference
    assert set(metric.layouts) <= set(LAYOUTS.names())
    for kind in metric.reads:
        assert issubclass(kind, MetricInput) and dataclasses.is_dataclass(kind)
        assert kind.__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ON_DEMAND.names())
def test_on_demand_declarations(name: str) -> None:
    """Measures taken on demand are never run at publish."""
    measure = ON_DEMAND.get(name)
    assert measure.name == name and measure.reference
    assert set(measure.layouts) <= set(LAYOUTS.names())
    assert not issubclass(measure, Metric) and name not in METRICS


def hand_context(engine: Engine, tmp_path: Path, source_rows: int) -> MetricContext:
    """The hand release with the inputs it has (no layout: every metric measures it)."""
    names = hand_release(engine, tmp_path)
    return MetricContext(
        engine=engine,
        relation=names["release"],
        qids=[QidInfo("age", "numeric", 20.0, 50.0), QidInfo("city", "categorical", leaf_count=8)],
        hierarchy_nodes=names["nodes"],
        source_rows=source_rows,
        k=2,
        inputs=(Fingerprints(names["fingerprints"]), RiskSettings({})),
    )


def _keys(values: list[MetricValue]) -> set[tuple[str, str | None]]:
    return {(m.name, m.attribute) for m in values}


@pytest.mark.parametrize("name", METRICS.names())
@pytest.mark.parametrize("source_rows", [4, 5])
def test_hand_computed_fixture(engine: Engine, tmp_path: Path, name: str, source_rows: int) -> None:
    metric = METRICS.get(name)
    ours = metric.__module__.startswith("anonsql.")
    assert name in FIXTURES or not ours, f"add a hand-computed fixture for the metric {name!r}"
    ctx = hand_context(engine, tmp_path, source_rows)
    values = metric().measure(ctx)
    assert all(math.isfinite(m.value) for m in values), values
    others = set().union(*(_keys(m().measure(ctx)) for n, m in METRICS.items() if n != name))
    assert not _keys(values) & others, "rows another metric reports too"
    if name in FIXTURES:
        found = {(m.name, m.attribute): m.value for m in values}
        assert found == pytest.approx(FIXTURES[name][source_rows])


def _exact_specs(tmp_path: Path) -> list[tuple[str, dict[str, Any]]]:
    from test_algorithm_conformance import spec_for

    from anonsql.privacy import PRIVACY_MODELS

    record = spec_for(
        tmp_path, "mondrian", PRIVACY_MODELS.get("k_anonymity").from_spec({"k": 1}, key="k")
    )
    person = spec_for(
        tmp_path,
        "one_to_many",
        PRIVACY_MODELS.get("fingerprint_k_anonymity").from_spec(
            {"k": 1, "column": "code"}, key="k"
        ),
    )
    return [("record", record), ("person", person)]


def test_exact_release_measures_zero(engine: Engine, tmp_path: Path) -> None:
    """k = 1 releases publish every value as it is: each metric's declared values are 0; and
    ``__metrics`` holds what the run reported, and every metric's values recomputed on the
    release read back (a metric whose inputs only the run has recomputes nothing)."""
    from test_algorithm_conformance import load_data

    load_data(engine)
    for layout, spec in _exact_specs(tmp_path):
        result = api.run(spec, engine=engine)
        for name, metric in METRICS.items():
            for value in result.metrics:
                if value.name in metric.zero_when_exact:
                    assert math.isclose(value.value, 0.0, abs_tol=1e-9), (layout, name, value)
        main = result.names.main
        stored = engine.query_arrow("select_all", relation=result.names.metrics).to_pylist()
        recorded = {(r["metric"], r["attribute"]): r["value"] for r in stored}
        assert recorded == {(m.name, m.attribute): m.value for m in result.metrics}
        ctx = release_context(engine, read_release(engine, main, fix=""))
        for name, metric in METRICS.items():
            for value in metric().measure(ctx):
                key = (value.name, value.attribute)
                assert recorded[key] == pytest.approx(value.value, abs=1e-9), (layout, name, key)
