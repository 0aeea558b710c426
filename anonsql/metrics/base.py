"""The measure interface: what a release is measured by, and what each measure reads.

Two shapes of measure, one rule: a measure is one module, declares what it reads and the
layouts it measures, and is registered by one line in :mod:`anonsql.metrics.registry`.

* :class:`Metric`: measured on every release as it is published and recorded in its
  ``__metrics`` table (``anonsql metrics`` recomputes it on a published release): SQL
  aggregates over the measured relation plus a small Python finish, as :class:`MetricValue`
  rows. A metric of one layout's releases only (e.g. the personalized layout's gains and
  adversary confidences) declares ``layouts``; the others measure every release. Registered in
  :data:`~anonsql.metrics.registry.METRICS`; ``__metrics`` lists the metrics of every layout
  by name, then those of the release's layout.
* :class:`OnDemandMeasure`: taken only when asked, on a published release (the API and
  ``anonsql metrics --<flag>``), never at publish: a seeded workload with parameters (the
  measure's fields), whose result is richer than rows (e.g. the OLAP query accuracy of Ghinita
  et al., VLDB 2007). Registered in :data:`~anonsql.metrics.registry.ON_DEMAND`.

**Inputs.** A metric reads a :class:`MetricContext`: what every release has (the measured
relation, its quasi-identifiers, hierarchy nodes, individuals, k, class table, layout) and
the :class:`MetricInput` s it declares in ``reads`` (e.g. a 1:M release's fingerprint table,
the spec's functional dependencies, how risk is measured). Each input finds itself, on a
release being published (:meth:`MetricInput.at_publish`) and on one read back
(:meth:`MetricInput.of_release`); either may have none. The measure step and the release
reader (:mod:`anonsql.measure`) gather the inputs the layout's metrics read; a metric missing
one reports nothing, as one whose release has nothing to measure. So a new metric, and any
input of its own, is its module plus its registry line: neither this module nor the measure
step changes (``tests/conformance/test_extensions.py`` shows it with toy metrics).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from typing_extensions import Self

from anonsql.engines import Engine
from anonsql.sql import TableName

if TYPE_CHECKING:
    from anonsql.publish import BuiltRelease
    from anonsql.release.reader import PublishedRelease

InputT = TypeVar("InputT", bound="MetricInput")
R = TypeVar("R")


@dataclass(frozen=True)
class QidInfo:
    """What a metric knows of a published quasi-identifier."""

    column: str
    kind: str  # "numeric" | "categorical"
    min_value: float | None = None
    max_value: float | None = None
    leaf_count: int | None = None

    @property
    def span(self) -> float:
        if self.min_value is None or self.max_value is None:
            return 0.0
        return self.max_value - self.min_value


@dataclass(frozen=True)
class MetricInput:
    """Base of the frozen dataclasses metrics read beyond :class:`MetricContext`'s fields.

    A subclass finds itself on a release being published (:meth:`at_publish`) and on one read
    back from the database (:meth:`of_release`); None where the release has none (the
    defaults), and the metrics reading it then report nothing.
    """

    @classmethod
    def at_publish(cls, release: BuiltRelease) -> Self | None:
        """The input of a release being measured by the publish step. Default: none."""
        return None

    @classmethod
    def of_release(cls, engine: Engine, release: PublishedRelease) -> Self | None:
        """The input of a release read back (``anonsql metrics``). Default: none."""
        return None


@dataclass(frozen=True)
class MetricContext:
    """A published relation, the facts of it every metric may read, and the inputs
    (:class:`MetricInput`) of the metrics that read more.

    ``hierarchy_nodes`` is a table of (attribute, label, leaf_count, ncp) for categorical
    quasi-identifiers; ``source_rows`` counts the rows (the persons, for 1:M data) before
    suppression; ``layout`` names the release's layout (None for a bare relation: every metric
    applies).
    """

    engine: Engine
    relation: TableName
    qids: list[QidInfo]
    hierarchy_nodes: TableName | None
    source_rows: int
    k: int | None = None
    #: The equivalence classes of ``relation`` (its QID columns and ``class_size``), built from
    #: it by the measure step; class-based metrics read it instead of re-grouping
    #: ``relation``. None (a release read back, a bare relation): they group ``relation``.
    classes: TableName | None = None
    layout: str | None = None
    inputs: tuple[MetricInput, ...] = ()

    def has(self, kind: type[MetricInput]) -> bool:
        return any(isinstance(found, kind) for found in self.inputs)

    def get(self, kind: type[InputT]) -> InputT:
        """The input of type ``kind`` (a metric declaring it in ``reads`` has it)."""
        for found in self.inputs:
            if isinstance(found, kind):
                return found
        raise KeyError(kind.__name__)


@dataclass(frozen=True)
class MetricValue:
    name: str
    attribute: str | None
    value: float


class Metric(ABC):
    """Base class of metrics recorded at publish: ``name`` and :meth:`compute` over a
    :class:`MetricContext` (Xu et al., KDD 2006's NCP is the model: SQL aggregates over the
    measured relation, a Python finish).

    A metric declares ``reference`` (the paper), ``zero_when_exact`` (the values it reports that
    are 0 on a release that generalizes nothing and suppresses nothing: the conformance suite
    holds every metric to it, and to hand-computed fixtures), ``reads`` (the
    :class:`MetricInput` types it reads; it reports nothing on a release lacking one) and
    ``layouts`` (the layouts whose releases it measures; empty: every layout).
    """

    name: ClassVar[str]
    reference: ClassVar[str] = ""
    zero_when_exact: ClassVar[tuple[str, ...]] = ()
    reads: ClassVar[tuple[type[MetricInput], ...]] = ()
    layouts: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def measures(cls, layout: str | None) -> bool:
        """Whether the metric measures releases of ``layout`` (None: a bare relation)."""
        return not cls.layouts or layout is None or layout in cls.layouts

    def measure(self, ctx: MetricContext) -> list[MetricValue]:
        """:meth:`compute`, or nothing for a release of another layout or without an input the
        metric reads."""
        if not self.measures(ctx.layout) or not all(ctx.has(kind) for kind in self.reads):
            return []
        return self.compute(ctx)

    @abstractmethod
    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        """The metric's values; ``ctx`` holds every input of :attr:`reads`."""


class OnDemandMeasure(ABC, Generic[R]):
    """Base class of measures taken only when asked, on a published release, never at publish
    (Ghinita et al., VLDB 2007's OLAP query accuracy is the model: a seeded workload of count
    queries with parameters, its result richer than rows of ``__metrics``).

    A subclass declares ``name``, ``reference`` (the paper) and ``layouts`` (the layouts whose
    releases it measures; empty: every layout), holds its parameters (a frozen dataclass) and
    implements :meth:`measure`.
    """

    name: ClassVar[str]
    reference: ClassVar[str] = ""
    layouts: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def measure(self, engine: Engine, release: PublishedRelease) -> R:
        """Measure ``release`` (read back by :func:`anonsql.release.reader.read_release`)."""
