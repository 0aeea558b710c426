"""Linkage through published columns: the recovery of generalized quasi-identifiers through
the columns published beside them and the classes they refine. The exact measure is being
built as a function over a release; until it lands this attack reports "not measured" (never
0), so no release is said to resist it."""

from __future__ import annotations

from anonsql.attacks.base import COLUMNS, Attack, AttackContext, AttackResult

NOT_YET = "the exact linkage measure through published columns is not available yet"


class Linkage(Attack):
    name = "linkage"
    description = "recovery of generalized quasi-identifiers through published columns"

    def run(self, ctx: AttackContext) -> list[AttackResult]:
        known = (*ctx.qids, *ctx.linked, *ctx.insensitive)
        return [
            AttackResult(
                attack=self.name,
                knows=known,
                adversary=COLUMNS,
                success=None,
                baseline=None,
                worst=None,
                bound=None,
                attacked=ctx.individuals,
                unit=ctx.unit,
                note=NOT_YET,
            )
        ]
