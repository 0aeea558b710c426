"""Fast 1D anonymization over iDistance keys (Ghinita, Karras, Kalnis, Mamoulis, "Fast Data
Anonymization with Low Information Loss", VLDB 2007, after Jagadish, Ooi, Tan, Yu, Zhang,
"iDistance: An Adaptive B+-tree Based Indexing Method for Nearest Neighbor Search", TODS 2005;
digest 001 §5.3).

Distinct quasi-identifier vectors live in the unit cube (numeric values scaled over their
range, categorical leaf ranks over the hierarchy's leaves: an approximation, since leaf-rank
distance only follows the hierarchy's order). ``M`` reference points are chosen by Lloyd's
k-means, weighted by rows, from a farthest-first start (the first vector in quasi-identifier
order, then repeatedly the vector farthest from the chosen ones); each iteration is one
aggregate query, and Python only moves the centres. A vector's key is
``i * C + dist(v, O_i)`` for its nearest reference point ``O_i`` (ties to the lower ``i``),
with ``C = sqrt(d) + 1`` above every distance in the cube, computed in the engine.

``M`` defaults to 16, at most ``rows / (2k)`` (at least 1); an explicit
``reference_points`` is used as given (capped by the number of distinct vectors). A centre
left without vectors keeps its place. Expect more loss than the Hilbert curve: a key run
follows a distance ring around its reference point (digest §4.7).
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
from pydantic import Field

from anonsql import arrow
from anonsql.algorithms.base import Options, ProgressCallback
from anonsql.algorithms.one_d.mapped import Mapped1D
from anonsql.algorithms.workspace import Workspace
from anonsql.arrays import FloatArray
from anonsql.privacy.base import largest_k
from anonsql.sql import TableName


class IDistanceOptions(Options):
    #: Number of reference points (default: 16, at most rows / (2k)).
    reference_points: int | None = Field(default=None, ge=1)
    #: Lloyd iterations at most (they stop earlier once the centres stand still).
    iterations: int = Field(default=50, ge=0)


class IDistance1D(Mapped1D[IDistanceOptions]):
    """iDistance mapping + optimal 1D k-anonymity / linear l-diversity heuristic."""

    name = "idistance"
    reference = (
        "G. Ghinita, P. Karras, P. Kalnis, N. Mamoulis, Fast Data Anonymization with Low "
        "Information Loss, VLDB 2007; iDistance: H. V. Jagadish et al., TODS 2005"
    )
    key_column = "idistance_key"

    def map_keys(self, workspace: Workspace, progress: ProgressCallback) -> None:
        e = workspace.engine
        dims = workspace.dimensions
        vectors = workspace.work("vectors")
        e.run("mapping/vectors", target=vectors, rows=workspace.work("rows"), dims=dims, bits=None)
        distinct = e.count_rows(vectors)
        k = largest_k(workspace.models) or 1
        wanted = self.options.reference_points or min(16, max(1, workspace.rows // (2 * k)))
        m = max(1, min(wanted, distinct))
        centers = self._farthest_first(workspace, vectors, m)
        moves = 0
        while moves < self.options.iterations:
            moves += 1
            table = self._load_centers(workspace, centers)
            sums = e.query_arrow("idistance/lloyd_step", vectors=vectors, centers=table, dims=dims)
            e.drop(table)
            moved = centers.copy()
            refs = arrow.to_numpy(sums.column("ref")).astype(np.int64)
            n = arrow.to_numpy(sums.column("n")).astype(np.float64)
            for i, d in enumerate(dims):
                moved[refs, i] = arrow.to_numpy(sums.column(f"s{d.index}")).astype(np.float64) / n
            if np.allclose(moved, centers, rtol=0.0, atol=1e-12):
                break
            centers = moved
        table = self._load_centers(workspace, centers)
        e.run(
            "idistance/keys",
            target=workspace.work("keys"),
            vectors=vectors,
            centers=table,
            dims=dims,
            spacing=math.sqrt(len(dims)) + 1.0,
        )
        progress(f"idistance: {m} reference points after {moves} Lloyd iterations")

    def _farthest_first(self, workspace: Workspace, vectors: TableName, m: int) -> FloatArray:
        e = workspace.engine
        dims = workspace.dimensions
        first = e.query("idistance/first", vectors=vectors, dims=dims)[0]
        centers = np.array([[float(x) for x in first[1:]]], np.float64)
        while len(centers) < m:
            table = self._load_centers(workspace, centers)
            far = e.query("idistance/farthest", vectors=vectors, centers=table, dims=dims)[0]
            e.drop(table)
            centers = np.vstack([centers, [float(x) for x in far[1:]]])
        return centers

    def _load_centers(self, workspace: Workspace, centers: FloatArray) -> TableName:
        table = workspace.work("centers")
        columns: dict[str, pa.Array] = {"ref": arrow.array(np.arange(len(centers)), pa.int64())}
        for i, d in enumerate(workspace.dimensions):
            columns[f"c{d.index}"] = arrow.array(centers[:, i], pa.float64())
        workspace.engine.load_arrow(table, arrow.table(columns))
        return table
