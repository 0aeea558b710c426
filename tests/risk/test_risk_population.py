"""Population-uniqueness estimators: ARX's published reference values on Adult, independent
re-computations (generic optimizer, log-factorials, direct sums), and the edge cases."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import risk_reference as ref

from anonsql.errors import SpecError
from anonsql.risk import ClassSizes, PopulationModel, SolverConfig, population_uniqueness
from anonsql.risk.population import (
    REGIONS,
    Equations,
    newton_2d,
    pitman,
    pitman_parameters,
    shlosser_classes,
    snb,
    snb_parameters,
    zayatz,
)

ROOT = Path(__file__).resolve().parents[2]
ADULT = ROOT / "datasets" / "adult-arx" / "adult.csv.gz"


@cache
def adult_sizes() -> ClassSizes:
    """Class sizes of ARX's Adult with all 9 columns as QIDs (ARX's TestRiskMetrics setup),
    counted by pandas, independently of anonsql's SQL."""
    frame = pd.read_csv(ADULT, sep=";")
    return ClassSizes.from_class_sizes(frame.groupby(list(frame.columns)).size().to_numpy())


def fraction_model(sizes: ClassSizes, fraction: float) -> PopulationModel:
    return PopulationModel.from_sampling_fraction(sizes.records, fraction)


def arx_compare(value: float, expected: float) -> bool:
    """ARX's TestRiskMetrics.compareUniqueness: equal when truncated to 4 decimals."""
    return int(value * 10000) == int(expected * 10000)


# ARX's src/test/.../TestRiskMetrics.java (testAverageRisk2, testDecisionRule2): Adult, all
# attributes as QIDs, ARXPopulationModel.create(rows, fraction).
ARX_DANKAR = [
    (0.1, "pitman", 0.27684993883653597),
    (0.2, "zayatz", 0.3577099234829125),
    (0.01, "pitman", 0.1446083531167384),
    (1.0, "zayatz", 0.5142895033485844),
]


@pytest.mark.parametrize(("fraction", "model", "expected"), ARX_DANKAR)
def test_arx_reference_values_on_adult(fraction: float, model: str, expected: float) -> None:
    sizes = adult_sizes()
    result = population_uniqueness(sizes, fraction_model(sizes, fraction))
    dankar = result.fraction("dankar")
    assert dankar is not None and arx_compare(dankar, expected)
    assert dankar == pytest.approx(expected, rel=1e-9)
    assert result.dankar_model == model
    # ARX asserts population uniqueness <= sample uniqueness (equal at a fraction of 1)
    assert dankar <= sizes.count_of_size(1) / sizes.records + 1e-12


def test_arx_reference_zayatz_and_average_risk_on_adult() -> None:
    sizes = adult_sizes()
    assert sizes.num_classes / sizes.records == 0.6465751607983555  # testAverageRisk2
    result = population_uniqueness(sizes, fraction_model(sizes, 0.1))
    # the value ARX's testDecisionRule2 accepts when Dankar's rule picks Zayatz (reproduced to
    # the last digit: both compute the hypergeometric probabilities exactly)
    assert result.fraction("zayatz") == pytest.approx(0.3207402393466189, rel=1e-13)


HISTOGRAMS = {
    "mixed": ClassSizes(np.array([1, 2, 3, 5, 8]), np.array([300, 120, 60, 20, 5])),
    "few uniques": ClassSizes(np.array([1, 2, 4, 10]), np.array([3, 50, 40, 30])),
}


@pytest.mark.parametrize("name", sorted(HISTOGRAMS))
@pytest.mark.parametrize("fraction", [0.01, 0.05, 0.1])
def test_pitman_matches_a_generic_maximum_likelihood_fit(name: str, fraction: float) -> None:
    sizes = HISTOGRAMS[name]
    model = fraction_model(sizes, fraction)
    hist = dict(zip(sizes.sizes.tolist(), sizes.classes.tolist(), strict=True))
    expected = ref.pitman(hist, model.size, (1.0, 0.5))
    assert pitman(sizes, model, SolverConfig()) == pytest.approx(expected, rel=1e-5)


def test_pitman_root_is_a_stationary_point_of_the_direct_log_likelihood() -> None:
    sizes = HISTOGRAMS["mixed"]
    root = pitman_parameters(sizes, SolverConfig())
    assert root is not None
    hist = dict(zip(sizes.sizes.tolist(), sizes.classes.tolist(), strict=True))
    h = 1e-6
    for axis in (0, 1):
        up, down = list(root), list(root)
        up[axis] += h
        down[axis] -= h
        slope = (
            ref.pitman_log_likelihood(up[0], up[1], hist)
            - ref.pitman_log_likelihood(down[0], down[1], hist)
        ) / (2 * h)
        assert abs(slope) < 1e-4


@pytest.mark.parametrize("name", sorted(HISTOGRAMS))
@pytest.mark.parametrize("fraction", [0.001, 0.1, 0.3, 0.9])
def test_zayatz_matches_log_factorial_hypergeometric(name: str, fraction: float) -> None:
    sizes = HISTOGRAMS[name]
    model = fraction_model(sizes, fraction)
    hist = dict(zip(sizes.sizes.tolist(), sizes.classes.tolist(), strict=True))
    assert zayatz(sizes, model) == pytest.approx(ref.zayatz(hist, model.size), rel=1e-8)


@pytest.mark.parametrize("chunk", [3, 1 << 20])
def test_one_record_probabilities(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    from anonsql.risk import population as module

    monkeypatch.setattr(module, "HYPERGEOMETRIC_CHUNK", chunk)
    sizes = np.array([1, 2, 3, 7, 8, 40, 996], np.int64)
    for big_n, n in ((1000, 10), (1000, 5), (50_000, 1234), (1000, 1000), (7, 1)):
        h = module.one_record_probabilities(sizes, big_n, n)
        for j, value in zip(sizes.tolist(), h.tolist(), strict=True):
            if j > big_n:
                continue
            if n - 1 > big_n - j:
                assert value == 0.0
                continue
            exact = math.exp(
                math.log(j) + ref.log_choose(big_n - j, n - 1) - ref.log_choose(big_n, n)
            )
            assert value == pytest.approx(exact, rel=1e-9, abs=1e-300)


def test_shlosser_by_hand() -> None:
    # f_1 = 2, f_2 = 1, q = 1/2. Numerator sum i q^2 (1-q^2)^(i-1) f_i = 0.5 + 0.375 = 0.875;
    # (sum (1-q)^i f_i / sum i q (1-q)^(i-1) f_i)^2 = (1.25 / 1.5)^2. Published denominator
    # sum (1-q)^i ((1+q)^i - 1) f_i = 0.5 + 0.3125; ARX's sum ((1-q)^i f_i (1+q)^i - 1) = 0.0625.
    sizes = ClassSizes(np.array([1, 2]), np.array([2, 1]))
    ratio = (1.25 / 1.5) ** 2
    assert shlosser_classes(sizes, 0.5, "published") == pytest.approx(
        3 + 2 * 0.875 / 0.8125 * ratio
    )
    assert shlosser_classes(sizes, 0.5, "arx") == pytest.approx(3 + 2 * 0.875 / 0.0625 * ratio)
    hist = {1: 2, 2: 1}
    assert shlosser_classes(sizes, 0.5, "published") == pytest.approx(
        ref.shlosser_published(hist, 0.5)
    )
    assert shlosser_classes(sizes, 1.0) == 3.0  # the whole population sampled: u classes


def test_published_snb_fits_the_expected_sample_counts() -> None:
    sizes = HISTOGRAMS["mixed"]
    model = fraction_model(sizes, 0.3)
    fitted = snb_parameters(sizes, model, SolverConfig(), "published")
    assert fitted is not None
    k, alpha, beta = fitted
    assert alpha > 0 and 0 < beta < 1
    fraction = model.sampling_fraction(sizes.records)
    expected_1, expected_2 = ref.snb_expected_counts(alpha, beta, k, fraction)
    assert expected_1 == pytest.approx(300, rel=1e-6)
    assert expected_2 == pytest.approx(120, rel=1e-6)
    assert snb(sizes, model, SolverConfig(), "published") == pytest.approx(k * beta**alpha)


def test_arx_snb_differs_from_the_published_model() -> None:
    # ARX's f_2 equation multiplies by (1 - d)^(alpha + 2) where the model divides: on Adult at
    # 20 % its SNB finds no root (so Dankar's rule falls back to Zayatz, ARX's reference value),
    # while the published SNB gives a smaller estimate that the rule would pick.
    sizes = adult_sizes()
    model = fraction_model(sizes, 0.2)
    arx = population_uniqueness(sizes, model, snb_form="arx")
    published = population_uniqueness(sizes, model, snb_form="published")
    assert arx.snb is None and arx.dankar_model == "zayatz"
    assert published.snb is not None and published.dankar_model == "snb"
    assert published.fraction("dankar") == pytest.approx(published.fraction("snb"))
    assert arx.zayatz is not None
    assert published.snb < arx.zayatz


def _jacobian_matches(equations: Equations, point: tuple[float, float]) -> None:
    g = equations(*point)
    h = 1e-6
    for axis, columns in ((0, (2, 4)), (1, (3, 5))):
        up, down = list(point), list(point)
        up[axis] += h
        down[axis] -= h
        gu, gd = equations(*up), equations(*down)
        for equation, column in enumerate(columns):
            numeric = (gu[equation] - gd[equation]) / (2 * h)
            assert g[column] == pytest.approx(numeric, rel=1e-5, abs=1e-6)


def test_analytic_jacobians_match_finite_differences() -> None:
    from anonsql.risk.population import (
        _pitman_direct_equations,
        _pitman_equations,
        _snb_equations,
    )

    for name, point in (("mixed", (50.0, 0.3)), ("few uniques", (100.0, -0.37))):
        closed = _pitman_equations(HISTOGRAMS[name])
        direct = _pitman_direct_equations(HISTOGRAMS[name])
        _jacobian_matches(closed, point)
        _jacobian_matches(direct, point)
        assert closed(*point) == pytest.approx(direct(*point), rel=1e-9)
    _jacobian_matches(_snb_equations(1000.0, 0.25, 300.0, 80.0, "published"), (0.7, 0.3))
    _jacobian_matches(_snb_equations(1000.0, 0.25, 300.0, 80.0, "published"), (1.5, 0.6))


def test_pitman_closed_form_pole_is_solved_with_direct_sums() -> None:
    # theta / alpha a negative integer puts the digamma form on a pole; the direct sums do not
    # care, so the score there is finite and the solver can still pass through.
    from anonsql.risk.population import _pitman_direct_equations, _pitman_equations

    point = (100.0, -0.5)
    with np.errstate(all="ignore"):
        assert not all(
            math.isfinite(v) for v in _pitman_equations(HISTOGRAMS["few uniques"])(*point)
        )
    assert all(
        math.isfinite(v) for v in _pitman_direct_equations(HISTOGRAMS["few uniques"])(*point)
    )


# -- edges ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("fraction", [0.01, 0.2, 1.0])
def test_no_sample_uniques_gives_zero_everywhere(fraction: float) -> None:
    sizes = ClassSizes(np.array([2, 5]), np.array([10, 3]))
    result = population_uniqueness(sizes, fraction_model(sizes, fraction))
    assert (result.pitman, result.zayatz, result.snb, result.dankar) == (0.0, 0.0, 0.0, 0.0)
    assert result.dankar_model == "dankar" and result.sample_uniques == 0


@pytest.mark.parametrize("fraction", [0.01, 0.1, 0.5, 1.0])
def test_all_uniques(fraction: float) -> None:
    # Every record unique: Zayatz takes every sample unique as a population unique (N uniques
    # once scaled by the fraction); Pitman's likelihood has no finite maximum (theta grows
    # without bound), so the rule falls back to Zayatz at small fractions.
    sizes = ClassSizes(np.array([1]), np.array([500]))
    model = fraction_model(sizes, fraction)
    result = population_uniqueness(sizes, model)
    assert result.zayatz == pytest.approx(model.size)
    assert result.pitman is None
    assert result.fraction("dankar") == pytest.approx(1.0)


def test_sampling_fraction_one() -> None:
    # The sample is the population: a sample unique is a population unique.
    sizes = HISTOGRAMS["mixed"]
    model = PopulationModel(sizes.records)
    result = population_uniqueness(sizes, model)
    assert result.zayatz == pytest.approx(300.0, rel=1e-12)
    assert result.snb == pytest.approx(300.0, rel=1e-6)
    assert result.dankar == pytest.approx(300.0, rel=1e-12) and result.dankar_model == "zayatz"


def test_population_smaller_than_sample_is_an_error() -> None:
    sizes = HISTOGRAMS["mixed"]
    with pytest.raises(SpecError, match="smaller than the sample"):
        population_uniqueness(sizes, PopulationModel(sizes.records - 1))


def test_population_model_defaults_and_rounding() -> None:
    assert PopulationModel.for_region() == PopulationModel(317_238_626, "USA")
    assert PopulationModel.for_region("germany") == PopulationModel(
        REGIONS.get("Germany"), "Germany"
    )
    assert PopulationModel.from_sampling_fraction(30162, 0.1).size == 301620
    assert PopulationModel.from_sampling_fraction(1, 0.4).size == 3  # 2.5 rounds half up (Java)
    with pytest.raises(SpecError, match="unknown population region 'Atlantis'"):
        PopulationModel.for_region("Atlantis")
    with pytest.raises(SpecError, match="did you mean 'Germany'"):
        PopulationModel.for_region("Germny")
    with pytest.raises(SpecError, match=r"not in \(0, 1\]"):
        PopulationModel.from_sampling_fraction(10, 0.0)


def test_solver_start_values_and_restarts() -> None:
    starts = SolverConfig().start_values
    assert len(starts) == 16
    assert sorted({a for a, _ in starts}) == pytest.approx([0.0, 0.33, 0.66, 0.99])

    # x^2 = 4, y = 3 from a start on the wrong side of a constraint x >= 0 that the first try
    # leaves: a restart from the prepared values finds the positive root.
    def equations(x: float, y: float) -> tuple[float, float, float, float, float, float]:
        return x * x - 4.0, y - 3.0, 2.0 * x, 0.0, 0.0, 1.0

    root = newton_2d(equations, (-1.0, 0.0), SolverConfig(), lambda x, _: x >= 0)
    assert root is not None and root[0] == pytest.approx(2.0) and root[1] == pytest.approx(3.0)
    never = newton_2d(
        lambda x, y: (x * x + 1.0, y, 2.0 * x, 0.0, 0.0, 1.0), (1.0, 1.0), SolverConfig()
    )
    assert never is None


def test_failed_pitman_falls_back_to_zayatz_in_the_report() -> None:
    # A solver that cannot converge (one step per try, from NaN) leaves Pitman unavailable;
    # Dankar's rule then reports Zayatz, as ARX's report does.
    sizes = HISTOGRAMS["mixed"]
    model = fraction_model(sizes, 0.05)
    stuck = SolverConfig(iterations_per_try=0, start_values=((math.nan, math.nan),))
    assert math.isnan(pitman(sizes, model, stuck))
    result = population_uniqueness(sizes, model, solver=stuck)
    assert result.pitman is None and result.dankar_model == "zayatz"
    assert result.dankar == result.zayatz
