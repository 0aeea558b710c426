"""The SQL side of full-domain search: the frequency table, built once, and node evaluation.

The source is read once: its distinct quasi-identifier vectors (with the sensitive values a model
reads) and their row counts become the *frequency table*, which holds per quasi-identifier the
leaf rank and the value's path code (from the level map, :class:`LevelHierarchy`). Evaluating a
lattice node is then one ``GROUP BY`` over the frequency table, each code shifted right to the
node's level (the roll-up through the hierarchy is a shift, no join), reduced in the engine to
what the privacy models and objectives need (Samarati, IEEE TKDE 2001; LeFevre et al.,
"Incognito", SIGMOD 2005, which also evaluates generalizations from a frequency set rather than
the table). Non-anonymous nodes' classes are kept as temporary roll-up tables, from which the
nodes above them are computed, and a Flash path over a small source is evaluated in one batch.

With k-anonymity alone a node costs one statement returning one row; other models read the
node's classes (class sizes and sensitive histograms, one statement per sensitive column) and
decide per class in Python with :meth:`PrivacyModel.holds`, as the other algorithms do.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.full_domain import memory
from anonsql.algorithms.full_domain.lattice import LevelHierarchy
from anonsql.algorithms.full_domain.population import Population, match_population
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.hierarchies.io import hierarchy_key
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import PartStats, PrivacyModel
from anonsql.privacy.table_level import TableLevelModel, smallest_classes_to_suppress
from anonsql.risk.classes import ClassSizes
from anonsql.sql import Relation, TableName


@dataclass(frozen=True)
class _Dim:
    """A quasi-identifier as the templates see it."""

    index: int
    column: str
    height: int
    table: TableName


@dataclass(frozen=True, eq=False)
class FrequencyTable:
    """The frequency table of a source in the engine, and the marginals read from it.

    ``table`` has, per quasi-identifier ``i``, the leaf rank ``r<i>`` and the path code ``q<i>``
    (:class:`LevelHierarchy`: shifted right by ``shifts[l]`` it is the level-``l`` code); per
    sensitive column ``j`` its code ``s<j>``; and the row count ``n``. ``leaf_counts[i][r]``
    counts the source rows whose value has leaf rank ``r``; ``global_counts[j][c]`` the rows with
    sensitive code ``c``.
    """

    engine: Engine
    table: TableName
    qids: tuple[LevelHierarchy, ...]
    sensitive: tuple[str, ...]
    rows: int
    vectors: int
    leaf_counts: tuple[IntArray, ...]
    global_counts: tuple[IntArray, ...]
    seconds: float
    #: per sensitive column, the text of each code (None for NULL), when a model reads it
    sensitive_values: tuple[tuple[str | None, ...], ...] = ()

    def sensitive_code(self, column: str) -> str:
        return f"s{self.sensitive.index(column)}"


def build_frequency(
    engine: Engine,
    source: Relation,
    qids: Sequence[LevelHierarchy],
    *,
    schema: str,
    sensitive: Sequence[str] = (),
    prefix: str = "fd_",
) -> FrequencyTable:
    """Build the frequency table of ``source`` in ``schema`` (which must exist).

    Loads a level table per quasi-identifier (``<prefix>levels<i>``), groups the source once
    (``<prefix>raw``, dropped afterwards), checks that every value is a leaf of its hierarchy, and
    creates ``<prefix>freq``. Raises :class:`SpecError` naming the column when rows hold values
    (or NULL) outside its hierarchy.
    """
    if not qids:
        raise SpecError("columns", "full-domain search needs quasi-identifiers", "declare one")
    start = time.perf_counter()
    dims = [
        _Dim(i, q.column, q.height, TableName(f"{prefix}levels{i}", schema))
        for i, q in enumerate(qids)
    ]
    for dim, qid in zip(dims, qids, strict=True):
        engine.drop(dim.table)
        engine.load_arrow(dim.table, qid.levels_table())
    raw = TableName(f"{prefix}raw", schema)
    freq = TableName(f"{prefix}freq", schema)
    engine.drop(raw)
    engine.drop(freq)
    engine.run(
        "full_domain/raw_vectors", target=raw, source=source, dims=dims, sensitive=list(sensitive)
    )
    row = engine.query("full_domain/uncovered", raw=raw, dims=dims)[0]
    for dim, missing in zip(dims, row[: len(dims)], strict=True):
        if int(missing or 0):
            raise SpecError(
                hierarchy_key(dim.column),
                f"{int(missing)} rows of column {dim.column!r} hold NULL or a value that is not "
                "a leaf of its hierarchy",
                "add a line for every value the column holds (values are matched as text)",
            )
    engine.run("full_domain/frequency", target=freq, raw=raw, dims=dims, sensitive=list(sensitive))
    engine.drop(raw)
    engine.analyze(freq)
    vectors, rows = int(row[len(dims)]), int(row[len(dims) + 1] or 0)
    marginals = engine.query_arrow("full_domain/marginals", freq=freq, dims=dims)
    marginal_dim = arrow.to_numpy(marginals.column("dim"))
    leaf = arrow.to_numpy(marginals.column("leaf")).astype(np.int64)
    count = arrow.to_numpy(marginals.column("n")).astype(np.int64)
    leaf_counts = tuple(
        np.bincount(
            leaf[marginal_dim == i], weights=count[marginal_dim == i], minlength=q.leaf_count
        ).astype(np.int64)
        for i, q in enumerate(qids)
    )
    global_counts = []
    for j in range(len(sensitive)):
        counts = engine.query_arrow("full_domain/sensitive_counts", freq=freq, code=f"s{j}")
        codes = arrow.to_numpy(counts.column("code")).astype(np.int64)
        dense = np.zeros(int(codes.max()) + 1 if len(codes) else 0, dtype=np.int64)
        dense[codes] = arrow.to_numpy(counts.column("n")).astype(np.int64)
        global_counts.append(dense)
    return FrequencyTable(
        engine=engine,
        table=freq,
        qids=tuple(qids),
        sensitive=tuple(sensitive),
        rows=rows,
        vectors=vectors,
        leaf_counts=leaf_counts,
        global_counts=tuple(global_counts),
        seconds=time.perf_counter() - start,
    )


@dataclass(frozen=True)
class NodeStats:
    """What one node's equivalence classes tell the search.

    ``suppressed_rows`` are the rows of classes on which some privacy model fails (ARX's
    outliers); the node is anonymous when they fit in the suppression budget.
    ``squares_kept`` and ``squares`` sum the squared class sizes over the kept classes and over
    all classes. Only ``levels``, ``suppressed_rows`` and ``anonymous`` are known unless
    ``complete``. ``profile``, when known, gives per quasi-identifier the suppressed rows by
    generalized value: ``(node ids, rows)``.
    """

    levels: tuple[int, ...]
    classes: int
    rows: int
    suppressed_rows: int
    suppressed_classes: int
    squares_kept: int
    squares: int
    anonymous: bool
    complete: bool = True
    profile: tuple[tuple[IntArray, IntArray], ...] | None = field(default=None, compare=False)


def size_only(model: PrivacyModel) -> bool:
    """Whether the model holds on a class exactly when it has at least ``min_rows()`` rows
    (its bounds are class sizes and express all it asks), so a node's classes can be reduced in
    the engine to one row."""
    bounds = model.bounds()
    return (
        bool(bounds)
        and all(b.kind == "class_size" for b in bounds)
        and not (model.counts_persons or model.table_level or model.requires)
    )


#: Nodes are evaluated in one batch statement (:meth:`NodeEvaluator.prefetch`) when the source
#: rows times the nodes stay below this: on small sources a statement's fixed cost (parsing it,
#: planning it) outweighs reading the rows again for every node.
BATCH_MAX_ROWS = 600_000

#: Under size-only models, nodes are grouped in memory (:mod:`.memory`) when the frequency table
#: has at most this many vectors: it is read once, and a node costs a sort of its codes instead
#: of a statement.
IN_MEMORY_MAX_VECTORS = 200_000

#: A node's classes are materialized for later roll-ups when they are at most 1/ROLLUP_SHRINK
#: of the rows of the table they were computed from (and that table is large enough to bother).
ROLLUP_SHRINK = 1.25


@dataclass(frozen=True, eq=False)
class ClassTable:
    """A node's equivalence classes: per class and quasi-identifier the level code and the
    hierarchy node id, the rows, and whether a privacy model fails on it (suppressed)."""

    codes: IntArray
    nodes: IntArray
    counts: IntArray
    suppressed: BoolArray
    #: whether the table-level models hold once the suppressed classes are left out
    table_holds: bool = True


@dataclass(frozen=True)
class _Source:
    """A table nodes are computed from: the frequency table (``levels`` None), or a node's
    materialized classes (``g<i>`` = node id per quasi-identifier, sensitive codes, ``n``)."""

    levels: tuple[int, ...] | None
    table: TableName
    rows: int


@dataclass(frozen=True)
class _Group:
    """One grouping expression of a node's statement: ``r.column >> shift``."""

    column: str
    shift: int


class NodeEvaluator:
    """Evaluates lattice nodes against privacy models over a frequency table.

    ``budget`` is the number of rows that may be suppressed (ARX's absolute suppression limit,
    ``floor(limit * rows)``). Every evaluation is cached by node.

    Roll-ups: the classes of a non-anonymous node (the search goes on above it) are
    materialized, in a temporary table, when they are fewer than its source's rows by
    ``ROLLUP_SHRINK`` and that source has at least ``rollup_min_rows`` rows; the
    ``max_rollups`` most recently used are kept. A node is computed from the smallest
    materialized node it generalizes, its codes shifted up to the node's levels (ARX keeps
    snapshots of earlier nodes for the same purpose).

    ``population`` (:mod:`.population`) is the population's frequency table, coded like the
    sample's, for models that read each class's population count (k-map): every node's classes
    then get it by one more statement, the population rolled up to the node.

    Under size-only models over a frequency table of at most ``in_memory_max_vectors`` vectors,
    nodes are grouped in memory (:mod:`.memory`) instead, with the same statistics; roll-ups
    are then kept in memory too.
    """

    def __init__(
        self,
        freq: FrequencyTable,
        models: Sequence[PrivacyModel],
        *,
        budget: int,
        max_rollups: int = 48,
        rollup_min_rows: int = 20_000,
        population: Population | None = None,
        in_memory_max_vectors: int = IN_MEMORY_MAX_VECTORS,
    ) -> None:
        if not models:
            raise SpecError("privacy", "no privacy model is declared", "declare k_anonymity")
        for model in models:
            if model.needs_person or model.counts_persons:
                raise SpecError(
                    "privacy",
                    f"{model.name} protects persons with several rows, which full-domain search "
                    "does not model",
                    "use the one_to_many algorithm",
                )
            supplied = {"sensitive_values"} | ({"population"} if population else set())
            unsupported = model.requires - supplied
            if unsupported:
                raise SpecError(
                    "privacy",
                    f"{model.name} reads {', '.join(sorted(unsupported))}, which full-domain "
                    "search does not compute",
                    "check the model on the release with `anonsql check`",
                )
            if budget > 0 and not model.supports_suppression:
                raise SpecError(
                    "suppression_limit",
                    f"{model.name} does not hold after suppression during the search",
                    "set suppression_limit: 0",
                )
            column = model.sensitive_column if model.needs_sensitive else None
            if column is not None and column not in freq.sensitive:
                raise SpecError(
                    "privacy",
                    f"{model.name} reads column {column!r}, which the frequency table lacks",
                    "build the frequency table with that sensitive column",
                )
        self.freq = freq
        self.population = population
        self.engine = freq.engine
        self.models = list(models)
        self.budget = budget
        self.k_only = all(size_only(m) for m in self.models)
        self.k = max(m.min_rows() for m in self.models)
        self.table_models = [m for m in self.models if isinstance(m, TableLevelModel)]
        if len(self.table_models) != sum(m.table_level for m in self.models):
            raise SpecError(
                "privacy",
                "a table-level model does not derive from TableLevelModel",
                "derive it from anonsql.privacy.table_level.TableLevelModel",
            )
        self.columns_read = sorted(
            {m.sensitive_column for m in self.models if m.needs_sensitive and m.sensitive_column}
        )
        self.cache: dict[tuple[int, ...], NodeStats] = {}
        self.rollups: list[_Source] = []
        self.max_rollups = max_rollups
        self.rollup_min_rows = rollup_min_rows
        # roll-up tables are named per evaluator: several may share one session
        self._token = uuid.uuid4().hex[:8]
        self._serial = itertools.count(1)
        self._batch_sql: dict[TableName, str] = {}
        #: whether nodes are grouped in memory, and the frequency table's codes once read
        self.in_memory = self.k_only and freq.vectors <= in_memory_max_vectors
        self._codes: memory.CodedClasses | None = None
        self.memory_rollups: list[memory.CodedClasses] = []
        self.statements = 0
        self.seconds = 0.0

    @property
    def monotone(self) -> bool:
        """Whether anonymity (with this budget) is monotone: an anonymous node's
        generalizations are anonymous, a non-anonymous node's specializations are not."""
        if not all(m.monotonic for m in self.models):
            return False
        return self.budget == 0 or all(m.monotonic_with_suppression for m in self.models)

    @property
    def monotone_without_suppression(self) -> bool:
        """Whether a node whose classes all satisfy the models passes that on upwards."""
        return all(m.monotonic for m in self.models)

    def evaluate(self, levels: Sequence[int], *, complete: bool = True) -> NodeStats:
        """The node's statistics; ``complete=False`` may leave out the class counts and sums of
        squares (a shorter statement), whatever is cached is returned when it suffices."""
        key = tuple(int(v) for v in levels)
        cached = self.cache.get(key)
        if cached is not None and (cached.complete or not complete):
            return cached
        start, before = time.perf_counter(), self.engine.stats.statements
        stats = self._summary(key, complete) if self.k_only else self._from_classes(key)
        self._account(start, before)
        if cached is not None and cached.profile is not None:
            stats = NodeStats(**{**stats.__dict__, "profile": cached.profile})
        self.cache[key] = stats
        return stats

    def prefetch(self, nodes: Sequence[Sequence[int]]) -> None:
        """Evaluate several nodes in one statement into the cache, when it is cheaper than one
        statement each: k-anonymity alone, short statistics, and a small common source."""
        keys = [tuple(int(v) for v in n) for n in nodes]
        keys = [k for k in keys if k not in self.cache]
        if len(keys) < 2 or not self.k_only or self.in_memory:
            return
        meet = tuple(min(column) for column in zip(*keys, strict=True))
        source = self.source(meet)
        if source.rows * len(keys) > BATCH_MAX_ROWS:
            return
        start, before = time.perf_counter(), self.engine.stats.statements
        base = meet if source.levels is None else source.levels
        base_shift = [
            q.shifts[lv] if source.levels is not None else 0
            for q, lv in zip(self.freq.qids, base, strict=True)
        ]
        columns: dict[str, pa.Array] = {"id": arrow.array(range(len(keys)), pa.int32())}
        for i, qid in enumerate(self.freq.qids):
            columns[f"s{i}"] = arrow.array(
                [qid.shifts[k[i]] - base_shift[i] for k in keys], pa.int32()
            )
        batch = TableName(f"{self.freq.table.name}_{self._token}_batch", self.freq.table.schema)
        self.engine.drop(batch)
        self.engine.load_arrow(batch, arrow.table(columns))
        sql = self._batch_sql.get(source.table)
        if sql is None:
            names = [f"q{i}" if source.levels is None else f"g{i}" for i in range(len(base))]
            sql = self.engine.sql.render(
                "full_domain/node_batch", source=source.table, batch=batch, columns=names, k=self.k
            )
            self._batch_sql[source.table] = sql
        rows = self.engine.fetchall(sql)
        self._account(start, before)
        for node_id, small, classes in rows:
            key = keys[int(node_id)]
            small_rows = int(small or 0)
            self.cache[key] = NodeStats(
                levels=key,
                classes=int(classes),
                rows=self.freq.rows,
                suppressed_rows=small_rows,
                suppressed_classes=0,
                squares_kept=0,
                squares=0,
                anonymous=small_rows <= self.budget,
                complete=False,
            )

    def profiled(self, levels: Sequence[int]) -> NodeStats:
        """The node's suppressed rows with their profile, without its class counts: under
        k-anonymity one statement, which also tells whether the node is anonymous."""
        key = tuple(int(v) for v in levels)
        cached = self.cache.get(key)
        if cached is not None:
            return self.with_profile(cached)
        if not self.k_only:
            return self.evaluate(key)
        start, before = time.perf_counter(), self.engine.stats.statements
        profile = self._profile_query(key)
        self._account(start, before)
        suppressed = int(profile[0][1].sum()) if profile else 0
        stats = NodeStats(
            levels=key,
            classes=0,
            rows=self.freq.rows,
            suppressed_rows=suppressed,
            suppressed_classes=0,
            squares_kept=0,
            squares=0,
            anonymous=suppressed <= self.budget,
            complete=False,
            profile=profile,
        )
        self.cache[key] = stats
        return stats

    def with_profile(self, stats: NodeStats) -> NodeStats:
        """``stats`` with its suppression profile (one more statement under k-anonymity)."""
        if stats.profile is not None:
            return stats
        if stats.suppressed_rows == 0:
            empty = np.zeros(0, dtype=np.int64)
            profile = tuple((empty, empty) for _ in stats.levels)
        else:
            start, before = time.perf_counter(), self.engine.stats.statements
            profile = self._profile_query(stats.levels)
            self._account(start, before)
        updated = NodeStats(**{**stats.__dict__, "profile": profile})
        self.cache[stats.levels] = updated
        return updated

    def classes(self, levels: Sequence[int]) -> ClassTable:
        """The node's equivalence classes."""
        return self._classes(tuple(int(v) for v in levels))

    def frequency_plan(self, levels: Sequence[int]) -> dict[str, Any]:
        """Template parameters (``source``, ``groups``) grouping the frequency table itself at
        the node's levels."""
        return self._plan(levels, _Source(levels=None, table=self.freq.table, rows=0))

    def source(self, levels: Sequence[int]) -> _Source:
        """The smallest table the node can be computed from."""
        best = _Source(levels=None, table=self.freq.table, rows=self.freq.vectors)
        for rollup in self.rollups:
            assert rollup.levels is not None
            if rollup.rows < best.rows and all(
                a <= b for a, b in zip(rollup.levels, levels, strict=True)
            ):
                best = rollup
        if best.levels is not None:
            # most recently used last: eviction takes the first
            self.rollups.remove(best)
            self.rollups.append(best)
        return best

    def drop_rollups(self) -> None:
        for rollup in self.rollups:
            self.engine.drop(rollup.table)
        self.rollups.clear()
        self.memory_rollups.clear()

    # -- internals -----------------------------------------------------------------------------
    def _account(self, start: float, before: int) -> None:
        self.statements += self.engine.stats.statements - before
        self.seconds += time.perf_counter() - start

    def _plan(self, levels: Sequence[int], source: _Source | None = None) -> dict[str, Any]:
        """Template parameters computing the node with ``levels`` from ``source``."""
        source = source or self.source(levels)
        groups = []
        for i, (level, qid) in enumerate(zip(levels, self.freq.qids, strict=True)):
            if source.levels is None:
                groups.append(_Group(f"q{i}", qid.shifts[level]))
            else:
                groups.append(_Group(f"g{i}", qid.shifts[level] - qid.shifts[source.levels[i]]))
        return {"source": source.table, "groups": groups}

    def _summary(self, levels: tuple[int, ...], complete: bool) -> NodeStats:
        if self.in_memory:
            row: Sequence[Any] = self._memory_summary(levels)
        else:
            source = self.source(levels)
            row = self.engine.query(
                "full_domain/node_summary", **self._plan(levels, source), k=self.k, full=complete
            )[0]
        small_rows, classes = int(row[0] or 0), int(row[1])
        rows, small_classes, kept, squares = (
            (int(v or 0) for v in row[2:]) if complete else (self.freq.rows, 0, 0, 0)
        )
        if (
            not self.in_memory
            and small_rows > self.budget
            and classes * ROLLUP_SHRINK <= source.rows
        ):
            self._maybe_rollup(levels, source, classes)
        return NodeStats(
            levels=levels,
            classes=classes,
            rows=rows,
            suppressed_rows=small_rows,
            suppressed_classes=small_classes,
            squares_kept=kept,
            squares=squares,
            anonymous=small_rows <= self.budget,
            complete=complete,
        )

    def _from_classes(self, levels: tuple[int, ...]) -> NodeStats:
        table = self._classes(levels)
        nodes, counts, suppressed = table.nodes, table.counts, table.suppressed
        kept = counts[~suppressed]
        suppressed_rows = int(counts[suppressed].sum())
        return NodeStats(
            levels=levels,
            classes=len(counts),
            rows=int(counts.sum()),
            suppressed_rows=suppressed_rows,
            suppressed_classes=int(suppressed.sum()),
            squares_kept=int((kept * kept).sum()),
            squares=int((counts * counts).sum()),
            anonymous=suppressed_rows <= self.budget and table.table_holds,
            profile=_profile(nodes, counts, suppressed),
        )

    def _classes(self, levels: tuple[int, ...]) -> ClassTable:
        source = self.source(levels)
        plan = self._plan(levels, source)
        dims = len(levels)
        histograms: dict[str, hist.Histogram] = {}
        nodes: IntArray | None = None
        counts: IntArray | None = None
        read: list[str | None] = list(self.columns_read) or [None]
        for column in read:
            code = None if column is None else self.freq.sensitive_code(column)
            table = self.engine.query_arrow(
                "full_domain/node_classes", **plan, code=code, below=None
            )
            rows = _node_matrix(table, dims)
            n = arrow.to_numpy(table.column("n")).astype(np.int64)
            unique, inverse = np.unique(rows, axis=0, return_inverse=True)
            inverse = inverse.reshape(-1)
            sizes = np.bincount(inverse, weights=n, minlength=len(unique)).astype(np.int64)
            if nodes is None:
                nodes, counts = unique, sizes
            if column is not None:
                codes = arrow.to_numpy(table.column("code")).astype(np.int64)
                domain = len(self.freq.global_counts[self.freq.sensitive.index(column)])
                histograms[column] = hist.from_triples(inverse, codes, n, (len(unique), domain))
        assert nodes is not None and counts is not None
        codes = nodes
        nodes = self._node_ids(levels, codes)
        index = {c: self.freq.sensitive.index(c) for c in self.columns_read}
        parts = PartStats(
            population=self._population(levels, plan, codes),
            counts=counts,
            histograms=histograms,
            global_counts={c: self.freq.global_counts[i] for c, i in index.items()},
            values={
                c: self.freq.sensitive_values[i]
                for c, i in index.items()
                if i < len(self.freq.sensitive_values)
            },
        )
        holds = np.ones(len(counts), dtype=bool)
        for model in self.models:
            holds &= model.holds(parts)
        table_holds = self._table_level(counts, holds)
        if int(counts[~holds].sum()) > self.budget and len(counts) * ROLLUP_SHRINK <= source.rows:
            self._maybe_rollup(levels, source, len(counts))
        return ClassTable(
            codes=codes, nodes=nodes, counts=counts, suppressed=~holds, table_holds=table_holds
        )

    def _population(
        self, levels: tuple[int, ...], plan: dict[str, Any], codes: IntArray
    ) -> FloatArray | None:
        """Per class (rows of ``codes``), its persons in the population, or None without one."""
        if self.population is None:
            return None
        table = self.engine.query_arrow(
            "full_domain/node_population",
            **plan,
            population=self.population.table,
            population_groups=self.population_plan(levels),
        )
        persons = arrow.to_numpy(table.column("n")).astype(np.float64)
        return match_population(codes, _node_matrix(table, len(levels)), persons)

    def population_plan(self, levels: Sequence[int]) -> list[_Group]:
        """The grouping of the population's frequency table at the node's levels."""
        return [
            _Group(f"q{i}", qid.shifts[level])
            for i, (level, qid) in enumerate(zip(levels, self.freq.qids, strict=True))
        ]

    def _table_level(self, counts: IntArray, holds: BoolArray) -> bool:
        """Enforce the table-level models on the kept classes: suppress the fewest smallest
        classes (ARX's way) within what is left of the budget; ``holds`` is updated in place.
        Whether they hold."""
        if not self.table_models:
            return True
        kept = np.flatnonzero(holds)
        left = self.budget - int(counts[~holds].sum())
        plan = smallest_classes_to_suppress(
            ClassSizes.from_class_sizes(counts[kept]), self.table_models, max(left, 0)
        )
        if plan is None:
            return False
        if plan.classes:
            # smallest first; among equal sizes the first in code order (deterministic)
            order = kept[np.lexsort((kept, counts[kept]))]
            holds[order[: plan.classes]] = False
        return True

    def _profile_query(self, levels: tuple[int, ...]) -> tuple[tuple[IntArray, IntArray], ...]:
        if self.in_memory:
            return memory.profile(self._memory_classes(levels), self.freq.qids, self.k)
        rows = self.engine.query_arrow(
            "full_domain/node_profile", **self._plan(levels), below=self.k
        )
        counts = arrow.to_numpy(rows.column("n")).astype(np.int64)
        per_qid = []
        for i, (level, qid) in enumerate(zip(levels, self.freq.qids, strict=True)):
            column = rows.column(f"node{i}")
            present = ~np.asarray(column.is_null(), dtype=bool)
            codes = arrow.to_numpy(column.filter(arrow.array(present))).astype(np.int64)
            per_qid.append((qid.nodes_of(level, codes), counts[present]))
        return tuple(per_qid)

    def _memory_source(self, levels: tuple[int, ...]) -> memory.CodedClasses:
        """The smallest of the frequency table and the kept nodes below the node, in memory."""
        if self._codes is None:
            self._codes = memory.read_codes(self.engine, self.freq.table, len(self.freq.qids))
        best = self._codes
        if self.memory_rollups:
            below = np.all(
                np.array([r.levels for r in self.memory_rollups]) <= np.array(levels), axis=1
            )
            for rollup in itertools.compress(self.memory_rollups, below.tolist()):
                if rollup.size < best.size:
                    best = rollup
        if best.levels is not None:
            # most recently used last: eviction takes the first
            self.memory_rollups.remove(best)
            self.memory_rollups.append(best)
        return best

    def _memory_classes(self, levels: tuple[int, ...]) -> memory.CodedClasses:
        return memory.group(self._memory_source(levels), levels, self.freq.qids)

    def _memory_summary(self, levels: tuple[int, ...]) -> tuple[int, ...]:
        """``node_summary``'s row, grouped in memory. The classes of a node the search goes on
        above are kept for roll-ups by the rule of the engine's roll-up tables."""
        source = self._memory_source(levels)
        classes = memory.group(source, levels, self.freq.qids)
        row = memory.summary(classes, self.k)
        if (
            self.max_rollups > 0
            and row[0] > self.budget
            and classes.size * ROLLUP_SHRINK <= source.size
        ):
            self.memory_rollups.append(classes)
            if len(self.memory_rollups) > self.max_rollups:
                self.memory_rollups.pop(0)
        return row

    def _node_ids(self, levels: Sequence[int], codes: IntArray) -> IntArray:
        """Hierarchy node ids of classes given by their codes (classes x quasi-identifiers)."""
        if codes.shape[0] == 0:
            return codes
        return np.column_stack(
            [
                qid.nodes_of(level, codes[:, i])
                for i, (level, qid) in enumerate(zip(levels, self.freq.qids, strict=True))
            ]
        )

    def _maybe_rollup(self, levels: tuple[int, ...], source: _Source, classes: int) -> None:
        """Materialize the node's classes (fewer than its source's rows by ROLLUP_SHRINK)."""
        if self.max_rollups <= 0 or source.rows < self.rollup_min_rows:
            return
        table = TableName(f"{self.freq.table.name}_{self._token}_{next(self._serial)}")
        self.engine.run(
            "full_domain/rollup",
            target=table,
            **self._plan(levels, source),
            sensitive=[f"s{j}" for j in range(len(self.freq.sensitive))],
        )
        # with sensitive codes a roll-up holds a row per class and code combination
        rows = self.engine.count_rows(table) if self.freq.sensitive else classes
        self.rollups.append(_Source(levels=levels, table=table, rows=rows))
        if len(self.rollups) > self.max_rollups:
            # the least recently used
            victim = self.rollups.pop(0)
            self.engine.drop(victim.table)


def _node_matrix(table: pa.Table, dims: int) -> IntArray:
    if table.num_rows == 0:
        return np.zeros((0, dims), dtype=np.int64)
    return np.column_stack(
        [arrow.to_numpy(table.column(f"node{i}")).astype(np.int64) for i in range(dims)]
    )


def _profile(
    nodes: IntArray, counts: IntArray, suppressed: BoolArray
) -> tuple[tuple[IntArray, IntArray], ...]:
    """Per quasi-identifier, the suppressed rows by generalized value (node id)."""
    out = []
    for i in range(nodes.shape[1]):
        ids, inverse = np.unique(nodes[suppressed, i], return_inverse=True)
        rows = np.bincount(inverse.reshape(-1), weights=counts[suppressed], minlength=len(ids))
        out.append((ids.astype(np.int64), rows.astype(np.int64)))
    return tuple(out)
