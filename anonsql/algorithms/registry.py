"""Algorithms by spec name."""

from __future__ import annotations

from anonsql.algorithms.base import Algorithm
from anonsql.algorithms.hilbert_1d import Hilbert1D
from anonsql.algorithms.idistance_1d import IDistance1D
from anonsql.algorithms.mondrian import Mondrian
from anonsql.algorithms.one_to_many import OneToMany
from anonsql.registry import Registry

ALGORITHMS: Registry[type[Algorithm]] = Registry("algorithm")
for _algorithm in (Mondrian, Hilbert1D, IDistance1D, OneToMany):
    ALGORITHMS.register(_algorithm.name, _algorithm)
