"""Attribute inference (anonymeter's third attack, Giomi et al., PETS 2023, adapted to
generalized releases): for each target the adversary guesses its sensitive value as the most
frequent one among its candidate rows (the published rows equal on what they know). Success:
the share of published individuals guessed right; baseline (anonymeter's control): guessing
the value most frequent over the release for everyone. The certified models bound the
adversary's confidence (the guessed value's share among the candidates):
:mod:`anonsql.attacks.bounds` says what each promises."""

from __future__ import annotations

from anonsql.attacks.base import (
    CERTIFIED,
    UNBOUNDED_COLUMNS,
    Attack,
    AttackContext,
    AttackResult,
    share,
)
from anonsql.attacks.bounds import inference_bound


class AttributeInference(Attack):
    name = "inference"
    description = "share of sensitive values guessed right from the candidates' most frequent"

    def run(self, ctx: AttackContext) -> list[AttackResult]:
        results = []
        for column in ctx.sensitive:
            for known, adversary in ctx.adversaries():
                certified = adversary == CERTIFIED
                correct, rows, confidence, baseline, domain = ctx.engine.query(
                    "attacks/inference",
                    relation=ctx.relation,
                    known=list(known),
                    column=column,
                    counted=ctx.counted,
                    distinct=ctx.distinct_on([*known, column]),
                )[0]
                rows = int(rows)
                q = share(int(baseline), rows)
                bound, why = inference_bound(ctx.models, column, q, int(domain))
                if not certified:
                    bound, why = None, UNBOUNDED_COLUMNS
                results.append(
                    AttackResult(
                        attack=self.name,
                        knows=known,
                        adversary=adversary,
                        success=share(int(correct), rows),
                        baseline=q,
                        worst=float(confidence),
                        bound=bound,
                        attacked=rows,
                        unit=ctx.unit,
                        attribute=column,
                        parameters={
                            "values": int(domain),
                            "bounded_by": why if bound is not None else None,
                        },
                        note="" if bound is not None else why,
                    )
                )
        return results
