"""Re-identification risk, as ARX and sdcMicro report it, computed from SQL aggregates.

``classes`` (SQL: class-size distributions, population matching), ``population``
(population-uniqueness estimators), ``attackers`` (prosecutor / journalist / marketer, individual
risk), ``report`` (:class:`RiskReport`, :func:`measure_risk`), ``models`` (k-map and the
table-level risk thresholds as privacy models).
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
from anonsql.risk.models import (
    AverageReidentificationRisk,
    KMap,
    PopulationPartStats,
    PopulationUniqueness,
    SampleUniqueness,
    TableLevelModel,
    smallest_classes_to_suppress,
    violations_query,
)
from anonsql.risk.population import (
    PopulationModel,
    SolverConfig,
    population_uniqueness,
)
from anonsql.risk.report import RiskReport, measure_risk, risk_report

__all__ = [
    "AttackerRisk",
    "AverageReidentificationRisk",
    "ClassPairs",
    "ClassSizes",
    "IndividualRisk",
    "KMap",
    "PopulationModel",
    "PopulationPartStats",
    "PopulationTable",
    "PopulationUniqueness",
    "RiskReport",
    "SampleUniqueness",
    "SolverConfig",
    "TableLevelModel",
    "class_sizes",
    "measure_risk",
    "population_class_sizes",
    "population_uniqueness",
    "risk_report",
    "smallest_classes_to_suppress",
    "violations_query",
    "weighted_class_sizes",
]
