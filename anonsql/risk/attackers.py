"""Prosecutor, journalist and marketer risk (ARX), and the individual risk of sdcMicro.

The attacker models of El Emam & Dankar, "Protecting privacy using k-anonymity", JAMIA 15(5),
2008, as ARX's ``RiskModelSampleSummary`` reports them for a threshold ``t`` on the individual
risk: **records at risk** (share of records whose risk exceeds ``t``), **highest risk**,
**lowest risk** and **success rate** (the average risk, the expected share of records an
attacker re-identifies).

* prosecutor: a record's risk is ``1 / (size of its class in the sample)``;
* journalist: ``1 / (size of its class in the population)``; the success rate is the larger of
  ``classes / sum_j F_j`` and ``sum_j (f_j / F_j) / n`` (the records' average of ``1 / F``).
  Without a population table ARX uses the sample as the population: the prosecutor figures;
* marketer: the success rate ``sum_j (f_j / F_j) / n`` (``classes / n`` without a population).

The individual risk of sdcMicro's ``measure_risk`` / ``indivRisk`` (Benedetti & Franconi's
approximation, Franconi & Polettini, "Individual risk estimation in mu-Argus: a review", PSD
2004) estimates a journalist's success without a population table: with ``p = f / F`` (``F`` the
sum of sampling weights of the class, or ``f / sampling fraction`` for equal weights) a record in
a class of size 1 has risk ``p/(1-p) log(1/p)``, size 2 ``p/(1-p) - (p/(1-p))^2 log(1/p)``,
size ``f > 2`` ``p / (f - (1 - p))``, and ``1/f`` where ``f = F``. Its sum is the expected number
of re-identifications, its mean the global risk.

Everything here is vectorized over the distinct sizes or (sample, population) size pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from anonsql.arrays import FloatArray
from anonsql.errors import SpecError
from anonsql.risk.classes import ClassPairs, ClassSizes

#: ARX's default threshold on the highest individual risk (``ModelRisk``), used for the share
#: of records at risk.
DEFAULT_THRESHOLD = 0.2


def check_threshold(threshold: float, key: str = "threshold") -> float:
    if not (isinstance(threshold, int | float) and 0.0 <= float(threshold) <= 1.0):
        raise SpecError(key, f"{threshold!r} is not a risk in [0, 1]", "give a value in [0, 1]")
    return float(threshold)


@dataclass(frozen=True)
class AttackerRisk:
    """One attacker model's figures, named as ARX's ``RiskSummary`` names them."""

    threshold: float
    records_at_risk: float
    highest_risk: float
    lowest_risk: float
    success_rate: float

    @property
    def average_risk(self) -> float:
        """ARX's ``getAverageRisk`` (the success rate)."""
        return self.success_rate


_NO_RISK = (0.0, 0.0, 0.0, 0.0)


def prosecutor_risk(sizes: ClassSizes, threshold: float = DEFAULT_THRESHOLD) -> AttackerRisk:
    """Prosecutor risk: every record's risk is one over its class size in the sample."""
    t = check_threshold(threshold)
    if sizes.is_empty:
        return AttackerRisk(t, *_NO_RISK)
    n = float(sizes.records)
    s = sizes.sizes.astype(np.float64)
    at_risk = float(np.dot(sizes.sizes, sizes.classes * (1.0 / s > t))) / n
    return AttackerRisk(
        threshold=t,
        records_at_risk=at_risk,
        highest_risk=1.0 / s[0],
        lowest_risk=1.0 / s[-1],
        success_rate=sizes.num_classes / n,
    )


def check_pairs(pairs: ClassPairs, what: str, fix: str) -> None:
    """A population class holds at least the sample's rows of that class."""
    short = pairs.classes[pairs.population_sizes < pairs.sample_sizes].sum()
    if short:
        raise SpecError(
            what,
            f"{int(short)} classes of the sample have fewer persons in the population than rows "
            "in the sample (a population must contain its sample)",
            fix,
        )


def journalist_risk(pairs: ClassPairs, threshold: float = DEFAULT_THRESHOLD) -> AttackerRisk:
    """Journalist risk: every record's risk is one over its class size in the population."""
    t = check_threshold(threshold)
    if pairs.is_empty:
        return AttackerRisk(t, *_NO_RISK)
    check_pairs(pairs, "population", "give a population table that contains the sample")
    n = float(pairs.records)
    big_f = pairs.population_sizes
    at_risk = float(np.dot(pairs.sample_sizes, pairs.classes * (1.0 / big_f > t))) / n
    by_classes = pairs.num_classes / float(np.dot(big_f, pairs.classes))
    by_records = float(np.dot(pairs.sample_sizes / big_f, pairs.classes)) / n
    return AttackerRisk(
        threshold=t,
        records_at_risk=at_risk,
        highest_risk=1.0 / float(big_f.min()),
        lowest_risk=1.0 / float(big_f.max()),
        success_rate=max(by_classes, by_records),
    )


def marketer_risk(pairs: ClassPairs) -> float:
    """Marketer risk (success rate): ``sum_j (f_j / F_j) / n``, the records' average of
    ``1 / F``."""
    if pairs.is_empty:
        return 0.0
    check_pairs(pairs, "population", "give a population table that contains the sample")
    return float(np.dot(pairs.sample_sizes / pairs.population_sizes, pairs.classes)) / float(
        pairs.records
    )


@dataclass(frozen=True)
class IndividualRisk:
    """sdcMicro's individual-risk summary (``measure_risk``): ``expected_reidentifications`` is
    ``global_risk_ER``, ``global_risk`` its mean over records; ``highest_risk`` the largest
    individual risk and ``records_at_risk`` the share of records whose risk exceeds
    ``threshold``."""

    threshold: float
    expected_reidentifications: float
    global_risk: float
    highest_risk: float
    records_at_risk: float


def individual_risks(pairs: ClassPairs) -> FloatArray:
    """The individual risk of a record of each pair (sdcMicro's approximate ``indivRisk``)."""
    f = pairs.sample_sizes.astype(np.float64)
    p = f / pairs.population_sizes
    with np.errstate(divide="ignore", invalid="ignore"):
        odds = p / (1.0 - p)
        log_inv = np.log(1.0 / p)
        risk = np.where(
            f > 2, p / (f - (1.0 - p)), np.where(f == 2, odds - odds**2 * log_inv, odds * log_inv)
        )
    return np.where(pairs.sample_sizes == pairs.population_sizes, 1.0 / f, risk)


def individual_risk(pairs: ClassPairs, threshold: float = DEFAULT_THRESHOLD) -> IndividualRisk:
    """Summarize sdcMicro's individual risk over the records of ``pairs``."""
    t = check_threshold(threshold)
    if pairs.is_empty:
        return IndividualRisk(t, 0.0, 0.0, 0.0, 0.0)
    check_pairs(pairs, "weight", "give weights of at least 1 (a record stands for at least itself)")
    risk = individual_risks(pairs)
    records = pairs.sample_sizes * pairs.classes
    expected = float(np.dot(risk, records))
    n = float(pairs.records)
    return IndividualRisk(
        threshold=t,
        expected_reidentifications=expected,
        global_risk=expected / n,
        highest_risk=float(risk.max()),
        records_at_risk=float(records[risk > t].sum()) / n,
    )
