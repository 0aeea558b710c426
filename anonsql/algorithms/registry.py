"""Algorithms by spec name. Other packages add algorithms through the ``anonsql.algorithms``
entry-point group."""

from __future__ import annotations

from anonsql.algorithms.base import Algorithm
from anonsql.registry import Registry

ALGORITHMS: Registry[type[Algorithm]] = Registry("algorithm", group="anonsql.algorithms")
ALGORITHMS.register_lazy("mondrian", "anonsql.algorithms.mondrian:Mondrian")
ALGORITHMS.register_lazy("hilbert", "anonsql.algorithms.one_d:Hilbert1D")
ALGORITHMS.register_lazy("idistance", "anonsql.algorithms.one_d:IDistance1D")
ALGORITHMS.register_lazy("one_to_many", "anonsql.algorithms.one_to_many:OneToMany")
ALGORITHMS.register_lazy("pair_enum", "anonsql.algorithms.dependency.algorithm:PairEnum")
ALGORITHMS.register_lazy("k_assemble", "anonsql.algorithms.dependency.algorithm:KAssemble")
ALGORITHMS.register_lazy("k_member", "anonsql.algorithms.dependency.algorithm:KMember")
ALGORITHMS.register_lazy("top_down", "anonsql.algorithms.dependency.algorithm:TopDown")
ALGORITHMS.register_lazy("full_domain", "anonsql.algorithms.full_domain.algorithm:FullDomain")
ALGORITHMS.register_lazy("personalized", "anonsql.algorithms.personalized.algorithm:Personalized")
ALGORITHMS.register_lazy("danonyir", "anonsql.algorithms.identity_reserved.algorithm:DAnonyIR")
ALGORITHMS.register_lazy("geneir", "anonsql.algorithms.identity_reserved.algorithm:GeneIR")
