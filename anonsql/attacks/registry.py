"""The attacks by name; other packages add attacks through the ``anonsql.attacks`` entry-point
group."""

from __future__ import annotations

from anonsql.attacks.base import Attack, AttackContext, AttackResult
from anonsql.attacks.inference import AttributeInference
from anonsql.attacks.linkability import Linkability
from anonsql.attacks.linkage import Linkage
from anonsql.attacks.singling_out import SinglingOut
from anonsql.registry import Registry

ATTACKS: Registry[type[Attack]] = Registry("attack", group="anonsql.attacks")
for _attack in (SinglingOut, Linkability, AttributeInference, Linkage):
    ATTACKS.register(_attack.name, _attack)


def run_attacks(ctx: AttackContext) -> tuple[AttackResult, ...]:
    """Every registered attack on the release of ``ctx``, in name order."""
    return tuple(r for name, attack in sorted(ATTACKS.items()) for r in attack().run(ctx))
