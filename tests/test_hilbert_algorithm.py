"""`algorithm: hilbert` end to end on every engine: verified k-anonymous output through the same
publish path as Mondrian; equal QID vectors always share a class."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import load_people, people_spec
from independent import class_sizes

from anonsql import api
from anonsql.demo import ADULT_QIDS, adult_spec, load_adult
from anonsql.engines import Engine
from anonsql.errors import SpecError


@pytest.mark.parametrize("k", [2, 7])
def test_people(engine: Engine, tmp_path: Path, k: int) -> None:
    load_people(engine)
    result = api.run(people_spec(tmp_path, k=k, algorithm="hilbert"), engine=engine)
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    assert len(frame) == 400
    assert class_sizes(frame, ["age", "city", "income"]).min() >= k
    assert result.certificate["verified"]


@pytest.mark.parametrize("k", [5, 25])
def test_adult(engine: Engine, k: int) -> None:
    load_adult(engine)
    spec = adult_spec(":memory:", k=k)
    spec["algorithm"] = "hilbert"
    result = api.run(spec, engine=engine)
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    assert len(frame) == 30162
    assert class_sizes(frame, list(ADULT_QIDS)).min() >= k
    assert 0 < result.metric("ncp") < 100


def test_refuses_models_it_cannot_enforce(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_spec(
        tmp_path,
        algorithm="hilbert",
        privacy=[{"distinct_l_diversity": {"column": "disease", "l": 2}}],
    )
    with pytest.raises(SpecError, match="k_anonymity only"):
        api.run(spec, engine=engine)
