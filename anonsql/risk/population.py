"""Population-uniqueness estimates from a sample's class-size distribution, as ARX computes them.

How many of the sample's unique records are unique in the population? Four estimators, each a
function of the class-size distribution ``f_i`` (:class:`~anonsql.risk.classes.ClassSizes`), the
sample size ``n`` and the population size ``N`` (sampling fraction ``n / N``):

* **Pitman** -- the Pitman sampling formula fitted by maximum likelihood (Hoshino, "Applying
  Pitman's sampling formula to microdata disclosure risk assessment", J. Official Statistics
  17(4), 2001): solve the score equations for ``(theta, alpha)``, then
  ``N^alpha * Gamma(theta + 1) / Gamma(theta + alpha)`` population uniques.
* **Zayatz** -- Zayatz, "Estimation of the percent of unique population elements on a microdata
  file using the sample", US Census Bureau SRD report 91/08, 1991: the share of sample uniques
  that are population uniques, with hypergeometric sampling and the sample's class-size
  distribution standing in for the population's.
* **SNB** -- the slide negative binomial model (Chen & Keller-McCormick, "Estimating the number
  of unique population elements", 1993): ``F - 1 ~ NegBin(alpha, beta)``, fitted to ``f_1`` and
  ``f_2`` with the number of non-empty population classes estimated by Haas & Stokes' Shlosser
  estimator (Haas, Naughton, Seshadri, Stokes, VLDB 1995, ``D_Sh3``).
* **Dankar** -- the decision rule of Dankar, El Emam, Neisa, Roffey, "Estimating the
  re-identification risk of clinical data sets", BMC Med. Inform. Decis. Mak. 12:66, 2012:
  Pitman when the sampling fraction is at most 10 %, else the smaller of Zayatz and SNB.

Defaults, solver and edge cases follow ARX (arx-deidentifier/arx, ``risk/``; read for the
definitions, nothing copied): population USA (317,238,626), Newton-Raphson with accuracy 1e-6,
1000 iterations per try, the moment estimate (Pitman) or ``(1, 1)`` (SNB) as the first start
value and then ARX's 16 deterministic start values; no sample uniques gives 0 population uniques
for every estimator; an estimate that is NaN or 0 is "not available".

Two places where ARX's code differs from the published model (see :data:`SNB_FORMS`): its SNB
equation for ``f_2`` multiplies by ``(1 - d)^(alpha + 2)`` where the model divides (its Newton
Jacobian is that of the published form), and its Shlosser denominator subtracts 1 once per
distinct class size instead of weighting by ``(1 - q)^i f_i``. ``snb_form="arx"`` (the default)
reproduces ARX's figures; ``"published"`` uses the papers' equations.

The Newton iteration is inherently sequential; it has two unknowns and at most
17 x 1001 steps, each vectorized over the distinct class sizes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from anonsql.arrays import FloatArray, IntArray
from anonsql.errors import SpecError
from anonsql.registry import Registry
from anonsql.risk import special
from anonsql.risk.classes import ClassSizes

#: ARX's population regions (``ARXPopulationModel.Region``) and their sizes, by the name a spec
#: gives (``region:``, matched regardless of case by :meth:`PopulationModel.for_region`).
REGIONS: Registry[int] = Registry("population region")
for _region, _size in (
    ("Africa", 1_100_000_000),
    ("Australia", 23_130_900),
    ("Europe", 740_000_000),
    ("North America", 565_265_000),
    ("South America", 385_742_554),
    ("European Union", 507_420_000),
    ("Brasil", 202_656_788),
    ("Canada", 34_834_841),
    ("China (PRC)", 1_366_040_000),
    ("France", 65_820_916),
    ("Germany", 80_767_000),
    ("India", 1_210_569_573),
    ("UK", 63_705_000),
    ("USA", 317_238_626),
):
    REGIONS.register(_region, _size)
#: ARX's default population (the GUI's ``ModelRisk.DEFAULT_REGION``).
DEFAULT_REGION = "USA"
#: Dankar et al.'s cut: Pitman at or below this sampling fraction, Zayatz/SNB above.
DANKAR_SAMPLING_FRACTION = 0.1

Estimator = Literal["pitman", "zayatz", "snb", "dankar"]
ESTIMATORS: tuple[Estimator, ...] = ("pitman", "zayatz", "snb", "dankar")
SnbForm = Literal["arx", "published"]
#: ``arx``: the equations as ARX's code solves them; ``published``: the papers' equations.
SNB_FORMS: tuple[SnbForm, ...] = ("arx", "published")


@dataclass(frozen=True)
class PopulationModel:
    """The size of the population a sample was drawn from (ARX's ``ARXPopulationModel``)."""

    size: int
    region: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.size, int) or isinstance(self.size, bool) or self.size < 1:
            raise SpecError(
                "population_size", f"{self.size!r} is not a positive integer", "give N >= 1"
            )

    @classmethod
    def for_region(cls, region: str = DEFAULT_REGION) -> PopulationModel:
        """The population of one of ARX's regions (:data:`REGIONS`)."""
        name = next((n for n in REGIONS.names() if n.lower() == region.lower()), None)
        if name is None:
            raise SpecError("region", REGIONS.unknown_message(region), "name one of ARX's regions")
        return cls(REGIONS.get(name), name)

    @classmethod
    def from_sampling_fraction(cls, sample_size: int, fraction: float) -> PopulationModel:
        """``round(sample_size / fraction)`` persons (Java's half-up rounding, as ARX)."""
        if not (isinstance(fraction, int | float) and 0 < fraction <= 1):
            raise SpecError(
                "sampling_fraction", f"{fraction!r} is not in (0, 1]", "give a fraction in (0, 1]"
            )
        if sample_size < 1:
            raise SpecError(
                "sampling_fraction",
                "the sample is empty, so a fraction does not define a population",
                "give population_size instead",
            )
        return cls(math.floor(sample_size / fraction + 0.5))

    def sampling_fraction(self, sample_size: int) -> float:
        if sample_size > self.size:
            raise SpecError(
                "population_size",
                f"the population ({self.size}) is smaller than the sample ({sample_size} rows)",
                f"give a population of at least {sample_size}",
            )
        return sample_size / self.size


def _default_start_values() -> tuple[tuple[float, float], ...]:
    # ARX's ARXSolverConfiguration.getDefaultStartValues: steps of 0.33 from 0 while below 1,
    # accumulated in floating point (0, 0.33, 0.66, 0.99) in both coordinates.
    steps: list[float] = []
    value = 0.0
    while value < 1.0:
        steps.append(value)
        value += 0.33
    return tuple((a, b) for a in steps for b in steps)


@dataclass(frozen=True)
class SolverConfig:
    """Newton-Raphson settings (ARX's ``ARXSolverConfiguration`` defaults). ARX's wall-clock
    limits (100 ms per try, 1 s in all) are not modelled: the result does not depend on speed."""

    accuracy: float = 1e-6
    iterations_per_try: int = 1000
    start_values: tuple[tuple[float, float], ...] = field(default_factory=_default_start_values)


#: ``(x, y) -> (g1, g2, d g1/dx, d g1/dy, d g2/dx, d g2/dy)``
Equations = Callable[[float, float], tuple[float, float, float, float, float, float]]


def newton_2d(
    equations: Equations,
    start: tuple[float, float],
    config: SolverConfig,
    constraint: Callable[[float, float], bool] | None = None,
) -> tuple[float, float] | None:
    """Solve ``g1 = g2 = 0`` by Newton-Raphson with restarts, as ARX's solver does.

    The first try starts at ``start``, the next ones at ``config.start_values`` in order. A try
    ends when a step leaves ``constraint``, gives NaN, or exceeds ``iterations_per_try`` steps.
    A point counts as a root when ``|g1|`` and ``|g2|`` are both at most ``accuracy``. As in
    ARX, the last start value is only evaluated and stepped from once. Returns None when no try
    converges.
    """
    tries = [start, *config.start_values]
    with np.errstate(all="ignore"):
        for index, (x0, y0) in enumerate(tries):
            x, y = np.float64(x0), np.float64(y0)
            steps = 0
            while True:
                g1, g2, j11, j12, j21, j22 = (np.float64(v) for v in equations(float(x), float(y)))
                if abs(g1) <= config.accuracy and abs(g2) <= config.accuracy:
                    return float(x), float(y)
                det = j11 * j22 - j12 * j21
                x = x - (j22 * g1 - j12 * g2) / det
                y = y - (j11 * g2 - j21 * g1) / det
                if index == len(tries) - 1:
                    return None
                if constraint is not None and not constraint(float(x), float(y)):
                    break
                if np.isnan(x) or np.isnan(y) or steps >= config.iterations_per_try:
                    break
                steps += 1
    return None


# -- Pitman ------------------------------------------------------------------------------------


def _digamma(x: Any) -> Any:
    """Digamma; for negative arguments by reflection on the exact fractional part
    (``psi(x) = psi(1 - x) - pi cot(pi x)``), which stays accurate and fast far from 0."""
    x = np.asarray(x, dtype=np.float64)
    negative = x < 0
    value = special.digamma(np.where(negative, 1.0 - x, x))
    fractional = x - np.round(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(negative, value - np.pi / np.tan(np.pi * fractional), value)


def _trigamma(x: Any) -> Any:
    """Trigamma; for negative arguments ``psi'(x) = -psi'(1 - x) + (pi / sin(pi x))^2`` (the
    series would need a long recurrence there, as scipy's Hurwitz zeta does at large negative x)."""
    x = np.asarray(x, dtype=np.float64)
    negative = x < 0
    value = special.trigamma(np.where(negative, 1.0 - x, x))
    fractional = x - np.round(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(negative, (np.pi / np.sin(np.pi * fractional)) ** 2 - value, value)


def _pitman_equations(sizes: ClassSizes) -> Equations:
    """Score equations of the Pitman sampling formula's log-likelihood and their Jacobian.

    With ``u`` classes and ``n`` records, ``L = sum_{i<u} log(theta + i alpha)
    - sum_{i<n} log(theta + i) + sum_j f_j sum_{k<j} log(k - alpha)``; the sums over ``i`` are
    written with digamma/trigamma, the one over classes is vectorized over distinct sizes.
    """
    u = float(sizes.num_classes)
    n = float(sizes.records)
    keep = sizes.sizes != 1
    s = sizes.sizes[keep].astype(np.float64)
    c = sizes.classes[keep].astype(np.float64)
    digamma, trigamma = _digamma, _trigamma

    def equations(t: float, a: float) -> tuple[float, float, float, float, float, float]:
        theta, alpha = np.float64(t), np.float64(a)
        r = theta / alpha
        s1 = (digamma(u + r) - digamma(1.0 + r)) / alpha  # sum 1/(theta + i alpha)
        s2 = (trigamma(1.0 + r) - trigamma(u + r)) / alpha**2  # sum 1/(theta + i alpha)^2
        si = ((u - 1.0) - theta * s1) / alpha  # sum i/(theta + i alpha)
        si2 = (s1 - theta * s2) / alpha  # sum i/(theta + i alpha)^2
        sii2 = ((u - 1.0) - 2.0 * theta * s1 + theta**2 * s2) / alpha**2  # sum i^2/(...)^2
        g1 = s1 - (digamma(n + theta) - digamma(theta + 1.0))
        g2 = si - float(np.dot(c, digamma(s - alpha) - digamma(1.0 - alpha)))
        j11 = -s2 + (trigamma(theta + 1.0) - trigamma(n + theta))
        j22 = -sii2 + float(np.dot(c, trigamma(s - alpha) - trigamma(1.0 - alpha)))
        return float(g1), float(g2), float(j11), float(-si2), float(-si2), float(j22)

    return equations


#: Largest sample (rows) for which Pitman's fit is re-checked, and redone where the closed form
#: fails, with the score written as direct sums (``O(n)`` per Newton step, as ARX's iterative
#: form); above it only the digamma closed form is used.
PITMAN_DIRECT_SUM_LIMIT = 2_000_000


def _pitman_direct_equations(sizes: ClassSizes) -> Equations:
    """The same score equations and Jacobian as direct sums over ``i < u``, ``i < n`` and the
    class sizes (exact where the digamma form loses precision or meets a pole)."""
    u, n = sizes.num_classes, sizes.records
    i = np.arange(1, u, dtype=np.float64)
    m = np.arange(1, n, dtype=np.float64)
    k = np.arange(1, int(sizes.sizes[-1]), dtype=np.float64)
    index = sizes.sizes - 2  # position of sum_{k < size} in the cumulative sums (-1: empty)
    counts = sizes.classes.astype(np.float64)

    def class_sums(values: FloatArray) -> float:
        cumulative = np.concatenate([[0.0], np.cumsum(values)])
        return float(np.dot(counts, cumulative[index + 1]))

    def equations(t: float, a: float) -> tuple[float, float, float, float, float, float]:
        theta, alpha = np.float64(t), np.float64(a)
        inverse = 1.0 / (theta + i * alpha)
        shifted = 1.0 / (theta + m)
        gaps = 1.0 / (k - alpha)
        g1 = inverse.sum() - shifted.sum()
        g2 = (i * inverse).sum() - class_sums(gaps)
        j11 = -(inverse**2).sum() + (shifted**2).sum()
        j12 = -(i * inverse**2).sum()
        j22 = -(i * i * inverse**2).sum() - class_sums(gaps**2)
        return float(g1), float(g2), float(j11), float(j12), float(j12), float(j22)

    return equations


def _pitman_start(sizes: ClassSizes) -> tuple[float, float]:
    """Hoshino's moment-based first guess, as ARX computes it (``f_2 = 0`` counts as 1)."""
    c1 = float(sizes.count_of_size(1))
    c2 = float(sizes.count_of_size(2)) or 1.0
    u, n = float(sizes.num_classes), float(sizes.records)
    with np.errstate(all="ignore"):
        c = np.float64(c1 * (c1 - 1.0)) / np.float64(c2)
        t = (n * u * c - c1 * (n - 1.0) * (2.0 * u + c)) / (2.0 * c1 * u + c1 * c - n * c)
        a = (t * (c1 - n) + (n - 1.0) * c1) / (n * u)
    return float(t), float(a)


def _pitman_uniques(theta: float, alpha: float, population: float) -> float:
    if math.isnan(theta) or math.isnan(alpha) or alpha == 0:
        return math.nan
    candidates: list[float] = []
    with np.errstate(all="ignore"):
        # log form: only where both Gamma arguments are positive (Java's logGamma is NaN else)
        if theta + 1.0 > 0 and theta + alpha > 0:
            candidates.append(
                float(
                    np.exp(
                        np.float64(special.gammaln(theta + 1.0))
                        - np.float64(special.gammaln(theta + alpha))
                    )
                    * np.power(population, alpha)
                )
            )
        candidates.append(
            float(
                np.float64(special.gamma(theta + 1.0))
                / np.float64(special.gamma(theta + alpha))
                * np.power(population, alpha)
            )
        )
    valid = [v for v in candidates if 0.0 <= v <= population]
    return max(valid) if valid else math.nan


def pitman_parameters(sizes: ClassSizes, solver: SolverConfig) -> tuple[float, float] | None:
    """The maximum-likelihood ``(theta, alpha)`` of Pitman's sampling formula (``theta >= 0``),
    or None when Newton-Raphson finds no root.

    As ARX: solved with the closed (digamma) form; up to :data:`PITMAN_DIRECT_SUM_LIMIT` rows the
    root is checked against the direct sums and the fit is redone with them when the closed form
    found none or its root does not satisfy them.
    """
    start = _pitman_start(sizes)

    def constraint(theta: float, _: float) -> bool:
        return theta >= 0

    root = newton_2d(_pitman_equations(sizes), start, solver, constraint)
    if sizes.records > PITMAN_DIRECT_SUM_LIMIT:
        return root
    direct = _pitman_direct_equations(sizes)
    if root is not None:
        with np.errstate(all="ignore"):
            g1, g2, *_ = direct(*root)
        if abs(g1) <= solver.accuracy and abs(g2) <= solver.accuracy:
            return root
    return newton_2d(direct, start, solver, constraint)


def pitman(sizes: ClassSizes, population: PopulationModel, solver: SolverConfig) -> float:
    """Population uniques by Pitman's model (Hoshino 2001); NaN when the fit fails."""
    if sizes.count_of_size(1) == 0:
        return 0.0
    root = pitman_parameters(sizes, solver)
    if root is None:
        return math.nan
    return _pitman_uniques(root[0], root[1], float(population.size))


# -- Zayatz ------------------------------------------------------------------------------------


#: Terms summed at a time for the hypergeometric products of :func:`one_record_probabilities`.
HYPERGEOMETRIC_CHUNK = 1 << 20


def one_record_probabilities(sizes: IntArray, population: int, sample: int) -> Any:
    """``h(j)``: the probability that a population class of ``j`` persons shows exactly one
    record in a simple random sample of ``sample`` out of ``population`` (hypergeometric).

    Written as ``h(j) = (n/N) j prod_{i<j} (1 - (n-1)/(N-i))`` and summed in logs (``log1p``),
    which is exact to rounding where scipy's hypergeometric pmf is off by up to 1e-7 (and slow
    at census-size populations). The products run in chunks of :data:`HYPERGEOMETRIC_CHUNK`
    terms up to the largest size (sequential over chunks, vectorized within) and stop once
    ``h`` underflows to 0.
    """
    big_n, n = float(population), float(sample)
    targets = np.asarray(sizes, dtype=np.int64)
    log_products = np.full(targets.shape, -np.inf)
    log_products[targets == 1] = 0.0
    largest = int(targets.max()) if targets.size else 1
    # C(N - j, n - 1) = 0 once j > N - n + 1
    last = min(largest, int(big_n - n + 1))
    running, start = 0.0, 1  # running = sum over i < start
    with np.errstate(divide="ignore", invalid="ignore"):
        while start < last and running > -1000.0:
            stop = min(start + HYPERGEOMETRIC_CHUNK, last)
            i = np.arange(start, stop, dtype=np.float64)
            cumulative = running + np.cumsum(np.log1p(-(n - 1.0) / (big_n - i)))
            # sizes j in (start, stop]: product over i < j, i.e. cumulative[j - 1 - start]
            inside = (targets > start) & (targets <= stop)
            log_products[inside] = cumulative[targets[inside] - 1 - start]
            running, start = float(cumulative[-1]), stop
        return (n / big_n) * targets * np.exp(log_products)


def zayatz(sizes: ClassSizes, population: PopulationModel) -> float:
    """Population uniques by Zayatz's model (1991): ``f_1 * P(unique | sample unique) / f``.

    ``P(unique | sample unique) = (f_1/u) h(1) / sum_j (f_j/u) h(j)`` with ``h(j)`` the
    hypergeometric probability that a population class of size ``j`` yields exactly one record in
    a sample of ``n`` out of ``N`` (:func:`one_record_probabilities`).
    """
    f1 = sizes.count_of_size(1)
    if f1 == 0:
        return 0.0
    n, u = sizes.records, float(sizes.num_classes)
    fraction = population.sampling_fraction(n)
    h = one_record_probabilities(sizes.sizes, population.size, n)
    with np.errstate(all="ignore"):
        uniqueness = (f1 / u) * float(h[0]) / float(np.dot(sizes.classes / u, h))
    return float(f1 * uniqueness / fraction)


# -- SNB ---------------------------------------------------------------------------------------


def shlosser_classes(sizes: ClassSizes, fraction: float, form: SnbForm = "arx") -> float:
    """Estimated number of non-empty population classes (Haas et al.'s ``D_Sh3``)."""
    u, f1 = float(sizes.num_classes), float(sizes.count_of_size(1))
    if fraction >= 1.0:
        return u
    q = fraction
    i = sizes.sizes.astype(np.float64)
    c = sizes.classes.astype(np.float64)
    with np.errstate(all="ignore"):
        kept = np.power(1.0 - q, i)
        numerator = float(np.sum(i * q * q * np.power(1.0 - q * q, i - 1.0) * c))
        if form == "arx":
            # ARX subtracts 1 per distinct size rather than weighting it by (1 - q)^i f_i
            denominator = float(np.sum(kept * c * np.power(1.0 + q, i) - 1.0))
        else:
            denominator = float(np.sum(kept * (np.power(1.0 + q, i) - 1.0) * c))
        ratio = float(np.sum(kept * c)) / float(np.sum(i * q * np.power(1.0 - q, i - 1.0) * c))
        return float(u + f1 * (numerator / denominator) * ratio * ratio)


def _snb_equations(k: float, f: float, c1: float, c2: float, form: SnbForm) -> Equations:
    """Expected ``f_1`` and ``f_2`` under the slide negative binomial, minus the observed ones.

    With ``d = (1 - f)(1 - beta)`` and ``D = 1 - d``: ``E f_1 = K f (beta/D)^alpha
    (1 + alpha d / D)`` and ``E f_2 = K f^2 alpha (1 - beta) beta^alpha (2 - (1 - alpha) d)
    / (2 D^(alpha + 2))`` (from the probability generating function of the sampled class size).
    The Jacobian is that of these equations in both forms.
    """

    def equations(alpha: float, beta: float) -> tuple[float, float, float, float, float, float]:
        a, b = np.float64(alpha), np.float64(beta)
        d = (1.0 - f) * (1.0 - b)
        big_d = 1.0 - d
        g = np.power(b / big_d, a)
        h = a * d / big_d + 1.0
        e1 = k * f * g * h
        q = 2.0 - (1.0 - a) * d
        ba = np.power(b, a)
        scale = k * f * f / 2.0
        core = scale * (1.0 - b) * ba * np.power(big_d, -(a + 2.0))
        e2 = core * a * q
        if form == "arx":
            e2_solved = scale * a * ba * (1.0 - b) * np.power(big_d, a + 2.0) * q
        else:
            e2_solved = e2
        dx_da = k * f * g * (np.log(b / big_d) * h + d / big_d)
        dx_db = k * f * g * (a * (1.0 / b - (1.0 - f) / big_d) * h - a * (1.0 - f) / big_d**2)
        dy_da = core * (q * (1.0 + a * np.log(b) - a * np.log(big_d)) + a * d)
        dy_db = (
            scale
            * a
            * ba
            * np.power(big_d, -(a + 2.0))
            * (
                -q
                + (1.0 - b) * (a / b) * q
                + (1.0 - b) * (1.0 - a) * (1.0 - f)
                - (1.0 - b) * q * (a + 2.0) * (1.0 - f) / big_d
            )
        )
        return (
            float(e1 - c1),
            float(e2_solved - c2),
            float(dx_da),
            float(dx_db),
            float(dy_da),
            float(dy_db),
        )

    return equations


def snb_parameters(
    sizes: ClassSizes, population: PopulationModel, solver: SolverConfig, form: SnbForm = "arx"
) -> tuple[float, float, float] | None:
    """The fitted ``(K, alpha, beta)`` of the slide negative binomial model (``K`` estimated
    non-empty population classes), or None when Newton-Raphson finds no root."""
    fraction = population.sampling_fraction(sizes.records)
    k = shlosser_classes(sizes, fraction, form)
    c1, c2 = float(sizes.count_of_size(1)), float(sizes.count_of_size(2))
    root = newton_2d(_snb_equations(k, fraction, c1, c2, form), (1.0, 1.0), solver)
    return None if root is None else (k, root[0], root[1])


def snb(
    sizes: ClassSizes, population: PopulationModel, solver: SolverConfig, form: SnbForm = "arx"
) -> float:
    """Population uniques by the slide negative binomial model: ``K beta^alpha``."""
    if sizes.count_of_size(1) == 0:
        return 0.0
    fitted = snb_parameters(sizes, population, solver, form)
    if fitted is None:
        return math.nan
    k, alpha, beta = fitted
    with np.errstate(all="ignore"):
        return float(k * np.power(np.float64(beta), alpha))


# -- Dankar's rule and the estimates together --------------------------------------------------


def _valid(value: float | None) -> bool:
    return value is not None and not math.isnan(value) and value != 0.0


@dataclass(frozen=True)
class PopulationUniqueness:
    """Estimated numbers of population uniques (ARX's ``RiskModelPopulationUniqueness``).

    Each estimate is a number of unique tuples in the population, or None when the model gives
    no valid value (ARX shows 0 and "not available"). ``dankar_model`` names the estimator
    Dankar's rule picked: ``pitman``, ``zayatz``, ``snb``, or ``dankar`` when there are no sample
    uniques (every estimate is then 0), or None when it found no valid estimate.
    """

    population_size: int
    sample_size: int
    sample_uniques: int
    pitman: float | None
    zayatz: float | None
    snb: float | None
    dankar: float | None
    dankar_model: str | None
    snb_form: SnbForm = "arx"

    @property
    def sampling_fraction(self) -> float:
        return self.sample_size / self.population_size

    def uniques(self, estimator: Estimator) -> float | None:
        value: float | None = getattr(self, estimator)
        return value

    def fraction(self, estimator: Estimator) -> float | None:
        """Estimated population uniques as a fraction of the population (ARX's
        ``getFractionOfUniqueTuples``)."""
        value = self.uniques(estimator)
        return None if value is None else value / self.population_size


def dankar_rule(
    fraction: float,
    pitman_value: Callable[[], float],
    zayatz_value: Callable[[], float],
    snb_value: Callable[[], float],
    *,
    zayatz_fallback: bool = True,
) -> tuple[float | None, str | None]:
    """Dankar et al.'s choice among the estimates (computing only those it needs).

    At a sampling fraction of at most 10 %: Pitman, or Zayatz when Pitman has no valid value and
    ``zayatz_fallback`` (ARX's report uses the fallback, its population-uniqueness criterion does
    not). Above: the smaller of Zayatz and SNB, or Zayatz when SNB has no valid value.
    """
    if fraction <= DANKAR_SAMPLING_FRACTION:
        value = pitman_value()
        if _valid(value):
            return value, "pitman"
        if zayatz_fallback:
            fallback = zayatz_value()
            return (fallback, "zayatz") if _valid(fallback) else (None, "zayatz")
        return None, None
    snb_estimate, zayatz_estimate = snb_value(), zayatz_value()
    if _valid(snb_estimate):
        if zayatz_estimate < snb_estimate:
            return (zayatz_estimate, "zayatz") if _valid(zayatz_estimate) else (None, "zayatz")
        return snb_estimate, "snb"
    return (zayatz_estimate, "zayatz") if _valid(zayatz_estimate) else (None, "zayatz")


def estimate(
    sizes: ClassSizes,
    population: PopulationModel,
    estimator: Estimator,
    *,
    solver: SolverConfig | None = None,
    snb_form: SnbForm = "arx",
    zayatz_fallback: bool = True,
) -> float | None:
    """One estimate of the number of population uniques; 0 without sample uniques; None when
    the estimator gives no valid value."""
    config = solver or SolverConfig()
    if sizes.count_of_size(1) == 0:
        return 0.0
    fraction = population.sampling_fraction(sizes.records)
    if estimator == "dankar":
        value, _ = dankar_rule(
            fraction,
            lambda: pitman(sizes, population, config),
            lambda: zayatz(sizes, population),
            lambda: snb(sizes, population, config, snb_form),
            zayatz_fallback=zayatz_fallback,
        )
        return value
    computed = {
        "pitman": lambda: pitman(sizes, population, config),
        "zayatz": lambda: zayatz(sizes, population),
        "snb": lambda: snb(sizes, population, config, snb_form),
    }[estimator]()
    return computed if _valid(computed) else None


def population_uniqueness(
    sizes: ClassSizes,
    population: PopulationModel | None = None,
    *,
    solver: SolverConfig | None = None,
    snb_form: SnbForm = "arx",
) -> PopulationUniqueness:
    """All four estimates for one class-size distribution (default population: USA)."""
    model = population or PopulationModel.for_region()
    config = solver or SolverConfig()
    n, f1 = sizes.records, sizes.count_of_size(1)
    fraction = model.sampling_fraction(n)
    if f1 == 0:
        return PopulationUniqueness(model.size, n, 0, 0.0, 0.0, 0.0, 0.0, "dankar", snb_form)
    values = {
        "pitman": pitman(sizes, model, config),
        "zayatz": zayatz(sizes, model),
        "snb": snb(sizes, model, config, snb_form),
    }
    dankar_value, chosen = dankar_rule(
        fraction, lambda: values["pitman"], lambda: values["zayatz"], lambda: values["snb"]
    )
    kept = {name: (v if _valid(v) else None) for name, v in values.items()}
    return PopulationUniqueness(
        population_size=model.size,
        sample_size=n,
        sample_uniques=f1,
        pitman=kept["pitman"],
        zayatz=kept["zayatz"],
        snb=kept["snb"],
        dankar=dankar_value,
        dankar_model=chosen,
        snb_form=snb_form,
    )
