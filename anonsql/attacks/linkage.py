"""Linkage through published columns: the recovery of generalized quasi-identifiers through
the columns published beside them (:func:`anonsql.measure.linkage.recovered_rows`, the
linkage gate's own measure). A published row is recovered when exactly one value inside its
generalization occurs in the source together with the row's values of the published columns:
the adversary who knows which combinations occur with which values reads the original value.

Each adversary matches every published column it sees (sensitive values are read off the
release, not known of the target). The bound is 0 (no row recovered) where the linkage gate
read every such column; with acknowledged columns (``acknowledge_linked``) the release bounds
nothing here, and the figure says what the acknowledgement costs.
"""

from __future__ import annotations

from anonsql.attacks.base import Attack, AttackContext, AttackResult, share
from anonsql.measure.linkage import recovered_rows

NOT_READABLE = (
    "measured on record releases with a readable source view (the linkage gate covers the "
    "others at publish)"
)
ACKNOWLEDGED = "acknowledged linked columns are left out of the linkage gate: nothing bounded"


class Linkage(Attack):
    name = "linkage"
    description = "recovery of generalized quasi-identifiers through published columns"

    def run(self, ctx: AttackContext) -> list[AttackResult]:
        found = []
        for known, adversary in ctx.adversaries():
            found.append(self._attack(ctx, known, adversary))
        return found

    def _attack(self, ctx: AttackContext, known: tuple[str, ...], adversary: str) -> AttackResult:
        columns = [c for c in (*known, *ctx.sensitive) if c not in ctx.qids]
        if ctx.recovery is None:
            return self._result(ctx, known, adversary, None, None, {}, columns, NOT_READABLE)
        recovered = recovered_rows(
            ctx.engine,
            ctx.relation,
            ctx.recovery.source,
            ctx.recovery.nodes,
            ctx.recovery.qids,
            columns,
            weighted=ctx.counted,
            memo=ctx.recovery.recovered,
            counted=ctx.recovery.counted_source,
        )
        # a row recovered on several quasi-identifiers counts once per quasi-identifier: the
        # figure is the worst quasi-identifier's share
        worst = max((share(n, ctx.individuals) for n in recovered.values()), default=0.0)
        if any(c in ctx.recovery.acknowledged for c in columns):
            return self._result(
                ctx, known, adversary, worst, None, recovered, columns, ACKNOWLEDGED
            )
        return self._result(ctx, known, adversary, worst, 0.0, recovered, columns, "")

    def _result(
        self,
        ctx: AttackContext,
        known: tuple[str, ...],
        adversary: str,
        worst: float | None,
        bound: float | None,
        recovered: dict[str, int],
        matched: list[str],
        note: str,
    ) -> AttackResult:
        return AttackResult(
            attack=self.name,
            knows=known,
            adversary=adversary,
            success=worst,
            baseline=None,
            worst=worst,
            bound=bound,
            attacked=ctx.individuals,
            unit=ctx.unit,
            # ``matched``: the published columns matched (the dbt attacks test re-runs the
            # recovery through them)
            parameters={"recovered_rows": recovered, "matched": matched},
            note=note,
        )
