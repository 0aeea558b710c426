"""Personalized publishing as a product feature: ``algorithm: personalized`` run through
``anonsql.api.run`` on every engine, published by the ``personalized`` release layout under the
swap's names, verified, measured and certified like every release.

The paper's worked example (Reddy, Raju, Valli Kumari, IJET 2018; digest 002) as fixtures of
the paper_compat profile; the safe profile's declared bound re-checked by an independent pandas
adversary that reads the published relations only; a failed check leaves the previous release
as it was (transactional and versioned swaps); consent counted and documented; ``anonsql
check`` re-runs the published checks and catches a tampered release.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from adversary import frame, published_confidence, tuple_confidence
from helpers import snapshot
from personalized_fixtures import (
    DISEASE,
    EDUCATION,
    JOB,
    TABLE_2,
    TABLE_8,
    TABLE_9,
    load_table_2,
    multiset,
    table_2,
)

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import InfeasibleError, SpecError, VerificationError
from anonsql.hierarchies import Hierarchy, write_arx_csv
from anonsql.report import RunResult
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

GENDER = Hierarchy([["Male", "*"], ["Female", "*"]], name="gender")
PAPER_TERMS = {
    "salary": [50000, 150000, 250000, 300000],
    "bonus": [5000, 15000, 25000, 30000],
    "loan": [60000, 180000, 300000, 360000],
}
TRIANGULAR_TERMS = {
    "salary": [50000, 150000, 300000],
    "bonus": [5000, 15000, 30000],
    "loan": [60000, 180000, 360000],
}
INCOME = ["Low", "Medium", "High"]
CATEGORICAL = ("education", "job", "disease")
NUMERIC = ("salary", "bonus", "loan")


def write_hierarchies(folder: Path) -> None:
    for hierarchy in (GENDER, EDUCATION, JOB, DISEASE):
        write_arx_csv(hierarchy, folder / f"{hierarchy.name}.csv")


def example_spec(folder: Path, profile: str, *, name: str = "ex", **options: Any) -> dict[str, Any]:
    """Table 2 of the paper as a spec: QIDs age, gender, zipcode; three categorical and three
    numeric sensitive attributes; the consent flag PD; k = 2."""
    write_hierarchies(folder)
    paper = profile == "paper_compat"
    columns: dict[str, Any] = {
        "pid": {"role": "identifier"},
        "pname": {"role": "identifier"},
        "age": {"role": "quasi_identifier", "type": "numeric"},
        "gender": {"role": "quasi_identifier", "hierarchy": str(folder / "gender.csv")},
        "zipcode": {"role": "quasi_identifier", "type": "numeric"},
        **{c: {"role": "sensitive", "hierarchy": str(folder / f"{c}.csv")} for c in CATEGORICAL},
        **{c: {"role": "sensitive", "type": "numeric"} for c in NUMERIC},
    }
    terms = PAPER_TERMS if paper else TRIANGULAR_TERMS
    sensitive: dict[str, Any] = {
        c: {
            "terms": {
                "labels": INCOME,
                "points": terms[c],
                "rule": "paper_intervals" if paper else "triangular",
            }
        }
        for c in NUMERIC
    }
    if paper:
        # the paper's K of each phase: QID groups of 2, NSA buckets of 5, CSA buckets of 3
        for c in NUMERIC:
            sensitive[c]["bucket_k"] = 5
        sensitive.update({c: {"bucket_k": 3} for c in CATEGORICAL})
    algorithm: dict[str, Any] = {
        "profile": profile,
        "consent": {"column": "pd", "values": [True]},
        "cluster_key": [{"column": "zipcode", "prefix": 1}],
        "sensitive": sensitive,
        "query_workload": 40,
        **options,
    }
    return {
        "source": "main.table2",
        "output": {"schema": "anon", "name": name},
        "columns": columns,
        "privacy": [{"k_anonymity": {"k": 2}}],
        "algorithm": {"personalized": algorithm},
        "seed": 7,
    }


def published(engine: Engine, result: RunResult) -> dict[str, pd.DataFrame]:
    names = result.names
    out = {"tuples": frame(engine, names.main)}
    for kind in ("groups", "group_values", "buckets", "group_buckets", "sa_taxonomy"):
        out[kind] = frame(engine, names.companion(kind))
    return out


def facts(result: RunResult) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(result.certificate["personalized"])
    return loaded


def test_paper_example_through_the_product(engine: Engine, tmp_path: Path) -> None:
    """Digest T1, T4, T5, T8 and T14 on the published relations of a paper_compat run."""
    load_table_2(engine)
    result = api.run(example_spec(tmp_path, "paper_compat"), engine=engine)
    cert = result.certificate
    assert cert["verified"] and cert["layout"] == "personalized"
    # T1: the two rows without consent are counted and published nowhere
    assert (cert["source_rows"], cert["published_rows"], cert["withheld_rows"]) == (12, 10, 2)
    assert cert["suppressed_rows"] == 0 and cert["individuals"] == 10
    pz = facts(result)
    assert (pz["withheld_rows"], pz["suppression_ratio"]) == (2, pytest.approx(2 / 12))
    assert "consent" in pz["absence_risk"] and pz["profile"] == "paper_compat"
    frames = published(engine, result)
    text = {str(v) for df in frames.values() for v in df.to_numpy().ravel()}
    assert not text & {"39", "42123", "31", "41234", "Mercy", "Anil", "P11", "P12"}
    # T4: the groups and their multisets (Table 8)
    got = {
        frozenset(multiset(g["zipcode"])): (
            multiset(g["age"]),
            multiset(g["gender"]),
            g["group_size"],
        )
        for g in frames["groups"].to_dict("records")
    }
    assert got == TABLE_8
    # every tuple carries its group's smallest generalization, so classes are groups
    tuples = frames["tuples"]
    assert len(tuples) == 10 and tuples.groupby("group_id").size().min() >= 2
    assert set(tuples.groupby("group_id")["age"].nunique()) == {1}
    assert "[43, 50]" in set(tuples["age"])
    # T5: SALARY's published terms and weights are Table 9
    buckets = frames["buckets"]
    salary = buckets[buckets["attribute"] == "salary"]
    pairs = sorted(zip(salary["label"], salary["weight"].astype(float).round(6), strict=True))
    assert pairs == sorted(TABLE_9.values())
    # T8: categorical buckets of 3, 3 and 4 cells, labels distinct in every bucket
    for column in CATEGORICAL:
        own = buckets[buckets["attribute"] == column]
        assert sorted(own.groupby("bucket").size()) == [3, 3, 4]
        assert (own.groupby("bucket")["label"].nunique() == own.groupby("bucket").size()).all()
    # T14: the tuple-level cells tell SALARY = Low for Bill's and Alice's group outright
    exact = tuple_confidence(tuples, list(NUMERIC + CATEGORICAL), {}, covering=False)
    assert exact["salary"] == pytest.approx(1.0) and exact["job"] >= 0.75 - 1e-9
    assert result.metric("adversary_confidence", "salary") == pytest.approx(1.0)


def test_safe_release_within_its_declared_bound(engine: Engine, tmp_path: Path) -> None:
    """The adversary who knows a target's group, computed with pandas from the published
    relations alone, stays within 1/l for every attribute; the recorded metric agrees."""
    load_table_2(engine)
    result = api.run(example_spec(tmp_path, "safe"), engine=engine)
    frames = published(engine, result)
    assert list(frames["tuples"].columns) == ["group_id", "age", "gender", "zipcode"]
    confidence = published_confidence(
        frames["group_buckets"], frames["buckets"], frames["sa_taxonomy"]
    )
    bounds = {a["column"]: a["bound"] for a in facts(result)["sensitive"]}
    assert set(confidence) == set(bounds) == set(CATEGORICAL + NUMERIC)
    for column, value in confidence.items():
        assert bounds[column] == 0.5
        assert value <= bounds[column] + 1e-9, column
        assert result.metric("adversary_confidence", column) == pytest.approx(value)
        assert result.metric("adversary_confidence_links", column) <= 0.5 + 1e-9
    # weights are rounded to quarters; the registered metrics are recomputed alike
    weights = frames["buckets"]["weight"].dropna().astype(float)
    assert np.allclose(weights * 4, np.round(weights * 4))
    again = {(m.name, m.attribute): m.value for m in api.recompute_metrics(engine, "anon.ex")}
    assert again[("ncp", None)] == pytest.approx(result.metric("ncp"))
    assert again[("classes", None)] == result.metric("classes")
    assert api.check_output(engine, "anon.ex").holds


COLORS = Hierarchy(
    [
        [c, "warm" if c in ("red", "orange", "yellow") else "cold", "*"]
        for c in ("red", "orange", "yellow", "green", "blue", "violet")
    ],
    name="color",
)


def random_table(seed: int, n: int) -> pa.Table:
    rng = np.random.default_rng(seed)
    colors = np.array(COLORS.leaves)
    return pa.table(
        {
            "consent": rng.random(n) < 0.85,
            "age": rng.integers(20, 60, n),
            "zip": rng.integers(100, 110, n),
            "color": colors[rng.choice(6, n, p=[0.3, 0.2, 0.2, 0.1, 0.1, 0.1])],
            "shade": rng.choice(np.array(["a", "b", "c", "d"]), n),
            "score": np.round(rng.gamma(2.0, 20.0, n), 1),
        }
    )


@pytest.mark.parametrize(("seed", "l"), [(1, 2), (2, 3)])
def test_random_tables_within_the_bound(engine: Engine, tmp_path: Path, seed: int, l: int) -> None:
    """Random tables (a flat default taxonomy for ``shade``), every attribute bounded by 1/l by
    the published relations and by the rows' true values."""
    engine.load_arrow(TableName("random", "main"), random_table(seed, 180))
    write_arx_csv(COLORS, tmp_path / "color.csv")
    spec = {
        "source": "main.random",
        "output": {"schema": "anon", "name": "random"},
        "columns": {
            "zip": {"role": "quasi_identifier", "type": "numeric"},
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "color": {"role": "sensitive", "hierarchy": str(tmp_path / "color.csv")},
            "shade": {"role": "sensitive"},
            "score": {"role": "sensitive", "type": "numeric"},
        },
        "privacy": [{"k_anonymity": {"k": 4}}],
        "algorithm": {
            "personalized": {
                "consent": {"column": "consent"},
                "l": l,
                "sensitive": {
                    "score": {
                        "l": 2,
                        "terms": {"labels": ["lo", "mid", "hi"], "points": [10, 40, 80]},
                    }
                },
                "query_workload": 0,
            }
        },
        "seed": seed,
    }
    result = api.run(spec, engine=engine)
    frames = published(engine, result)
    confidence = published_confidence(
        frames["group_buckets"], frames["buckets"], frames["sa_taxonomy"]
    )
    assert confidence["color"] <= 1 / l + 1e-9 and confidence["shade"] <= 1 / l + 1e-9
    assert confidence["score"] <= 0.5 + 1e-9
    assert set(frames["sa_taxonomy"][frames["sa_taxonomy"]["attribute"] == "shade"]["label"]) <= {
        "a",
        "b",
        "c",
        "d",
        "*",
    }
    assert not any(m.name.startswith("query_error") for m in result.metrics)
    consenting = int(random_table(seed, 180).column("consent").to_numpy().sum())
    assert len(frames["tuples"]) == consenting == result.certificate["published_rows"]
    assert frames["tuples"].groupby("group_id").size().min() >= 4


class NonTransactionalDuckDB(DuckDBEngine):
    transactional_ddl = False


def _release_state(engine: Engine, names: OutputNames) -> dict[str, list[tuple[Any, ...]]]:
    kinds = ("groups", "group_values", "buckets", "group_buckets", "sa_taxonomy", "metrics")
    state = {kind: snapshot(engine, names.companion(kind)) for kind in kinds}
    state["main"] = snapshot(engine, names.main)
    state["certificate"] = [r[:3] for r in snapshot(engine, names.certificate)]
    return state


def _failing_spec(folder: Path) -> dict[str, Any]:
    # buckets of 5 force repeated JOB labels up the taxonomy: a bucket then covers one leaf
    # with more than half its cells, and the safe profile's bucket_diversity check fails
    return example_spec(folder, "safe", bucket_k=5)


def test_failed_check_leaves_the_previous_release(engine: Engine, tmp_path: Path) -> None:
    load_table_2(engine)
    first = api.run(example_spec(tmp_path, "safe"), engine=engine)
    before = _release_state(engine, first.names)
    with pytest.raises(VerificationError, match="bucket_diversity"):
        api.run(_failing_spec(tmp_path), engine=engine)
    assert _release_state(engine, first.names) == before
    assert api.check_output(engine, "anon.ex").holds
    # a first release that fails leaves nothing behind
    with pytest.raises(VerificationError):
        api.run(
            {**_failing_spec(tmp_path), "output": {"schema": "anon", "name": "x"}}, engine=engine
        )
    assert not engine.exists(TableName("x", "anon"))
    assert not engine.exists(TableName("x__buckets", "anon"))


def test_failed_check_leaves_the_previous_versioned_release(tmp_path: Path) -> None:
    with NonTransactionalDuckDB() as engine:
        load_table_2(engine)
        first = api.run(example_spec(tmp_path, "safe"), engine=engine)
        before = _release_state(engine, first.names)
        with pytest.raises(VerificationError):
            api.run(_failing_spec(tmp_path), engine=engine)
        assert _release_state(engine, first.names) == before
        # a second good release replaces every companion (the final names are views)
        second = api.run(example_spec(tmp_path, "paper_compat"), engine=engine)
        assert second.certificate["verified"]
        assert (
            json.loads(str(frame(engine, first.names.certificate)["personalized"][0]))["profile"]
            == "paper_compat"
        )
        assert engine.relation_kind(first.names.companion("buckets")) == "view"


def test_consent_values_and_missing_consent(engine: Engine, tmp_path: Path) -> None:
    """Text consent values, a NULL consent (never consent), no consent column (every row), and
    nobody consenting (nothing published)."""
    flags: list[str | None] = ["T" if r[0] else "F" for r in TABLE_2]
    flags[0] = None  # P01 consented in the paper; NULL is never consent
    engine.load_arrow(
        TableName("table2", "main"), table_2().set_column(0, "pd", pa.array(flags, pa.string()))
    )
    spec = example_spec(tmp_path, "safe", consent={"column": "pd", "values": ["T"]})
    spec["algorithm"]["personalized"]["query_workload"] = 0
    spec["privacy"] = [{"k_anonymity": {"k": 3}}]
    result = api.run(spec, engine=engine)
    assert (result.certificate["published_rows"], result.certificate["withheld_rows"]) == (9, 3)
    assert ("consent", "pd: 9 of 12 rows, 3 withheld") in result.summary()
    assert "40" not in set(frame(engine, result.names.companion("group_values"))["value"])
    # status: the withheld rows count as suppressed; the source and released rows are private
    status = api.status(engine, "anon.ex")
    assert (status.source_rows, status.suppressed_rows, status.stale) == (12, 3, False)
    assert (status.released_rows, status.published_rows, status.withheld_rows) == (9, 9, 0)
    assert result.names.released.schema == result.names.source.schema == "anon_private"
    assert result.certificate["private_schema"] == "anon_private"
    # without a consent column every row is published
    del spec["algorithm"]["personalized"]["consent"]
    spec["columns"]["education"] = {"role": "sensitive"}  # "HS-Grad" (P12) is not a leaf
    for column in NUMERIC:  # 7 of the 12 salaries are Low: no 2-diverse grouping
        spec["algorithm"]["personalized"]["sensitive"][column]["l"] = 1
    spec["output"]["name"] = "everyone"
    result = api.run(spec, engine=engine)
    assert (result.certificate["published_rows"], result.certificate["withheld_rows"]) == (12, 0)
    assert facts(result)["consent_column"] is None
    # nobody consents: an error, nothing published
    spec["algorithm"]["personalized"]["consent"] = {"column": "pd", "values": ["nobody"]}
    spec["output"]["name"] = "nobody"
    with pytest.raises(InfeasibleError, match="no row of the source consents"):
        api.run(spec, engine=engine)
    assert not engine.exists(TableName("nobody", "anon"))


def test_check_catches_a_tampered_release(engine: Engine, tmp_path: Path) -> None:
    """``anonsql check`` re-runs the published checks: a release whose buckets were changed
    after publishing (every disease cell made the same value) fails the declared bound."""
    load_table_2(engine)
    api.run(example_spec(tmp_path, "safe"), engine=engine)
    result = api.check_output(engine, "anon.ex")
    assert result.holds and any(k.startswith("published confidence") for k in result.violations)
    engine.execute("UPDATE anon.ex__buckets SET label = 'HIV' WHERE attribute = 'disease'")
    tampered = api.check_output(engine, "anon.ex")
    assert not tampered.holds
    failed = {k for k, n in tampered.violations.items() if n}
    assert failed == {"published confidence: confidence through the published relations <= 1/l"}
    engine.execute("DELETE FROM anon.ex__buckets WHERE attribute = 'job' AND slot = 1")
    failed = {k for k, n in api.check_output(engine, "anon.ex").violations.items() if n}
    assert any(k.startswith("published bucket_size") for k in failed)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda s: s["columns"].update(pname={"role": "insensitive"}), "columns.pname"),
        (
            lambda s: s["algorithm"]["personalized"]["sensitive"].update(
                job={"terms": {"labels": ["a", "b"], "points": [0, 1]}}
            ),
            "columns.job.hierarchy",  # terms and a taxonomy
        ),
        (
            lambda s: (
                s["algorithm"]["personalized"]["sensitive"].update(
                    pname={"terms": {"labels": ["a", "b"], "points": [0, 1]}}
                )
                or s["columns"].update(pname={"role": "sensitive"})
            ),
            "algorithm.personalized.sensitive.pname.terms",  # terms on a text column
        ),
        (
            lambda s: s["algorithm"]["personalized"]["sensitive"]["salary"]["terms"].update(
                points=[3, 2, 1]
            ),
            "algorithm.personalized.sensitive.salary.terms.points",
        ),
        (
            lambda s: s["algorithm"]["personalized"]["sensitive"].update(nope={"l": 2}),
            "algorithm.personalized.sensitive.nope",
        ),
        (
            lambda s: s["algorithm"]["personalized"]["sensitive"].pop("loan"),
            "algorithm.personalized.sensitive.loan.terms",
        ),
        (
            lambda s: s["columns"].update(pd={"role": "sensitive"}),
            "columns.pd",
        ),
        (
            lambda s: s["algorithm"]["personalized"]["consent"].update(values=["T"]),
            "algorithm.personalized.consent.values",
        ),
        (
            lambda s: s["algorithm"]["personalized"]["consent"].update(column="pdx"),
            "algorithm.personalized.consent.column",
        ),
        (
            lambda s: s["privacy"].append({"distinct_l_diversity": {"column": "job", "l": 2}}),
            "privacy[1].distinct_l_diversity",
        ),
        (
            lambda s: s["algorithm"]["personalized"].update(colour=1),
            "algorithm.personalized.colour",
        ),
        (lambda s: s["algorithm"]["personalized"].update(l=0), "algorithm.personalized.l"),
        (
            lambda s: s["algorithm"]["personalized"]["cluster_key"].append({"column": "job"}),
            "algorithm.personalized.cluster_key[1].column",
        ),
        (lambda s: s.update(suppression_limit=0.1), "suppression_limit"),
    ],
)
def test_spec_errors_name_the_key(tmp_path: Path, change: Any, key: str) -> None:
    spec = example_spec(tmp_path, "safe")
    change(spec)
    with DuckDBEngine() as engine:
        load_table_2(engine)
        with pytest.raises(SpecError) as info:
            api.run(spec, engine=engine)
    assert info.value.key == key
    assert "Fix:" in str(info.value)
    assert not {"Alice", "HIV", "90000"} & set(str(info.value).replace("'", " ").split())


def test_example_spec_runs_from_the_cli(tmp_path: Path) -> None:
    """``examples/adult-personalized.yaml`` on the ``adult-consent`` sample: run, then check."""
    from click.testing import CliRunner
    from paths import EXAMPLES

    from anonsql.cli import main

    (tmp_path / "examples").mkdir()
    example = tmp_path / "examples" / "adult-personalized.yaml"
    example.write_text((EXAMPLES / "adult-personalized.yaml").read_text(encoding="utf-8"))
    db = tmp_path / "adult.duckdb"
    runner = CliRunner()
    loaded = runner.invoke(main, ["sample", "adult-consent", "--database", str(db)])
    assert loaded.exit_code == 0, loaded.output
    ran = runner.invoke(main, ["run", str(example)])
    assert ran.exit_code == 0, ran.output
    assert "withheld" in ran.output and "adult_personalized__buckets" in ran.output
    checked = runner.invoke(main, ["check", str(example)])
    assert checked.exit_code == 0 and "holds" in checked.output, checked.output
    with DuckDBEngine(db) as engine:
        cert = frame(engine, TableName("adult_personalized__certificate", "anon")).iloc[0]
        consenting = engine.fetchall("SELECT count(*) FROM main.adult_consent WHERE consent")
    assert cert["source_rows"] == 30162
    assert cert["published_rows"] == consenting[0][0] == 30162 - cert["withheld_rows"]
    bounds = {a["column"]: a["bound"] for a in json.loads(cert["personalized"])["sensitive"]}
    assert bounds == {
        "occupation": 0.5,
        "education": 0.5,
        "hours_per_week": 0.5,
        "capital_gain": 1.0,  # l = 1: no bound declared
    }
