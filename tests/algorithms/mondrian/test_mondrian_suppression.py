"""Suppression that pays, and loss-aware splits: with a suppression limit, Mondrian's release
never has a higher NCP than the same run without one (suppressed rows count 1 per
quasi-identifier), for both split rules, on Adult and on generated tables, on every engine.
NCP is recomputed here from the published relation with pandas, independently of the metric's
SQL, and every release is re-checked against its models."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from helpers import CITY_HIERARCHY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import ROOT

from anonsql import api
from anonsql.demo import ADULT_QIDS, adult_spec
from anonsql.engines import Engine
from anonsql.errors import InfeasibleError
from anonsql.samples import load_adult
from anonsql.sql import TableName

CITIES = [line.split(";")[0] for line in CITY_HIERARCHY.splitlines()]
_counter = itertools.count()


def node_penalties(hierarchy_csv: str) -> dict[str, float]:
    """NCP of every label of a ``leaf;parent;...;root`` hierarchy: leaves under it / all
    leaves, 0 for a node standing for one leaf."""
    paths = [line.split(";") for line in hierarchy_csv.splitlines() if line.strip()]
    leaves: dict[str, set[str]] = {}
    for path in paths:
        for label in path:
            leaves.setdefault(label, set()).add(path[0])
    return {
        label: (len(under) / len(paths) if len(under) > 1 else 0.0)
        for label, under in leaves.items()
    }


def independent_ncp(
    out: pd.DataFrame,
    source: pd.DataFrame,
    numeric: list[str],
    categorical: dict[str, dict[str, float]],
) -> float:
    """NCP (%) of a release from its published rows: numeric ``[lo, hi]`` costs
    (hi - lo) / (source max - source min), a plain value 0; a categorical label its node's
    penalty; every row missing from the release 1 per quasi-identifier."""
    missing = len(source) - len(out)
    total = 0.0
    for column in numeric:
        span = float(source[column].max() - source[column].min())
        text = out[column].astype(str)
        ranged = text.str.startswith("[")
        bounds = text[ranged].str.strip("[]").str.split(", ", expand=True).astype(float)
        if span > 0 and not bounds.empty:
            total += float((bounds[1] - bounds[0]).sum()) / span
        total += missing
    for column, penalty in categorical.items():
        total += float(out[column].astype(str).map(penalty).sum()) + missing
    return 100.0 * total / (len(source) * (len(numeric) + len(categorical)))


@st.composite
def tables(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(min_value=20, max_value=150))
    skew = draw(st.integers(min_value=2, max_value=80))
    return pd.DataFrame(
        {
            "a": draw(st.lists(st.integers(0, skew), min_size=n, max_size=n)),
            "b": draw(
                st.lists(st.sampled_from([1.5, 2.0, 2.5, 10.0, 40.0]), min_size=n, max_size=n)
            ),
            "city": draw(st.lists(st.sampled_from(CITIES), min_size=n, max_size=n)),
            "sa": draw(st.lists(st.sampled_from(["x", "y", "z"]), min_size=n, max_size=n)),
        }
    )


def _release(
    engine: Engine, spec: dict[str, Any], name: str, limit: float
) -> tuple[Any, pd.DataFrame]:
    spec = {**spec, "output": {"schema": "anon", "name": name}, "suppression_limit": limit}
    result = api.run(spec, engine=engine)
    out = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    return result, out


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    frame=tables(),
    k=st.integers(2, 8),
    l=st.sampled_from([0, 2]),
    split=st.sampled_from(["auto", "gain_ratio", "loss", "widest"]),
    limit=st.sampled_from([0.02, 0.1, 0.3]),
)
def test_suppression_never_raises_ncp(
    engine: Engine,
    tmp_path: Path,
    frame: pd.DataFrame,
    k: int,
    l: int,
    split: str,
    limit: float,
) -> None:
    hierarchy = tmp_path / "city.csv"
    hierarchy.write_text(CITY_HIERARCHY, encoding="utf-8")
    name = f"s{next(_counter)}"
    engine.load_arrow(TableName(name, "main"), pa.Table.from_pandas(frame, preserve_index=False))
    privacy: list[dict[str, Any]] = [{"k_anonymity": {"k": k}}]
    if l:
        privacy.append({"distinct_l_diversity": {"column": "sa", "l": l}})
    spec = {
        "source": f"main.{name}",
        "columns": {
            "a": {"role": "quasi_identifier", "type": "numeric"},
            "b": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": str(hierarchy)},
            "sa": {"role": "sensitive", "acknowledge_linked": True},
        },
        "privacy": privacy,
        "algorithm": {"mondrian": {"split": split}},
    }
    try:
        plain, plain_out = _release(engine, spec, f"{name}_0", 0.0)
    except InfeasibleError:
        return
    paid, paid_out = _release(engine, spec, f"{name}_s", limit)
    penalties = {"city": node_penalties(CITY_HIERARCHY)}
    ncp_plain = independent_ncp(plain_out, frame, ["a", "b"], penalties)
    ncp_paid = independent_ncp(paid_out, frame, ["a", "b"], penalties)
    # the metric's SQL agrees with the pandas recomputation
    assert ncp_plain == pytest.approx(plain.metric("ncp"), abs=1e-6)
    assert ncp_paid == pytest.approx(paid.metric("ncp"), abs=1e-6)
    # suppression pays or is not used
    assert ncp_paid <= ncp_plain + 1e-9
    suppressed = len(frame) - len(paid_out)
    assert suppressed == paid.certificate["suppressed_rows"] <= limit * len(frame)
    # both releases re-checked: SQL check and pandas
    qids = ["a", "b", "city"]
    for result, out in ((plain, plain_out), (paid, paid_out)):
        assert api.check(engine, result.names.main, qids, privacy).holds
        groups = out.groupby(qids)
        assert groups.size().min() >= k
        if l:
            assert groups["sa"].nunique().min() >= l


ADULT_HIERARCHIES = ROOT / "hierarchies" / "adult"


@pytest.mark.slow
@pytest.mark.parametrize("split", ["auto", "gain_ratio", "loss", "widest"])
def test_ncp_never_rises_with_the_limit_on_adult(engine: Engine, split: str) -> None:
    adult = engine
    load_adult(adult)
    source = adult.query_arrow("select_all", relation=TableName("adult", "main")).to_pandas()
    numeric = [c for c, v in ADULT_QIDS.items() if v.get("type") == "numeric"]
    penalties = {
        c: node_penalties((ADULT_HIERARCHIES / f"{c}.txt").read_text(encoding="utf-8"))
        for c in ADULT_QIDS
        if c not in numeric
    }
    curve = []
    for limit in (0.0, 0.01, 0.05):
        spec = adult_spec(
            ":memory:", acknowledged=True, k=10, name=f"adult_{split}_{int(limit * 1000)}"
        )
        spec["algorithm"] = {"mondrian": {"split": split}}
        spec["suppression_limit"] = limit
        result = api.run(spec, engine=adult)
        out = adult.query_arrow("select_all", relation=result.names.main).to_pandas()
        assert api.check(adult, result.names.main, list(ADULT_QIDS), spec["privacy"]).holds
        assert out.groupby(list(ADULT_QIDS)).size().min() >= 10
        ncp = independent_ncp(out, source, numeric, penalties)
        assert ncp == pytest.approx(result.metric("ncp"), abs=1e-6)
        curve.append(ncp)
    assert curve[1] <= curve[0] and curve[2] <= curve[1]
    # and it pays: 5% buys a strictly lower loss than 0%
    assert curve[2] < curve[0]


@pytest.mark.parametrize("algorithm", ["hilbert", "idistance"])
def test_one_d_algorithms_never_pay_for_suppression(
    engine: Engine, tmp_path: Path, algorithm: str
) -> None:
    """The 1D algorithms never suppress: a limit leaves their release and NCP unchanged."""
    hierarchy = tmp_path / "city.csv"
    hierarchy.write_text(CITY_HIERARCHY, encoding="utf-8")
    frame = pd.DataFrame(
        {
            "a": [(i * 37) % 90 for i in range(120)],
            "b": [float((i * 11) % 7) for i in range(120)],
            "city": [CITIES[(i * 5) % len(CITIES)] for i in range(120)],
            "sa": [["x", "y", "z"][i % 3] for i in range(120)],
        }
    )
    name = f"o{next(_counter)}"
    engine.load_arrow(TableName(name, "main"), pa.Table.from_pandas(frame, preserve_index=False))
    spec = {
        "source": f"main.{name}",
        "columns": {
            "a": {"role": "quasi_identifier", "type": "numeric"},
            "b": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": str(hierarchy)},
            "sa": {"role": "sensitive", "acknowledge_linked": True},
        },
        "privacy": [{"k_anonymity": {"k": 4}}],
        "algorithm": algorithm,
    }
    penalties = {"city": node_penalties(CITY_HIERARCHY)}
    ncps = []
    for limit in (0.0, 0.05):
        result, out = _release(engine, spec, f"{name}_{int(limit * 100)}", limit)
        assert len(out) == len(frame)
        assert out.groupby(["a", "b", "city"]).size().min() >= 4
        ncps.append(independent_ncp(out, frame, ["a", "b"], penalties))
        assert ncps[-1] == pytest.approx(result.metric("ncp"), abs=1e-6)
    assert ncps[1] <= ncps[0]
