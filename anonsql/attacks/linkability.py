"""Linkability (anonymeter's second attack, Giomi et al., PETS 2023, adapted to generalized
releases): the adversary holds a record of the source (its original quasi-identifiers and the
columns they know) and links it to the published rows compatible with it (its values inside
the published generalization, equal values of the other columns), picking one at random.
Success on a target: ``1/|candidates|`` when its own row is among them, 0 when the release left
it out.

The auxiliary records are every individual of the source, so the mean is the expectation over
any uniform auxiliary sample (no sampling error, no seed): a published group of ``n``
individuals contributes ``n`` targets at ``1/n`` each, the mean is the number of groups over
the individuals. Candidates are counted in the target's own published group: where another
group's generalization also covers its values the adversary has more candidates, so the
figures are upper bounds. A class-size model ``k`` bounds every target at ``1/k``
(prosecutor risk)."""

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


class Linkability(Attack):
    name = "linkability"
    description = "probability of linking a source record to its own published row"

    def run(self, ctx: AttackContext) -> list[AttackResult]:
        k = class_size(ctx.models)
        results = []
        for known, adversary in ctx.adversaries():
            certified = adversary == CERTIFIED
            groups, _, smallest, rows = ctx.groups(known)
            bounded = certified and k is not None
            note = (
                ""
                if bounded
                else (UNBOUNDED_COLUMNS if not certified else "no class-size model is certified")
            )
            results.append(
                AttackResult(
                    attack=self.name,
                    knows=known,
                    adversary=adversary,
                    success=share(int(groups), ctx.individuals),
                    # guessing among every published row
                    baseline=share(1, int(rows)) * share(int(rows), ctx.individuals),
                    worst=1.0 / int(smallest) if smallest else 0.0,
                    bound=1.0 / k if bounded and k is not None else None,
                    attacked=ctx.individuals,
                    unit=ctx.unit,
                    parameters={"auxiliary": "every individual", "candidates_min": int(smallest)},
                    note=note,
                )
            )
        return results
