"""OLAP query accuracy: KL divergence between actual and estimated count cubes, computed in SQL.

Ghinita, Karras, Kalnis, Mamoulis, "Fast Data Anonymization with Low Information Loss", VLDB 2007,
measure a release by count queries ``SELECT QT1..QTi, COUNT(*) FROM data WHERE SA = val GROUP BY
QT1..QTi``: the *actual* cube comes from the original table, the *estimated* one from the release,
each class's rows with ``SA = val`` spread uniformly over the class's extent, and the cost is
``KL(actual || estimate) = sum over cells c with P(c) > 0 of P(c) ln(P(c) / Q(c))`` with both cubes
normalized to sum 1 (natural log), averaged over a workload of queries.

Conventions (digest 001, sections 10 and 13 A19-A21):

* Numeric GROUP BY attributes are binned: ``bins`` equal-width bins over the attribute's data range
  (the last bin closed), or bins of a given width anchored at the minimum. Categorical ones group
  by leaf.
* Spreading is discrete-uniform, so the estimate is never 0 where a true row lies and KL is
  finite: over the integers of ``[lo, hi]`` for an integer-typed column; over the distinct source
  values in ``[lo, hi]`` for any other numeric column; over the hierarchy leaves under a
  categorical node.
* Rows the release suppressed are charged as NCP charges them: as one more class per sensitive
  value, generalized to the whole domain (data range; hierarchy root). The actual cube counts
  every source row.
* Workload (seeded with :class:`random.Random`): sensitive values with support >= ``min_support``
  of the source rows (a seeded sample of ``max_sa_values`` when there are more, drawn first); for
  each dimensionality i = 1..``max_dimensions`` all combinations of i quasi-identifiers in
  declared order (a seeded sample of ``queries_per_dimension`` when there are more). One query
  per (combination, value), each weighing the same in the means.

One SQL statement computes the KL of a batch of up to ``BATCH`` attribute combinations for every
chosen value at once, reading the source and the release once; Python only picks the workload and
averages.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from anonsql.engines import ColumnInfo, Engine
from anonsql.errors import AnonsqlError, SpecError
from anonsql.metrics.base import OnDemandMeasure
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

if TYPE_CHECKING:
    from anonsql.release.reader import PublishedRelease

REFERENCE = (
    "G. Ghinita, P. Karras, P. Kalnis, N. Mamoulis, Fast Data Anonymization with Low "
    "Information Loss, VLDB 2007"
)
DEFAULT_SEED = 0
DEFAULT_MAX_DIMENSIONS = 4
DEFAULT_QUERIES_PER_DIMENSION = 50
DEFAULT_MAX_SA_VALUES = 10
DEFAULT_MIN_SUPPORT = 0.01
DEFAULT_BINS = 10
#: Bins per attribute beyond which a bin width is refused (the cube would be needlessly large).
MAX_BINS = 10_000
#: Attribute combinations measured by one SQL statement.
BATCH = 25
#: KL rounding slack: a value in (-SLACK, 0) is reported as 0.
_SLACK = 1e-9


@dataclass(frozen=True)
class Workload:
    """The queries measured: what was drawn with ``seed`` and the parameters that shaped it."""

    seed: int
    sa_column: str
    sa_values: tuple[str, ...]
    combinations: Mapping[int, tuple[tuple[str, ...], ...]]
    max_dimensions: int
    queries_per_dimension: int
    max_sa_values: int
    min_support: float
    bins: int
    bin_width: Mapping[str, float] = field(default_factory=dict)

    @property
    def queries(self) -> int:
        return len(self.sa_values) * sum(len(c) for c in self.combinations.values())


@dataclass(frozen=True)
class QueryKL:
    """KL(actual || estimate) of one count query (attribute combination, sensitive value)."""

    attributes: tuple[str, ...]
    sa_value: str
    kl: float
    cells: int
    source_rows: int


@dataclass(frozen=True)
class QueryAccuracy:
    """Mean KL per query dimensionality and over the whole workload (lower is better)."""

    output: str
    workload: Workload
    queries: tuple[QueryKL, ...]
    mean_by_dimension: Mapping[int, float]
    mean: float
    statements: int
    seconds: float
    reference: str = REFERENCE

    def kl(self, attributes: Sequence[str], sa_value: str) -> float:
        for q in self.queries:
            if q.attributes == tuple(attributes) and q.sa_value == sa_value:
                return q.kl
        raise KeyError((tuple(attributes), sa_value))

    def summary(self) -> dict[str, Any]:
        """JSON-ready figures and workload parameters (no sensitive values, only their count)."""
        w = self.workload
        return {
            "output": self.output,
            "kl_mean": self.mean,
            "kl_by_dimension": {str(i): v for i, v in self.mean_by_dimension.items()},
            "queries": len(self.queries),
            "statements": self.statements,
            "seconds": round(self.seconds, 3),
            "seed": w.seed,
            "sa_column": w.sa_column,
            "sa_values": len(w.sa_values),
            "combinations": {str(i): len(c) for i, c in w.combinations.items()},
            "max_dimensions": w.max_dimensions,
            "queries_per_dimension": w.queries_per_dimension,
            "max_sa_values": w.max_sa_values,
            "min_support": w.min_support,
            "bins": w.bins,
            "bin_width": dict(w.bin_width),
        }


@dataclass(frozen=True)
class _Dim:
    """One GROUP BY attribute as the template sees it."""

    column: str
    kind: Literal["integer", "real", "categorical"]
    uppers: tuple[int | float, ...] = ()
    bins: tuple[tuple[int, int, int], ...] = ()
    #: The whole domain as a published interval, for the class of suppressed rows.
    domain_key: str = ""


def choose_workload(
    qids: Sequence[str],
    sa_counts: Mapping[str, int],
    source_rows: int,
    *,
    seed: int = DEFAULT_SEED,
    max_dimensions: int = DEFAULT_MAX_DIMENSIONS,
    queries_per_dimension: int = DEFAULT_QUERIES_PER_DIMENSION,
    max_sa_values: int = DEFAULT_MAX_SA_VALUES,
    min_support: float = DEFAULT_MIN_SUPPORT,
) -> tuple[tuple[str, ...], dict[int, tuple[tuple[str, ...], ...]]]:
    """Draw the sensitive values and attribute combinations of the workload with ``seed``."""
    rng = random.Random(seed)
    eligible = sorted(v for v, n in sa_counts.items() if n > 0 and n >= min_support * source_rows)
    if len(eligible) > max_sa_values:
        eligible = sorted(rng.sample(eligible, max_sa_values))
    combinations: dict[int, tuple[tuple[str, ...], ...]] = {}
    for i in range(1, min(max_dimensions, len(qids)) + 1):
        combos = list(itertools.combinations(qids, i))
        if len(combos) > queries_per_dimension:
            combos = [
                combos[j] for j in sorted(rng.sample(range(len(combos)), queries_per_dimension))
            ]
        combinations[i] = tuple(combos)
    return tuple(eligible), combinations


def bin_edges(
    low: float, high: float, *, integer: bool, bins: int, width: float | None = None
) -> tuple[tuple[int | float, ...], tuple[tuple[int, int, int], ...]]:
    """Exclusive upper edges of bins 0..n-2 (the last bin takes the rest) and, for integer
    columns, each bin's integer range ``(bin, first, last + 1)``.

    ``bins`` equal-width bins over ``[low, high]``, or with ``width`` bins of that width anchored at
    ``low`` (``floor((high - low) / width) + 1`` of them). Integer edges are rounded up, which
    keeps every integer in the same bin as the real edges put it.
    """
    lo, hi = Fraction(low), Fraction(high)
    span = hi - lo
    if span <= 0:
        edges: list[Fraction] = []
    elif width is not None:
        w = Fraction(width)
        count = math.floor(span / w) + 1
        edges = [lo + j * w for j in range(1, count)]
    else:
        edges = [lo + span * j / bins for j in range(1, bins)]
    if not integer:
        return tuple(float(e) for e in edges), ()
    uppers = [math.ceil(e) for e in edges]
    firsts = [math.ceil(lo), *uppers]
    lasts = [*uppers, math.floor(hi) + 1]
    return tuple(uppers), tuple(
        (j, a, b) for j, (a, b) in enumerate(zip(firsts, lasts, strict=True))
    )


def _check_parameters(
    max_dimensions: int, queries_per_dimension: int, max_sa_values: int, min_support: float
) -> None:
    for key, value in (
        ("max_dimensions", max_dimensions),
        ("queries_per_dimension", queries_per_dimension),
        ("max_sa_values", max_sa_values),
    ):
        _check_positive(key, value)
    if not 0 <= min_support <= 1:
        raise SpecError("min_support", f"{min_support!r} is outside [0, 1]", "give a fraction")


def _check_positive(key: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise SpecError(key, f"{value!r} is not an integer >= 1", "give a positive integer")


def _check_bins(bins: int, widths: Mapping[str, float]) -> None:
    _check_positive("bins", bins)
    if bins > MAX_BINS:
        raise SpecError("bins", f"{bins} exceeds {MAX_BINS}", f"use at most {MAX_BINS} bins")
    for column, width in widths.items():
        if not (isinstance(width, int | float) and math.isfinite(width) and width > 0):
            raise SpecError(
                f"bin_width[{column!r}]", f"{width!r} is not a positive number", "give a width > 0"
            )


@dataclass(frozen=True)
class _Release:
    """What the companions of a published relation say about it."""

    names: OutputNames
    source: TableName
    source_rows: int
    qids: list[str]
    sa: str
    dims: dict[str, _Dim]


def query_accuracy(
    engine: Engine,
    published: PublishedRelease,
    *,
    seed: int = DEFAULT_SEED,
    max_dimensions: int = DEFAULT_MAX_DIMENSIONS,
    queries_per_dimension: int = DEFAULT_QUERIES_PER_DIMENSION,
    sa_column: str | None = None,
    sa_values: Sequence[str] | None = None,
    max_sa_values: int = DEFAULT_MAX_SA_VALUES,
    min_support: float = DEFAULT_MIN_SUPPORT,
    bins: int = DEFAULT_BINS,
    bin_width: float | Mapping[str, float] | None = None,
) -> QueryAccuracy:
    """Measure a relation anonsql published by the KL divergence of a seeded count-query workload.

    Reads the certificate of ``published`` (source table, quasi-identifiers), ``__attributes``
    and ``__hierarchy_nodes`` beside its relation ``output``; the actual cubes come from the
    source table, the estimates from ``output``. ``sa_column`` defaults to the certificate's
    first sensitive column; ``sa_values`` (text, as ``CAST(sa AS VARCHAR)`` shows them) replaces
    the drawn values; ``bin_width`` (one width, or per attribute) replaces ``bins`` for numeric
    attributes.
    """
    started = time.perf_counter()
    statements = engine.stats.statements
    output = published.names.main
    release = _read_release(engine, published, sa_column, bins, bin_width)
    _check_parameters(max_dimensions, queries_per_dimension, max_sa_values, min_support)
    drawn = {
        "seed": seed,
        "max_dimensions": max_dimensions,
        "queries_per_dimension": queries_per_dimension,
    }
    if sa_values is None:
        counts = {
            str(v): int(n)
            for v, n in engine.query("metrics/olap_sa_values", source=release.source, sa=release.sa)
        }
        values, combinations = choose_workload(
            release.qids,
            counts,
            release.source_rows,
            max_sa_values=max_sa_values,
            min_support=min_support,
            **drawn,
        )
        if not values:
            raise SpecError(
                "min_support",
                f"no value of {release.sa!r} occurs in at least {min_support:.2%} of the rows",
                "lower min_support",
            )
    else:
        values = tuple(dict.fromkeys(str(v) for v in sa_values))
        if not values:
            raise SpecError("sa_values", "the list is empty", "give at least one value")
        _, combinations = choose_workload(release.qids, {}, release.source_rows, **drawn)
    workload = Workload(
        seed=seed,
        sa_column=release.sa,
        sa_values=values,
        combinations=combinations,
        max_dimensions=max_dimensions,
        queries_per_dimension=queries_per_dimension,
        max_sa_values=max_sa_values,
        min_support=min_support,
        bins=bins,
        bin_width=_widths(release.qids, bin_width),
    )
    queries = [combo for combos in combinations.values() for combo in combos]
    results = [
        kl
        for start in range(0, len(queries), BATCH)
        for kl in _measure(engine, output, release, values, queries[start : start + BATCH])
    ]
    by_dimension = {
        i: math.fsum(q.kl for q in results if len(q.attributes) == i) / (len(combos) * len(values))
        for i, combos in combinations.items()
    }
    return QueryAccuracy(
        output=str(output),
        workload=workload,
        queries=tuple(results),
        mean_by_dimension=by_dimension,
        mean=math.fsum(q.kl for q in results) / len(results),
        statements=engine.stats.statements - statements,
        seconds=time.perf_counter() - started,
    )


def _widths(qids: Sequence[str], bin_width: float | Mapping[str, float] | None) -> dict[str, float]:
    if bin_width is None:
        return {}
    if isinstance(bin_width, Mapping):
        return {str(c): w for c, w in bin_width.items()}
    return dict.fromkeys(qids, bin_width)


def _read_release(
    engine: Engine,
    published: PublishedRelease,
    sa_column: str | None,
    bins: int,
    bin_width: float | Mapping[str, float] | None,
) -> _Release:
    """Check the certificate and companions of ``published``; lay out the bins."""
    _check_published(engine, published)
    qids = list(published.qids)
    widths = _checked_widths(published, bins, bin_width)
    _check_row_layout(published)
    source = _certified_source(published)
    source_types = _source_types(engine, published, source)
    sa = _sensitive_column(engine, published, sa_column, source, source_types)
    _check_row_counts(engine, published, source)
    attributes = {a["attribute"]: a for a in published.attributes(engine)}
    _check_leaf_ranges(engine, published, attributes)
    dims = {q: _dimension(q, attributes[q], source_types, bins, widths.get(q)) for q in qids}
    source_rows = int(published.certificate["source_rows"])
    return _Release(published.names, source, source_rows, qids, sa, dims)


def _check_published(engine: Engine, published: PublishedRelease) -> None:
    output = published.names.main
    if not engine.exists(output):
        raise SpecError(
            "output",
            f"{output} does not exist beside its certificate",
            "give the name of a relation published by `anonsql run`",
        )


def _checked_widths(
    published: PublishedRelease, bins: int, bin_width: float | Mapping[str, float] | None
) -> dict[str, float]:
    """The bin width of each quasi-identifier given one; ``bins`` and the widths must fit."""
    qids = list(published.qids)
    widths = _widths(qids, bin_width)
    unknown = sorted(set(widths) - set(qids))
    if unknown:
        raise SpecError(
            "bin_width",
            f"{', '.join(map(repr, unknown))} not quasi-identifiers of {published.names.main}",
            f"name some of: {', '.join(qids)}",
        )
    _check_bins(bins, widths)
    return widths


def _check_row_layout(published: PublishedRelease) -> None:
    """The workload reads one row per individual carrying its sensitive value."""
    output = published.names.main
    if published.person is not None:
        raise SpecError(
            "output",
            f"{output} is a 1:M release (several rows per person); the query workload counts "
            "one row per individual",
            "measure a release of one row per individual",
        )
    if published.layout not in ("record", "person"):
        raise SpecError(
            "output",
            f"{output} is a {published.layout} release, whose rows do not carry their "
            "sensitive values; the query workload reads them from the rows",
            "read the release's own query error in its __metrics table",
        )


def _certified_source(published: PublishedRelease) -> TableName:
    """The one source table the certificate names (a join is refused)."""
    try:
        return TableName.parse(str(published.certificate["source"]))
    except ValueError:
        raise SpecError(
            "source",
            f"the source of {published.names.main} joins several tables; the workload reads one "
            "source table",
            "publish from a view over the join to measure query accuracy",
        ) from None


def _source_types(
    engine: Engine, published: PublishedRelease, source: TableName
) -> dict[str, ColumnInfo]:
    """The source table's columns by name; the table must still exist."""
    source_catalog = engine.columns(source)
    if source_catalog is None:
        raise SpecError(
            "source",
            f"{source}, the source named in the certificate of {published.names.main}, does not "
            "exist",
            "measure the output where its source table is",
        )
    return {c.name: c for c in source_catalog}


def _sensitive_column(
    engine: Engine,
    published: PublishedRelease,
    sa_column: str | None,
    source: TableName,
    source_types: Mapping[str, ColumnInfo],
) -> str:
    """The column whose values the queries select: ``sa_column``, else the certificate's first
    sensitive column; a non-QID column of both the release and its source."""
    output = published.names.main
    sensitive = list(published.sensitive)
    sa = sa_column if sa_column is not None else (sensitive[0] if sensitive else None)
    candidates = [c.name for c in engine.columns(output) or [] if c.name not in published.qids]
    if sa is None:
        raise SpecError(
            "sa_column",
            f"the certificate of {output} names no sensitive column",
            f"name one of: {', '.join(candidates) or '(none)'}",
        )
    if sa not in candidates or sa not in source_types:
        raise SpecError(
            "sa_column",
            f"{sa!r} is not a non-QID column of both {output} and {source}",
            f"name one of: {', '.join(c for c in candidates if c in source_types) or '(none)'}",
        )
    return sa


def _check_row_counts(engine: Engine, published: PublishedRelease, source: TableName) -> None:
    """The source and the release still hold the rows the certificate counted."""
    output, certificate = published.names.main, published.certificate
    for relation, key in ((source, "source_rows"), (output, "published_rows")):
        rows = engine.count_rows(relation)
        if rows != int(certificate[key]):
            raise SpecError(
                "output",
                f"{relation} has {rows} rows but {certificate[key]} when {output} was published",
                "re-run anonsql so that the release matches its source",
            )


def _check_leaf_ranges(
    engine: Engine, published: PublishedRelease, attributes: Mapping[str, Mapping[str, Any]]
) -> None:
    """Categorical estimates spread over a node's leaves: the nodes table must give their
    ranges."""
    nodes = published.names.hierarchy_nodes
    if any(attributes[q]["kind"] != "numeric" for q in published.qids):
        node_columns = {c.name for c in engine.columns(nodes) or []}
        if not {"first_leaf", "last_leaf"} <= node_columns:
            raise SpecError(
                "output",
                f"{nodes} lacks the leaf ranges of its nodes (published by an older anonsql)",
                "re-run anonsql to publish the output again",
            )


def _dimension(
    q: str,
    attribute: Mapping[str, Any],
    source_types: Mapping[str, ColumnInfo],
    bins: int,
    width: float | None,
) -> _Dim:
    """Quasi-identifier ``q`` as the template groups it: by leaf, or (numeric) by bin."""
    if attribute["kind"] != "numeric":
        return _Dim(q, "categorical")
    integer = source_types[q].is_integer
    low, high = float(attribute["min_value"]), float(attribute["max_value"])
    uppers, ranges = bin_edges(low, high, integer=integer, bins=bins, width=width)
    if len(uppers) >= MAX_BINS:
        raise SpecError(
            f"bin_width[{q!r}]",
            f"makes more than {MAX_BINS} bins over the column's range",
            "give a wider bin",
        )
    domain = f"[{int(low)}, {int(high)}]" if integer else f"[{low!r}, {high!r}]"
    return _Dim(q, "integer" if integer else "real", uppers, ranges, domain)


def _measure(
    engine: Engine,
    output: TableName,
    release: _Release,
    values: tuple[str, ...],
    combos: Sequence[tuple[str, ...]],
) -> list[QueryKL]:
    """One statement: the KL of the queries over ``combos`` for every value in ``values``."""
    source, nodes, sa = release.source, release.names.hierarchy_nodes, release.sa
    used = [q for q in release.qids if any(q in combo for combo in combos)]
    rows = engine.query(
        "metrics/olap_kl",
        source=source,
        relation=output,
        nodes=nodes,
        sa=sa,
        sa_values=list(values),
        dims=[release.dims[q] for q in used],
        combos=[[used.index(q) for q in combo] for combo in combos],
    )
    found: dict[tuple[int, str], QueryKL] = {}
    for query, value, source_rows, cells, kl, uncovered, unmatched in rows:
        combo = combos[int(query)]
        where = f"query over ({', '.join(combo)})"
        if int(unmatched or 0):
            raise AnonsqlError(
                f"{int(unmatched)} published classes hold values that are not nodes of their "
                f"hierarchy in {nodes}. Fix: measure a relation published with this hierarchy"
            )
        if int(uncovered or 0) or kl is None or not math.isfinite(float(kl)):
            raise AnonsqlError(
                f"{where}: {int(uncovered or 0)} cells of the actual cube get no estimated mass "
                f"(the release does not cover its source {source}). Fix: re-run anonsql"
            )
        value_kl = float(kl)
        if value_kl < -_SLACK:
            raise AnonsqlError(f"{where}: KL divergence {value_kl} < 0 (a bug in anonsql)")
        found[(int(query), str(value))] = QueryKL(
            combo, str(value), max(value_kl, 0.0), int(cells), int(source_rows)
        )
    missing = {v for v in values if (0, v) not in found}
    if missing:
        raise SpecError(
            "sa_values",
            f"{len(missing)} of the {len(values)} values do not occur in {source}.{sa}",
            "give values of the column as CAST(column AS VARCHAR) shows them",
        )
    return [found[(q, v)] for q in range(len(combos)) for v in values]


@dataclass(frozen=True)
class QueryAccuracyMeasure(OnDemandMeasure[QueryAccuracy]):
    """OLAP query accuracy (:func:`query_accuracy`, Ghinita et al., VLDB 2007) as an on-demand
    measure: its fields are the workload's parameters. Not recorded by runs: the workload is
    sized and seeded by whoever asks."""

    name: ClassVar[str] = "query_accuracy"
    reference: ClassVar[str] = REFERENCE

    seed: int = DEFAULT_SEED
    max_dimensions: int = DEFAULT_MAX_DIMENSIONS
    queries_per_dimension: int = DEFAULT_QUERIES_PER_DIMENSION
    sa_column: str | None = None
    sa_values: Sequence[str] | None = None
    max_sa_values: int = DEFAULT_MAX_SA_VALUES
    min_support: float = DEFAULT_MIN_SUPPORT
    bins: int = DEFAULT_BINS
    bin_width: float | Mapping[str, float] | None = None

    def measure(self, engine: Engine, release: PublishedRelease) -> QueryAccuracy:
        return query_accuracy(
            engine,
            release,
            seed=self.seed,
            max_dimensions=self.max_dimensions,
            queries_per_dimension=self.queries_per_dimension,
            sa_column=self.sa_column,
            sa_values=self.sa_values,
            max_sa_values=self.max_sa_values,
            min_support=self.min_support,
            bins=self.bins,
            bin_width=self.bin_width,
        )
