"""Optimal full-domain generalization: the frequency table in the engine, Flash over the lattice.

Build the frequency table once (:func:`build_frequency`, or from a run's working rows in
:mod:`.algorithm`), evaluate nodes against the privacy models with a :class:`NodeEvaluator`, and
search the lattice with :func:`full_domain_search` for the anonymous node of lowest objective
(:mod:`.objectives`). The result says which generalization level each quasi-identifier takes;
``algorithm: full_domain`` (:class:`~.algorithm.FullDomain`) publishes it through the common
path.
"""

from anonsql.algorithms.full_domain.frequency import (
    FrequencyTable,
    NodeEvaluator,
    NodeStats,
    build_frequency,
)
from anonsql.algorithms.full_domain.lattice import (
    MAX_LATTICE_NODES,
    Lattice,
    LevelHierarchy,
    levels_from_hierarchy,
    levels_from_rows,
)
from anonsql.algorithms.full_domain.objectives import (
    NCP,
    OBJECTIVES,
    Discernibility,
    Loss,
    NonUniformEntropy,
    Objective,
    make_objective,
)
from anonsql.algorithms.full_domain.result import FullDomainResult, SearchStats, write_decisions
from anonsql.algorithms.full_domain.search import full_domain_search, suppression_budget

__all__ = [
    "MAX_LATTICE_NODES",
    "NCP",
    "OBJECTIVES",
    "Discernibility",
    "FrequencyTable",
    "FullDomainResult",
    "Lattice",
    "LevelHierarchy",
    "Loss",
    "NodeEvaluator",
    "NodeStats",
    "NonUniformEntropy",
    "Objective",
    "SearchStats",
    "build_frequency",
    "full_domain_search",
    "levels_from_hierarchy",
    "levels_from_rows",
    "make_objective",
    "suppression_budget",
    "write_decisions",
]
