"""Attacks on a release (singling out, linkability, attribute inference, linkage), measured
in the engine at publish (a gate) and on demand: :mod:`anonsql.attacks.base`."""

from anonsql.attacks.base import Attack, AttackContext, AttackResult
from anonsql.attacks.registry import ATTACKS, run_attacks
from anonsql.attacks.step import (
    AttackRefused,
    Attacks,
    attack,
    attack_results,
    publish_context,
    release_context,
)

__all__ = [
    "ATTACKS",
    "Attack",
    "AttackContext",
    "AttackRefused",
    "AttackResult",
    "Attacks",
    "attack",
    "attack_results",
    "publish_context",
    "release_context",
    "run_attacks",
]
