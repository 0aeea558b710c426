"""Property: whatever the data, Mondrian's published output satisfies every declared model
(re-checked independently with pandas), or the run refuses with InfeasibleError."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
from helpers import CITY_HIERARCHY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonsql import api
from anonsql.engines import DuckDBEngine
from anonsql.errors import InfeasibleError, SpecError
from anonsql.sql import TableName

CITIES = [line.split(";")[0] for line in CITY_HIERARCHY.splitlines()]
_counter = itertools.count()


@st.composite
def tables(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(min_value=10, max_value=120))
    skew = draw(st.integers(min_value=1, max_value=60))
    return pd.DataFrame(
        {
            "a": draw(st.lists(st.integers(0, skew), min_size=n, max_size=n)),
            "b": draw(st.lists(st.sampled_from([1.5, 2.0, 2.5, 10.0]), min_size=n, max_size=n)),
            "city": draw(st.lists(st.sampled_from(CITIES), min_size=n, max_size=n)),
            "sa": draw(st.lists(st.sampled_from(["x", "y", "z", "w"]), min_size=n, max_size=n)),
        }
    )


models = st.one_of(
    st.builds(lambda k: [{"k_anonymity": {"k": k}}], st.integers(1, 9)),
    st.builds(
        lambda k, l: [
            {"k_anonymity": {"k": k}},
            {"distinct_l_diversity": {"column": "sa", "l": l}},
        ],
        st.integers(1, 5),
        st.integers(1, 3),
    ),
    st.builds(
        lambda t: [{"t_closeness": {"column": "sa", "t": t}}], st.sampled_from([0.2, 0.4, 0.7])
    ),
    st.builds(
        lambda c, l: [{"recursive_cl_diversity": {"column": "sa", "c": c, "l": l}}],
        st.sampled_from([1.0, 2.0, 3.0]),
        st.integers(2, 3),
    ),
)


def emd_equal(class_sa: pd.Series, overall: pd.Series) -> float:
    p = class_sa.value_counts(normalize=True).reindex(overall.index, fill_value=0.0)
    return float(0.5 * (p - overall).abs().sum())


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    frame=tables(), privacy=models, grouped=st.booleans(), suppression=st.sampled_from([0.0, 0.1])
)
def test_output_always_satisfies_models(
    tmp_path: Path,
    frame: pd.DataFrame,
    privacy: list[dict[str, dict[str, Any]]],
    grouped: bool,
    suppression: float,
) -> None:
    hierarchy = tmp_path / "city.csv"
    hierarchy.write_text(CITY_HIERARCHY, encoding="utf-8")
    name = f"t{next(_counter)}"
    with DuckDBEngine() as engine:
        engine.load_arrow(
            TableName(name, "main"), pa.Table.from_pandas(frame, preserve_index=False)
        )
        spec = {
            "source": f"main.{name}",
            "output": {"schema": "anon", "name": name},
            "columns": {
                "a": {"role": "quasi_identifier", "type": "numeric"},
                "b": {"role": "quasi_identifier", "type": "numeric"},
                "city": {"role": "quasi_identifier", "hierarchy": str(hierarchy)},
                "sa": {"role": "sensitive", "acknowledge_linked": True},
            },
            "privacy": privacy,
            "algorithm": {"mondrian": {"categorical_split": "grouped" if grouped else "strict"}},
            "suppression_limit": suppression,
        }
        try:
            result = api.run(spec, engine=engine)
        except InfeasibleError:
            return
        except SpecError as err:
            # t-closeness refuses suppression (its reference distribution would move)
            assert suppression > 0 and "suppression" in str(err)
            return
        out = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    qids = ["a", "b", "city"]
    suppressed = result.certificate["suppressed_rows"]
    assert len(out) + suppressed == len(frame)
    assert suppressed <= suppression * len(frame)
    # the published multiset of sensitive values is the source's minus suppressed rows
    assert out["sa"].value_counts().le(frame["sa"].value_counts()).all()
    groups = out.groupby(qids)
    overall = out["sa"].value_counts(normalize=True)
    for entry in privacy:
        ((model, params),) = entry.items()
        if model == "k_anonymity":
            assert groups.size().min() >= params["k"]
        elif model == "distinct_l_diversity":
            assert groups["sa"].nunique().min() >= params["l"]
        elif model == "t_closeness":
            assert max(emd_equal(g["sa"], overall) for _, g in groups) <= params["t"] + 1e-9
        elif model == "recursive_cl_diversity":
            for _, g in groups:
                counts = sorted(g["sa"].value_counts().tolist(), reverse=True)
                l_, c = params["l"], params["c"]
                assert len(counts) >= l_ and counts[0] < c * sum(counts[l_ - 1 :])
