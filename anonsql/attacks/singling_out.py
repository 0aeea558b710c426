"""Singling out (anonymeter's first attack, Giomi et al., PETS 2023, adapted to generalized
releases): the adversary's predicates are the published combinations of the columns they know;
a combination published for exactly one individual isolates them. Success: the share of the
source's individuals isolated. A class-size model certifies that none is (bound 0)."""

from __future__ import annotations

from anonsql.attacks.base import (
    CERTIFIED,
    UNBOUNDED_COLUMNS,
    Attack,
    AttackContext,
    AttackResult,
    share,
)
from anonsql.attacks.bounds import class_size


class SinglingOut(Attack):
    name = "singling_out"
    description = "share of individuals a published combination of known columns isolates"

    def run(self, ctx: AttackContext) -> list[AttackResult]:
        k = class_size(ctx.models)
        results = []
        for known, adversary in ctx.adversaries():
            certified = adversary == CERTIFIED
            row = ctx.groups(known)
            isolated = int(row[1])
            success = share(isolated, ctx.individuals)
            bounded = certified and k is not None
            note = (
                ""
                if bounded
                else (
                    UNBOUNDED_COLUMNS if certified is False else "no class-size model is certified"
                )
            )
            results.append(
                AttackResult(
                    attack=self.name,
                    knows=known,
                    adversary=adversary,
                    success=success,
                    baseline=None,
                    worst=success,
                    bound=0.0 if bounded else None,
                    attacked=ctx.individuals,
                    unit=ctx.unit,
                    parameters={"isolated": isolated, "combinations": int(row[0])},
                    note=note,
                )
            )
        return results
