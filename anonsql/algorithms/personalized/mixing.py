"""Keyed pseudo-random sort keys computed in the engine (the ``mix`` macro of
``personalized/_macros.sql``), identical on every engine for the same key.

The shuffles of the safe profile (bucket tables, tuple ids) and the tie-breaks among equal
values must not be predictable from the source order, yet the same seed must give the same
release on DuckDB and PostgreSQL. Integer arithmetic modulo the prime 2^31 - 1 does both: the
key is derived from the configuration's seed, or drawn with :mod:`secrets` when it has none.
This is not a cryptographic permutation: publishing the seed makes the shuffles predictable.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

PRIME = 2_147_483_647


@dataclass(frozen=True)
class Mixer:
    """The constants of one keyed mixing function (each in [1, PRIME))."""

    a1: int
    b1: int
    b2: int
    a2: int
    b3: int


@dataclass(frozen=True)
class Mixers:
    """One independent mixing function per use."""

    ties: Mixer
    slots: Mixer
    tuples: Mixer


def mixers(seed: int | None) -> Mixers:
    """Mixing functions keyed by ``seed`` (None: a fresh secret key)."""
    key = secrets.randbelow(1 << 62) if seed is None else seed
    rng = random.Random(key)

    def one() -> Mixer:
        return Mixer(*(rng.randrange(1, PRIME) for _ in range(5)))

    return Mixers(ties=one(), slots=one(), tuples=one())
