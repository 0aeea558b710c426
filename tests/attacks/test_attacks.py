"""The attacks on hand-made releases whose answers are known, and against an independent
pandas recomputation on random tables, on every engine."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonsql.attacks import ATTACKS, AttackContext, AttackResult, run_attacks
from anonsql.engines import Engine
from anonsql.privacy import PRIVACY_MODELS, PrivacyModel
from anonsql.sql import TableName

_tables = itertools.count()


def model(name: str, **params: Any) -> PrivacyModel:
    return PRIVACY_MODELS.get(name).from_spec(params, key=f"privacy[0].{name}")


def context(
    engine: Engine,
    columns: Mapping[str, Sequence[Any]],
    *,
    qids: Sequence[str] = ("age", "zip"),
    linked: Sequence[str] = (),
    insensitive: Sequence[str] = (),
    sensitive: Sequence[str] = (),
    models: Sequence[PrivacyModel] = (),
    individuals: int | None = None,
) -> AttackContext:
    relation = TableName(f"attacked{next(_tables)}")
    engine.load_arrow(relation, pa.table(dict(columns)))
    rows = len(next(iter(columns.values())))
    return AttackContext(
        engine=engine,
        relation=relation,
        counted=False,
        qids=tuple(qids),
        linked=tuple(linked),
        insensitive=tuple(insensitive),
        sensitive=tuple(sensitive),
        models=tuple(models),
        individuals=rows if individuals is None else individuals,
    )


def one(results: Sequence[AttackResult], attack: str, adversary: str = "certified") -> AttackResult:
    found = [r for r in results if r.attack == attack and r.adversary == adversary]
    assert len(found) == 1, found
    return found[0]


K_ANONYMOUS = {
    "age": ["[20, 29]"] * 3 + ["[30, 39]"] * 2 + ["[40, 49]"] * 2,
    "zip": ["130**"] * 3 + ["148**"] * 4,
    "disease": ["flu", "cold", "flu", "ulcer", "ulcer", "flu", "cold"],
    "note": ["a", "b", "b", "a", "a", "a", "b"],
}


def test_a_k_anonymous_release_isolates_nobody(engine: Engine) -> None:
    ctx = context(
        engine,
        K_ANONYMOUS,
        insensitive=["note"],
        sensitive=["disease"],
        models=[model("k_anonymity", k=2)],
        individuals=8,  # one source row suppressed
    )
    results = run_attacks(ctx)
    single = one(results, "singling_out")
    assert (single.success, single.bound, single.breaks) == (0.0, 0.0, False)
    link = one(results, "linkability")
    assert link.success == pytest.approx(3 / 8)  # three classes, eight individuals
    assert link.worst == pytest.approx(1 / 2)
    assert link.bound == pytest.approx(1 / 2)
    assert not link.breaks
    # knowing the note too isolates the [20, 29] "a" row and both [40, 49] rows
    wide = one(results, "singling_out", "columns")
    assert wide.success == pytest.approx(3 / 8)
    assert wide.bound is None and not wide.breaks
    assert one(results, "linkability", "columns").worst == 1.0
    # without the release's source, linkage is not measured: never a silent 0
    linkage = one(results, "linkage", "columns")
    assert linkage.success is None and not linkage.measured and "not" in linkage.describe()


def test_a_unique_row_is_singled_out_and_linked_for_sure(engine: Engine) -> None:
    ctx = context(
        engine,
        {"age": ["[20, 29]", "[20, 29]", "35"], "zip": ["130**", "130**", "14850"]},
        models=[model("k_anonymity", k=2)],
    )
    results = run_attacks(ctx)
    single = one(results, "singling_out")
    assert single.success == pytest.approx(1 / 3)
    assert single.breaks
    link = one(results, "linkability")
    assert link.worst == 1.0 and link.breaks
    assert link.success == pytest.approx(2 / 3)


def test_inference_on_a_class_of_one_value_is_certain(engine: Engine) -> None:
    ctx = context(
        engine,
        {
            "age": ["[20, 29]"] * 3 + ["[30, 39]"] * 3,
            "zip": ["130**"] * 6,
            "disease": ["flu", "flu", "flu", "cold", "ulcer", "cold"],
        },
        sensitive=["disease"],
        models=[model("k_anonymity", k=3)],
    )
    inference = one(run_attacks(ctx), "inference")
    assert inference.attribute == "disease"
    assert inference.worst == 1.0  # the [20, 29] class holds flu only
    assert inference.success == pytest.approx(5 / 6)  # 3 flu + 2 cold guessed right
    assert inference.baseline == pytest.approx(3 / 6)  # flu for everyone
    # k-anonymity promises nothing about confidence: reported, not gated
    assert inference.bound is None and not inference.breaks


def test_recursive_diversity_bounds_the_confidence(engine: Engine) -> None:
    columns = {
        "age": ["[20, 29]"] * 4 + ["[30, 39]"] * 4,
        "zip": ["130**"] * 8,
        "disease": ["flu", "flu", "cold", "ulcer", "cold", "cold", "flu", "ulcer"],
    }
    ctx = context(
        engine,
        columns,
        sensitive=["disease"],
        models=[model("recursive_cl_diversity", column="disease", c=2, l=2)],
    )
    inference = one(run_attacks(ctx), "inference")
    assert inference.worst == pytest.approx(0.5)
    assert inference.bound == pytest.approx(2 / 3)
    assert not inference.breaks
    # a linked column splitting the classes breaks it: the flu pair of [20, 29] stands apart
    columns["zone"] = ["n", "n", "s", "s", "n", "n", "s", "s"]
    ctx = context(
        engine,
        columns,
        linked=["zone"],
        sensitive=["disease"],
        models=[model("recursive_cl_diversity", column="disease", c=2, l=2)],
    )
    inference = one(run_attacks(ctx), "inference")
    assert inference.knows == ("age", "zip", "zone")
    assert inference.worst == 1.0 and inference.breaks


def test_every_attack_is_registered_and_names_itself() -> None:
    assert {"singling_out", "linkability", "inference", "linkage"} <= set(ATTACKS.names())


def pandas_attacks(
    frame: pd.DataFrame, known: list[str], sensitive: str, individuals: int
) -> dict[str, float]:
    """The attacks recomputed row by row: each row is a target; its candidates are the rows
    equal on what the adversary knows."""
    keys = frame[known].astype(str).agg("|".join, axis=1)
    candidates = keys.map(keys.value_counts())
    guesses = {}
    for key, group in frame.groupby(keys):
        guesses[key] = group[sensitive].value_counts().sort_index().idxmax()
    right = frame[sensitive] == keys.map(guesses)
    confidence = max(
        group[sensitive].value_counts().max() / len(group) for _, group in frame.groupby(keys)
    )
    return {
        "isolated": float((candidates == 1).sum()) / individuals,
        "link_mean": float((1.0 / candidates).sum()) / individuals,
        "link_max": float((1.0 / candidates).max()),
        "inference": float(right.mean()),
        "confidence": float(confidence),
        "baseline": float(frame[sensitive].value_counts().max() / len(frame)),
    }


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(["[20, 29]", "[30, 39]", "40"]),
            st.sampled_from(["130**", "148**"]),
            st.sampled_from(["a", "b", "c"]),
            st.sampled_from(["flu", "cold", "ulcer"]),
        ),
        min_size=1,
        max_size=30,
    ),
    suppressed=st.integers(0, 5),
    grouped=st.booleans(),
)
def test_the_attacks_match_a_pandas_recomputation(
    engine: Engine, rows: list[tuple[str, str, str, str]], suppressed: int, grouped: bool
) -> None:
    """Row by row, or read from the rows grouped by every column (as the publish step groups
    a release: the columns adversary's inference then reads the groups as they are)."""
    names = ["age", "zip", "note", "disease"]
    columns = {name: [r[i] for r in rows] for i, name in enumerate(names)}
    individuals = len(rows) + suppressed
    ctx = context(
        engine, columns, insensitive=["note"], sensitive=["disease"], individuals=individuals
    )
    if grouped:
        counts = pd.DataFrame(columns).value_counts().reset_index(name="__anonsql_rows")
        groups = TableName(f"grouped{next(_tables)}")
        engine.load_arrow(groups, pa.Table.from_pandas(counts, preserve_index=False))
        engine.drop(ctx.relation)
        ctx = dataclasses.replace(
            ctx, relation=groups, counted=True, grouped_by=frozenset(names)
        )
        assert ctx.distinct_on(["age", "zip", "note", "disease"])
    results = run_attacks(ctx)
    frame = pd.DataFrame(columns)
    for adversary, known in (("certified", ["age", "zip"]), ("columns", ["age", "zip", "note"])):
        expected = pandas_attacks(frame, known, "disease", individuals)
        single = one(results, "singling_out", adversary)
        link = one(results, "linkability", adversary)
        inference = one(results, "inference", adversary)
        assert single.success == pytest.approx(expected["isolated"])
        assert link.success == pytest.approx(expected["link_mean"])
        assert link.worst == pytest.approx(expected["link_max"])
        assert inference.success == pytest.approx(expected["inference"])
        assert inference.worst == pytest.approx(expected["confidence"])
        assert inference.baseline == pytest.approx(expected["baseline"])
    engine.drop(ctx.relation)


def test_a_result_survives_the_certificate() -> None:
    result = AttackResult(
        attack="inference",
        knows=("age",),
        adversary="certified",
        success=0.5,
        baseline=0.25,
        worst=0.75,
        bound=None,
        attacked=4,
        unit="rows",
        attribute="disease",
        parameters={"values": 3},
        note="why",
    )
    assert AttackResult.from_dict(result.as_dict()) == result
