"""Fast 1D anonymization: Hilbert-curve order plus the optimal 1D partition.

G. Ghinita, P. Karras, P. Kalnis, N. Mamoulis, "Fast Data Anonymization with Low Information
Loss", VLDB 2007. Quasi-identifier vectors are mapped to a Hilbert-curve key on a ``2^p`` grid
(numeric values scaled over their range, categorical values by depth-first leaf rank; ``p`` is
the bits the attribute with the most distinct values needs), sorted by key in the engine, and
cut by the dynamic program of :mod:`anonsql.algorithms.one_d` into groups of at least ``k``
rows that minimize the size-weighted NCP in the original space.

Python receives one row per distinct QID vector (its codes and row count), not per row; rows
with equal vectors share a group, so the recoding stays a function of the vector. This
algorithm supports k-anonymity; l-diversity (the paper's linear heuristic) is not built yet.
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa

from anonsql.algorithms.base import Algorithm, PartitionSummary, ProgressCallback
from anonsql.algorithms.hilbert import MAX_KEY_BITS, hilbert_key_sql
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.one_d import optimal_groups
from anonsql.algorithms.parts import parts_table
from anonsql.errors import SpecError
from anonsql.pipeline.job import Job
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.k_anonymity import KAnonymity

#: The stats query's pid window, wide enough for every group.
_ALL_PARTITIONS = (0, 2**62)


class Hilbert1D(Algorithm):
    """Hilbert-curve mapping + optimal 1D k-anonymity (Ghinita et al., VLDB 2007)."""

    name = "hilbert"
    reference = (
        "G. Ghinita, P. Karras, P. Kalnis, N. Mamoulis, Fast Data Anonymization with Low "
        "Information Loss, VLDB 2007"
    )

    def check_models(self, models: list[PrivacyModel]) -> None:
        for position, model in enumerate(models):
            if not isinstance(model, KAnonymity):
                raise SpecError(
                    f"privacy[{position}].{model.name}",
                    "the hilbert algorithm supports k_anonymity only so far",
                    "use algorithm: mondrian for this model",
                )

    def partition(self, job: Job, progress: ProgressCallback) -> PartitionSummary:
        self.check_models(job.models)
        e = job.engine
        start = e.stats.statements
        k = max(m.k for m in job.models if isinstance(m, KAnonymity))
        dims = job.dimensions
        rows, vectors, keys, groups = (job.work(n) for n in ("rows", "vectors", "keys", "groups"))
        distinct = e.query("hilbert/distinct_counts", rows=rows, dims=dims)[0]
        bits = max(1, max(math.ceil(math.log2(max(int(c), 1))) for c in distinct))
        bits = min(bits, MAX_KEY_BITS // len(dims))
        e.run("hilbert/vectors", target=vectors, rows=rows, dims=dims, bits=bits)
        e.execute(
            hilbert_key_sql(e.sql, vectors, "vid", [f"g{d.index}" for d in dims], bits, target=keys)
        )
        ordered = e.query_arrow("hilbert/ordered_vectors", vectors=vectors, keys=keys, dims=dims)
        progress(f"hilbert: {ordered.num_rows} distinct QID vectors on a {bits}-bit grid")
        numeric = [d for d in dims if d.is_numeric]
        categorical = [d for d in dims if not d.is_numeric]
        arrays = {d.index: HierarchyArrays(d.hierarchy) for d in categorical if d.hierarchy}
        group_of, _ = optimal_groups(
            ordered.column("n").to_numpy().astype(np.int64),
            np.column_stack([ordered.column(d.code).to_numpy().astype(np.float64) for d in numeric])
            if numeric
            else np.zeros((ordered.num_rows, 0)),
            [d.span for d in numeric],
            np.column_stack(
                [ordered.column(d.code).to_numpy().astype(np.int64) for d in categorical]
            )
            if categorical
            else np.zeros((ordered.num_rows, 0), np.int64),
            [arrays[d.index] for d in categorical],
            k,
        )
        e.load_arrow(
            groups,
            pa.table(
                {
                    "vid": pa.array(ordered.column("vid").to_numpy().astype(np.int64), pa.int64()),
                    "pid": pa.array(group_of + 1, pa.int64()),
                }
            ),
        )
        payload = [d.code for d in dims] + [s.code for s in job.sensitive]
        e.run(
            "hilbert/assign",
            target=job.work("rows_next"),
            rows=rows,
            vectors=vectors,
            groups=groups,
            dims=dims,
            payload=payload,
        )
        stats = e.query_arrow("mondrian/stats", work=rows, dims=dims, window=_ALL_PARTITIONS)
        suppressed = np.zeros(stats.num_rows, dtype=bool)
        e.load_arrow(job.work("parts"), parts_table(stats, dims, arrays, suppressed))
        progress(f"hilbert: {stats.num_rows} groups of at least {k} rows")
        return PartitionSummary(
            partitions=stats.num_rows,
            suppressed_rows=0,
            suppressed_partitions=0,
            rounds=1,
            statements=e.stats.statements - start,
            statements_per_round=[e.stats.statements - start],
        )
