"""Algorithms by spec name."""

from __future__ import annotations

from anonsql.algorithms.base import Algorithm
from anonsql.algorithms.mondrian import Mondrian
from anonsql.registry import Registry

ALGORITHMS: Registry[type[Algorithm]] = Registry("algorithm")
for _algorithm in (Mondrian,):
    ALGORITHMS.register(_algorithm.name, _algorithm)
