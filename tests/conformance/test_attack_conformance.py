"""Every registered attack, on every engine: one result per adversary (and sensitive column
for attribute attacks), figures in [0, 1] or "not measured" with a reason (never a silent 0),
no bound on what the certified models do not speak of, and nothing beaten on a release whose
classes the models certify; a toy attack registered for the test is held to the same."""

from __future__ import annotations

import itertools
from typing import ClassVar

import pyarrow as pa
import pytest

from anonsql.attacks import ATTACKS, Attack, AttackContext, AttackResult, run_attacks
from anonsql.attacks.base import CERTIFIED, COLUMNS
from anonsql.engines import Engine
from anonsql.privacy import PRIVACY_MODELS
from anonsql.sql import TableName

_names = itertools.count()


def certified_release(engine: Engine) -> AttackContext:
    """Classes of 3 rows, each holding 3 sensitive values; an insensitive column beside."""
    relation = TableName(f"conform{next(_names)}")
    engine.load_arrow(
        relation,
        pa.table(
            {
                "age": ["[20, 29]"] * 3 + ["[30, 39]"] * 3,
                "zip": ["130**"] * 6,
                "disease": ["flu", "cold", "ulcer"] * 2,
                "note": ["a", "a", "b", "b", "b", "a"],
            }
        ),
    )
    models = (
        PRIVACY_MODELS.get("k_anonymity").from_spec({"k": 3}, key="privacy[0]"),
        PRIVACY_MODELS.get("recursive_cl_diversity").from_spec(
            {"column": "disease", "c": 2, "l": 2}, key="privacy[1]"
        ),
    )
    return AttackContext(
        engine=engine,
        relation=relation,
        counted=False,
        qids=("age", "zip"),
        linked=(),
        insensitive=("note",),
        sensitive=("disease",),
        models=models,
        individuals=6,
    )


def check_results(name: str, results: list[AttackResult], ctx: AttackContext) -> None:
    assert results, f"{name} reports nothing"
    for r in results:
        assert r.attack == name
        assert r.adversary in (CERTIFIED, COLUMNS)
        assert set(ctx.qids) <= set(r.knows)
        assert not set(r.knows) & set(ctx.sensitive), "the adversary never knows a sensitive value"
        if r.success is None:
            assert r.note, f"{name}: not measured without a reason"
            continue
        assert 0.0 <= r.success <= 1.0
        assert r.worst is None or 0.0 <= r.worst <= 1.0
        if r.adversary == COLUMNS:
            assert r.bound is None
        assert not r.breaks, f"{name} breaks a release the models certify: {r}"
        assert r.describe()
        assert AttackResult.from_dict(r.as_dict()) == r


@pytest.mark.parametrize("name", ATTACKS.names())
def test_every_registered_attack(engine: Engine, name: str) -> None:
    ctx = certified_release(engine)
    check_results(name, ATTACKS.get(name)().run(ctx), ctx)


class Unique(Attack):
    name: ClassVar[str] = "toy_unique"
    description: ClassVar[str] = "a toy attack registered by the conformance suite"

    def run(self, ctx: AttackContext) -> list[AttackResult]:
        return [
            AttackResult(
                attack=self.name,
                knows=ctx.qids,
                adversary=CERTIFIED,
                success=None,
                baseline=None,
                worst=None,
                bound=None,
                attacked=ctx.individuals,
                unit=ctx.unit,
                note="a toy",
            )
        ]


def test_a_new_attack_is_a_module_and_a_registry_line(engine: Engine) -> None:
    ctx = certified_release(engine)
    with ATTACKS.temporarily(Unique.name, Unique):
        results = run_attacks(ctx)
    check_results(Unique.name, [r for r in results if r.attack == Unique.name], ctx)
    assert Unique.name not in ATTACKS.names()
