"""Re-identification risk, as ARX and sdcMicro report it, computed from SQL aggregates.

``classes`` (SQL: class-size distributions, population matching), ``population``
(population-uniqueness estimators), ``attackers`` (prosecutor / journalist / marketer, individual
risk), ``report`` (:class:`RiskReport`, :func:`measure_risk`). The risk-based privacy models
(k-map, average risk, sample and population uniqueness) are in :mod:`anonsql.privacy`.
"""

from anonsql.risk.attackers import AttackerRisk, IndividualRisk
from anonsql.risk.classes import (
    ClassPairs,
    ClassSizes,
    PopulationTable,
    class_sizes,
    population_class_sizes,
    weighted_class_sizes,
)
from anonsql.risk.population import (
    PopulationModel,
    SolverConfig,
    population_uniqueness,
)
from anonsql.risk.report import RiskReport, measure_risk, risk_report

__all__ = [
    "AttackerRisk",
    "ClassPairs",
    "ClassSizes",
    "IndividualRisk",
    "PopulationModel",
    "PopulationTable",
    "RiskReport",
    "SolverConfig",
    "class_sizes",
    "measure_risk",
    "population_class_sizes",
    "population_uniqueness",
    "risk_report",
    "weighted_class_sizes",
]
