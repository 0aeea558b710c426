"""Fast 1D anonymization over the Hilbert curve (Ghinita, Karras, Kalnis, Mamoulis, "Fast Data
Anonymization with Low Information Loss", VLDB 2007; digest 001 §5.2).

Each distinct quasi-identifier vector is placed on a ``2^p`` grid per axis (numeric values scaled
linearly over their range, categorical values by depth-first leaf rank, so siblings are
neighbours; ``p`` is the bits the attribute with the most distinct values needs, capped so that
the key fits a BIGINT) and keyed by its Hilbert index, computed in the engine by generated SQL
(:mod:`anonsql.algorithms.one_d.hilbert_curve`). Ordering, partitioning and publishing are
shared with the other 1D mappings (:mod:`anonsql.algorithms.one_d.mapped`).
"""

from __future__ import annotations

import math

from anonsql.algorithms.base import ProgressCallback
from anonsql.algorithms.one_d.hilbert_curve import MAX_KEY_BITS, hilbert_key_sql
from anonsql.algorithms.one_d.mapped import Mapped1D
from anonsql.algorithms.workspace import Workspace


class Hilbert1D(Mapped1D):
    """Hilbert-curve mapping + optimal 1D k-anonymity / linear l-diversity heuristic."""

    name = "hilbert"
    reference = (
        "G. Ghinita, P. Karras, P. Kalnis, N. Mamoulis, Fast Data Anonymization with Low "
        "Information Loss, VLDB 2007"
    )
    key_column = "hilbert_key"

    def map_keys(self, workspace: Workspace, progress: ProgressCallback) -> None:
        e = workspace.engine
        dims = workspace.dimensions
        rows, vectors = workspace.work("rows"), workspace.work("vectors")
        distinct = e.query("hilbert/distinct_counts", rows=rows, dims=dims)[0]
        bits = max(1, max(math.ceil(math.log2(max(int(c), 1))) for c in distinct))
        bits = min(bits, MAX_KEY_BITS // len(dims))
        e.run("mapping/vectors", target=vectors, rows=rows, dims=dims, bits=bits)
        e.execute(
            hilbert_key_sql(
                e.sql,
                vectors,
                "vid",
                [f"g{d.index}" for d in dims],
                bits,
                target=workspace.work("keys"),
            )
        )
        progress(f"hilbert: keys on a {bits}-bit grid")
