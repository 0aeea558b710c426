"""Equivalence-class size distributions, computed by SQL on any relation given its QIDs.

Every re-identification risk figure of ARX and sdcMicro is a function of two aggregates:

* the **class-size distribution** of the sample: ``f_i``, the number of equivalence classes of
  size ``i`` (ARX's ``RiskModelHistogram``; Skinner & Elliot, "A measure of disclosure risk for
  microdata", JRSS-B 64(4), 2002, write it the same way);
* with a population table (or sampling weights), the **population size of each sample class**,
  kept as a distribution of (sample size, population size) pairs (the pairs ARX walks in
  ``RiskModelSampleSummary`` when a population superset is given; sdcMicro's ``fk``/``Fk``).

Both come out of one statement each and are small (at most ``sqrt(2 n)`` distinct sizes for
``n`` rows; at most one pair per class for weights), so Python only ever holds aggregates.
Classes group rows with equal QID values; ``NULL`` is one value of its own, as in ARX.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from anonsql.arrays import FloatArray, IntArray
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.sql import Relation, TableName


@dataclass(frozen=True, eq=False)
class ClassSizes:
    """The class-size distribution of a relation: ``classes[j]`` classes hold ``sizes[j]`` rows.

    ``sizes`` is strictly increasing and positive; ``classes`` is positive. An empty relation
    has empty arrays. This is ARX's ``RiskModelHistogram`` (pairs of size and count, ascending).
    """

    sizes: IntArray
    classes: IntArray

    def __post_init__(self) -> None:
        sizes = np.asarray(self.sizes, dtype=np.int64).reshape(-1)
        classes = np.asarray(self.classes, dtype=np.int64).reshape(-1)
        if sizes.shape != classes.shape:
            raise ValueError("sizes and classes must have the same length")
        if sizes.size and (np.any(sizes < 1) or np.any(classes < 1) or np.any(np.diff(sizes) <= 0)):
            raise ValueError("sizes must be positive and strictly increasing, counts positive")
        object.__setattr__(self, "sizes", sizes)
        object.__setattr__(self, "classes", classes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassSizes):
            return NotImplemented
        return np.array_equal(self.sizes, other.sizes) and np.array_equal(
            self.classes, other.classes
        )

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_class_sizes(cls, class_sizes: npt.ArrayLike) -> ClassSizes:
        """The distribution of a list of class sizes (one entry per class; zeros are ignored)."""
        values = np.asarray(class_sizes, dtype=np.int64).reshape(-1)
        values = values[values > 0]
        sizes, counts = np.unique(values, return_counts=True)
        return cls(sizes.astype(np.int64), counts.astype(np.int64))

    @property
    def records(self) -> int:
        """Rows in classes (``n``)."""
        return int(np.dot(self.sizes, self.classes))

    @property
    def num_classes(self) -> int:
        """Number of classes (``u``)."""
        return int(self.classes.sum())

    @property
    def is_empty(self) -> bool:
        return self.sizes.size == 0

    def count_of_size(self, size: int) -> int:
        """``f_size``: the number of classes holding exactly ``size`` rows."""
        hit = np.searchsorted(self.sizes, size)
        if hit < self.sizes.size and self.sizes[hit] == size:
            return int(self.classes[hit])
        return 0

    def without_smallest(self, count: int) -> ClassSizes:
        """The distribution left after removing the ``count`` smallest classes (suppression of
        the smallest classes first, as ARX's ``HashGroupifyDistribution`` does)."""
        if count <= 0:
            return self
        cumulative = np.cumsum(self.classes)
        if count >= int(cumulative[-1]):
            return ClassSizes(np.zeros(0, np.int64), np.zeros(0, np.int64))
        cut = int(np.searchsorted(cumulative, count, side="right"))
        left = int(cumulative[cut]) - count
        return ClassSizes(
            self.sizes[cut:],
            np.concatenate([np.array([left], np.int64), self.classes[cut + 1 :]]),
        )

    def rows_in_smallest(self, count: int) -> int:
        """Rows held by the ``count`` smallest classes."""
        return self.records - self.without_smallest(count).records


@dataclass(frozen=True, eq=False)
class ClassPairs:
    """Sample classes matched to their population: ``classes[j]`` classes have
    ``sample_sizes[j]`` rows in the sample and ``population_sizes[j]`` persons in the population.

    Population sizes come from a population table (counts) or are sums of sampling weights
    (sdcMicro's ``Fk``), hence floats. Pairs are unique and sorted by sample size, then
    population size.
    """

    sample_sizes: IntArray
    population_sizes: FloatArray
    classes: IntArray

    def __post_init__(self) -> None:
        sample = np.asarray(self.sample_sizes, dtype=np.int64).reshape(-1)
        population = np.asarray(self.population_sizes, dtype=np.float64).reshape(-1)
        classes = np.asarray(self.classes, dtype=np.int64).reshape(-1)
        if not sample.shape == population.shape == classes.shape:
            raise ValueError("sample_sizes, population_sizes and classes must have one length")
        object.__setattr__(self, "sample_sizes", sample)
        object.__setattr__(self, "population_sizes", population)
        object.__setattr__(self, "classes", classes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassPairs):
            return NotImplemented
        return (
            np.array_equal(self.sample_sizes, other.sample_sizes)
            and np.array_equal(self.population_sizes, other.population_sizes)
            and np.array_equal(self.classes, other.classes)
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def records(self) -> int:
        return int(np.dot(self.sample_sizes, self.classes))

    @property
    def num_classes(self) -> int:
        return int(self.classes.sum())

    @property
    def is_empty(self) -> bool:
        return self.sample_sizes.size == 0

    def sample(self) -> ClassSizes:
        """The sample's class-size distribution (population sizes dropped)."""
        sizes, inverse = np.unique(self.sample_sizes, return_inverse=True)
        counts = np.bincount(inverse, weights=self.classes, minlength=sizes.size)
        return ClassSizes(sizes.astype(np.int64), counts.astype(np.int64))

    @classmethod
    def uniform(cls, sizes: ClassSizes, sampling_fraction: float) -> ClassPairs:
        """Every class's population size estimated as ``size / sampling_fraction`` (equal
        sampling weights, the unweighted case of sdcMicro's ``freqCalc``)."""
        return cls(
            sizes.sizes, sizes.sizes.astype(np.float64) / float(sampling_fraction), sizes.classes
        )


@dataclass(frozen=True)
class PopulationTable:
    """A table of the population the sample was drawn from: the sample's QID columns (same
    names, same generalization) and either one row per person or a ``count`` column."""

    relation: TableName
    count: str | None = None


def _check_qids(qids: Sequence[str]) -> list[str]:
    names = list(qids)
    if not names:
        raise SpecError(
            "qids", "no quasi-identifier was given", "name at least one quasi-identifier column"
        )
    if len(set(names)) != len(names):
        raise SpecError("qids", "a quasi-identifier is named twice", "name each column once")
    return names


def class_sizes(
    engine: Engine,
    relation: Relation,
    qids: Sequence[str],
    *,
    classes: TableName | None = None,
    counted: str | None = None,
    classes_are_rows: bool = False,
) -> ClassSizes:
    """The class-size distribution of ``relation`` over ``qids`` (one aggregate statement);
    read from ``classes``, a class table built from ``relation`` (QID columns and
    ``class_size``), when one is given; ``counted``: a column of ``relation`` holding how many
    rows each of its rows stands for (a grouped relation); ``classes_are_rows``: no two rows
    of ``relation`` share their ``qids``, so each is a class of ``counted`` rows (nothing to
    group)."""
    if classes_are_rows and counted is None:
        raise ValueError("classes_are_rows needs the counted column")
    rows = engine.query(
        "risk/class_sizes",
        relation=relation,
        qids=_check_qids(qids),
        classes=classes,
        counted=counted,
        classes_are_rows=classes_are_rows,
    )
    if not rows:
        return ClassSizes(np.zeros(0, np.int64), np.zeros(0, np.int64))
    sizes, counts = zip(*rows, strict=True)
    return ClassSizes(np.array(sizes, np.int64), np.array(counts, np.int64))


def _pairs(rows: list[tuple[object, ...]], what: str, fix: str) -> ClassPairs:
    if not rows:
        return ClassPairs(np.zeros(0, np.int64), np.zeros(0, np.float64), np.zeros(0, np.int64))
    sample, population, counts = zip(*rows, strict=True)
    if any(p is None for p in population):
        raise SpecError(what, "some classes have no population size (NULL values)", fix)
    return ClassPairs(
        np.array(sample, np.int64), np.array(population, np.float64), np.array(counts, np.int64)
    )


def population_class_sizes(
    engine: Engine, relation: Relation, qids: Sequence[str], population: PopulationTable
) -> ClassPairs:
    """Each sample class of ``relation`` matched to its size in ``population``.

    One statement: the sample's and the population's rows are stacked (``UNION ALL``) and
    grouped once by the QIDs, so matching treats ``NULL`` as a value and needs no join. A sample
    class absent from the population gets population size 0 (callers decide whether that is an
    error or, for k-map, a violation).
    """
    names = _check_qids(qids)
    columns = engine.columns(population.relation)
    if columns is None:
        raise SpecError(
            "population",
            f"{population.relation} does not exist",
            "name an existing table holding the population",
        )
    present = {c.name for c in columns}
    wanted = [*names, *([population.count] if population.count else [])]
    missing = [c for c in wanted if c not in present]
    if missing:
        raise SpecError(
            "population",
            f"{population.relation} lacks the column(s) {', '.join(map(repr, missing))}",
            "give the population the sample's quasi-identifier columns (and its count column)",
        )
    rows = engine.query(
        "risk/population_pairs",
        relation=relation,
        qids=names,
        population=population.relation,
        count=population.count,
    )
    return _pairs(rows, "population.count", "give every population row a count")


def weighted_class_sizes(
    engine: Engine, relation: Relation, qids: Sequence[str], weight: str
) -> ClassPairs:
    """Each class of ``relation`` with the sum of its sampling weights (sdcMicro's ``Fk``,
    the estimated population size of the class)."""
    rows = engine.query(
        "risk/weighted_pairs", relation=relation, qids=_check_qids(qids), weight=weight
    )
    return _pairs(rows, f"weight {weight!r}", "give every row a sampling weight")
