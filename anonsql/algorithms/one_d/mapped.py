"""Anonymization over a 1D mapping of the quasi-identifier space (Ghinita, Karras, Kalnis,
Mamoulis, "Fast Data Anonymization with Low Information Loss", VLDB 2007; digest 001 §5-8).

A subclass maps every distinct quasi-identifier vector to a 1D key **in the engine** (Hilbert
curve, iDistance); this base class then

1. orders the vectors by key in the engine (``ordered``: pos, vid, n, codes),
2. for k-anonymity alone, streams the ordered vectors (row count and codes, one batch at a time)
   through the optimal 1D dynamic program (:mod:`anonsql.algorithms.one_d`), whose cost is the
   NCP of a group's extent in the original space, and writes back only the groups' first
   positions; the engine turns them into a group per vector with a running count,
3. for l-diversity (frequency, the paper's; distinct; entropy), reads (vector, sensitive value,
   rows) items in key order and runs the linear heuristic
   (:mod:`anonsql.algorithms.one_d.l_diversity`) over whole vectors, with k as an extra
   closing condition; the group of each vector is written back,
4. assigns each row its vector's group and leaves the same ``parts`` table as Mondrian, so the
   recoding, publish, verification and metrics paths are shared.

Rows with equal quasi-identifier vectors always share a group, so the published
generalization is a function of the vector (the view joins the source to the recoding on the
quasi-identifiers). Groups whose generalized tuples coincide publish as one class; that
only helps, since unions of k-anonymous (frequency l-diverse) groups stay so.

Python holds per-vector data at most: a batch of vectors at a time and one small integer per
vector for k-anonymity; for l-diversity the per-(vector, value) items with their counts
(about 24 bytes each).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.base import Algorithm, O, Partitioning, ProgressCallback
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.one_d.l_diversity import Diversity, NotEligible, l_diverse_groups
from anonsql.algorithms.one_d.optimal import OptimalPartitioner
from anonsql.algorithms.parts import parts_table
from anonsql.algorithms.workspace import Workspace
from anonsql.errors import InfeasibleError, SpecError
from anonsql.privacy.base import Bound, PrivacyModel, largest_k
from anonsql.sql import TableName

#: The stats query's pid window, wide enough for every group.
_ALL_PARTITIONS = (0, 2**62)
#: Vectors per batch streamed from the engine.
BATCH_ROWS = 1 << 16
#: The bounds the 1D algorithms enforce: class sizes (the optimal dynamic program), frequency,
#: distinct and entropy l-diversity of one column (the linear heuristic).
DIVERSITY_BOUNDS = frozenset({"value_share", "distinct_values", "entropy"})
ENFORCED_BOUNDS = DIVERSITY_BOUNDS | {"class_size"}


def _diversity_bounds(models: Sequence[PrivacyModel]) -> list[Bound]:
    return [b for m in models for b in m.bounds() if b.kind in DIVERSITY_BOUNDS]


class Mapped1D(Algorithm[O]):
    """Base of the 1D-mapping algorithms: subclasses implement :meth:`map_keys`."""

    #: The column of the keys table holding the 1D key.
    key_column: str = "key"

    @abstractmethod
    def map_keys(self, workspace: Workspace, progress: ProgressCallback) -> None:
        """Create ``workspace.work("vectors")`` (see ``mapping/vectors``) and
        ``workspace.work("keys")`` (``vid`` and :attr:`key_column`) in the engine."""

    def check_models(self, models: Sequence[PrivacyModel]) -> None:
        for position, model in enumerate(models):
            bounds = model.bounds()
            if not bounds or any(b.kind not in ENFORCED_BOUNDS for b in bounds):
                raise SpecError(
                    f"privacy[{position}].{model.name}",
                    f"the {self.name} algorithm enforces k_anonymity, frequency_l_diversity, "
                    "distinct_l_diversity and entropy_l_diversity (class sizes, value shares, "
                    "distinct values, entropy)",
                    "use algorithm: mondrian for this model",
                )
        columns = {b.column for b in _diversity_bounds(models)}
        if len(columns) > 1:
            raise SpecError(
                "privacy",
                f"the {self.name} algorithm diversifies one sensitive column, got {len(columns)}",
                "declare l-diversity on one column, or use algorithm: mondrian",
            )

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        job = workspace
        e = job.engine
        start = e.stats.statements
        dims = job.dimensions
        self.map_keys(job, progress)
        ordered = job.work("ordered")
        e.run(
            "mapping/ordered",
            target=ordered,
            vectors=job.work("vectors"),
            keys=job.work("keys"),
            key_column=self.key_column,
            dims=dims,
        )
        arrays = {d.index: HierarchyArrays(d.hierarchy) for d in dims if d.hierarchy}
        k = largest_k(job.models) or 1
        diverse = _diversity_bounds(job.models)
        groups = job.work("groups")
        if diverse:
            self._l_diverse_groups(job, ordered, groups, diverse, k, progress)
        else:
            self._k_anonymous_groups(job, ordered, groups, arrays, k, progress)
        e.run(
            "mapping/assign",
            target=job.work("rows_next"),
            rows=job.work("rows"),
            vectors=job.work("vectors"),
            groups=groups,
            dims=dims,
            payload=job.payload,
        )
        stats = e.query_arrow(
            "mondrian/stats", work=job.work("rows"), dims=dims, window=_ALL_PARTITIONS
        )
        suppressed = np.zeros(stats.num_rows, dtype=bool)
        e.load_arrow(job.work("parts"), parts_table(stats, dims, arrays, suppressed))
        progress(f"{self.name}: {stats.num_rows} groups")
        return Partitioning(
            partitions=stats.num_rows,
            suppressed_rows=0,
            suppressed_partitions=0,
            rounds=1,
            statements=e.stats.statements - start,
            statements_per_round=(e.stats.statements - start,),
        )

    def _k_anonymous_groups(
        self,
        job: Workspace,
        ordered: TableName,
        groups: TableName,
        arrays: dict[int, HierarchyArrays],
        k: int,
        progress: ProgressCallback,
    ) -> None:
        e = job.engine
        numeric = [d for d in job.dimensions if d.is_numeric]
        categorical = [d for d in job.dimensions if not d.is_numeric]
        dp = OptimalPartitioner(
            [d.span for d in numeric], [arrays[d.index] for d in categorical], k
        )
        for batch in e.query_batches(
            "mapping/stream_vectors", BATCH_ROWS, ordered=ordered, dims=job.dimensions
        ):
            dp.feed(
                arrow.to_numpy(batch.column("n")).astype(np.int64),
                _matrix(batch, [d.code for d in numeric], np.float64),
                _matrix(batch, [d.code for d in categorical], np.int64),
            )
            progress(f"{self.name}: {dp.items} vectors ({dp.rows} rows) partitioned")
        starts, _ = dp.finish()
        starts_table = job.work("starts")
        e.load_arrow(starts_table, arrow.table({"pos": arrow.array(starts, pa.int64())}))
        e.run("mapping/groups_from_starts", target=groups, ordered=ordered, starts=starts_table)

    def _l_diverse_groups(
        self,
        job: Workspace,
        ordered: TableName,
        groups: TableName,
        bounds: list[Bound],
        k: int,
        progress: ProgressCallback,
    ) -> None:
        e = job.engine
        column = bounds[0].column
        assert column is not None
        need = Diversity(
            k=k,
            frequency_l=max((int(b.value) for b in bounds if b.kind == "value_share"), default=1),
            distinct_l=max(
                (int(b.value) for b in bounds if b.kind == "distinct_values"), default=1
            ),
            entropy_l=max((b.value for b in bounds if b.kind == "entropy"), default=1.0),
        )
        ell = max(b.value for b in bounds)
        items = e.query_arrow(
            "mapping/stream_items",
            ordered=ordered,
            rows=job.work("rows"),
            sensitive=job.sensitive_by_column(column).code,
            dims=job.dimensions,
        )
        position = arrow.to_numpy(items.column("pos")).astype(np.int64)
        counts = arrow.to_numpy(items.column("n")).astype(np.int64)
        progress(f"{self.name}: {items.num_rows} (vector, value) items, l = {ell}")
        try:
            group = l_diverse_groups(
                position, arrow.to_numpy(items.column("value")).astype(np.int64), counts, need
            )
        except NotEligible as err:
            fix = f"lower l to at most {err.largest_l}" if err.largest_l else "lower l or k"
            raise InfeasibleError(f"privacy: {column!r}: {err}. Fix: {fix}") from None
        vid = np.zeros(len(group), np.int64)
        vid[position] = arrow.to_numpy(items.column("vid")).astype(np.int64)
        e.load_arrow(
            groups,
            arrow.table(
                {"vid": arrow.array(vid, pa.int64()), "pid": arrow.array(group + 1, pa.int64())}
            ),
        )


def _matrix(batch: pa.RecordBatch, columns: list[str], dtype: type) -> npt.NDArray[Any]:
    if not columns:
        return np.zeros((batch.num_rows, 0), dtype)
    return np.column_stack([arrow.to_numpy(batch.column(c)).astype(dtype) for c in columns])
