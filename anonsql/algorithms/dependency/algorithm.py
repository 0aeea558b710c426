"""The dependency-preserving clustering algorithms as pipeline algorithms.

H. Gorla, "Dependency-Preserving Generalization for Data Publishing", MSc thesis, McMaster
University, 2019 (PAIR-ENUM, k-ASSEMBLE) and its baselines k-member (Byun et al., DASFAA 2007)
and Top-down (Xu et al., KDD 2006), implemented in this package.

Each algorithm here

1. fetches the distinct encoded records of the working table ``rows`` (one query: coded
   quasi-identifiers, sensitive codes of the FD attributes that are sensitive columns, and
   multiplicities; never values), with the spec's functional dependencies from the workspace;
2. clusters them in Python (they are per-record and quadratic: each has a size limit, refused
   with the key to raise);
3. makes the clustering a function of the quasi-identifier vector, which the record layout
   needs (the release joins the source to the recoding on the vector): clusters sharing a
   vector are merged (unions of clusters of ``k`` or more stay k-anonymous);
4. suppresses leftover records (fewer than ``k`` records the thesis's algorithms leave
   unclustered) within the spec's ``suppression_limit``; beyond it, each leftover vector joins
   the cluster whose NCP grows least;
5. writes each row's cluster back to ``rows`` and the ``parts`` table, so the recoding,
   publish, verification and metrics paths are shared with every other algorithm.

They enforce class sizes only: models with any other bound are refused in
:meth:`DependencyClustering.check_models` by the models' declarations.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pyarrow as pa
from pydantic import Field
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from anonsql import arrow
from anonsql.algorithms.base import Algorithm, O, Options, Partitioning, ProgressCallback
from anonsql.algorithms.dependency.encoding import EncodedRecords, Quasi, encode, kept_columns
from anonsql.algorithms.dependency.k_assemble import DEFAULT_MAX_RECORDS as K_ASSEMBLE_MAX_RECORDS
from anonsql.algorithms.dependency.k_assemble import k_assemble
from anonsql.algorithms.dependency.k_member import DEFAULT_MAX_RECORDS as K_MEMBER_MAX_RECORDS
from anonsql.algorithms.dependency.k_member import k_member
from anonsql.algorithms.dependency.pair_enum import DEFAULT_MAX_CELLS, pair_enum
from anonsql.algorithms.dependency.pair_enum import DEFAULT_MAX_RECORDS as PAIR_ENUM_MAX_RECORDS
from anonsql.algorithms.dependency.result import ClusteringResult
from anonsql.algorithms.dependency.top_down import DEFAULT_MAX_RECORDS as TOP_DOWN_MAX_RECORDS
from anonsql.algorithms.dependency.top_down import top_down
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.parts import parts_table
from anonsql.algorithms.workspace import Workspace
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.errors import SpecError
from anonsql.privacy.base import PrivacyModel, largest_k

#: The stats query's pid window, wide enough for every cluster.
_ALL_PARTITIONS = (0, 2**62)
#: The partition id of suppressed rows (clusters are numbered from 1).
SUPPRESSED_PID = 0


class DependencyClustering(Algorithm[O]):
    """Base of the clustering algorithms: subclasses implement :meth:`cluster`."""

    reference = "Gorla, Dependency-Preserving Generalization for Data Publishing, MSc, 2019"
    reads_dependencies = True

    @abstractmethod
    def cluster(self, records: EncodedRecords, k: int) -> ClusteringResult:
        """Cluster ``records`` into clusters of at least ``k`` (label -1: left over)."""

    def check_models(self, models: Sequence[PrivacyModel]) -> None:
        for position, model in enumerate(models):
            bounds = model.bounds()
            if not bounds or any(b.kind != "class_size" for b in bounds):
                raise SpecError(
                    f"privacy[{position}].{model.name}",
                    f"the {self.name} algorithm enforces class sizes (k_anonymity) only",
                    "use algorithm: mondrian for this model",
                )

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        ws = workspace
        e = ws.engine
        start = e.stats.statements
        k = largest_k(ws.models) or 1
        quasis = [Quasi(d.column, d.hierarchy) for d in ws.dimensions]
        fds = ws.functional_dependencies
        kept = kept_columns(quasis, fds)
        sensitive = {s.column: s.code for s in ws.sensitive}
        for i, fd in enumerate(fds):
            for column in fd.attributes:
                if column not in sensitive and column not in {q.column for q in quasis}:
                    raise SpecError(
                        f"functional_dependencies[{i}]",
                        f"column {column!r} is neither a quasi-identifier nor a sensitive "
                        f"column, and the {self.name} algorithm reads only those",
                        f"declare {column!r} as quasi_identifier or sensitive, or use "
                        "algorithm: mondrian",
                    )
        signatures = e.query_arrow(
            "dependency/work_records",
            rows=ws.work("rows"),
            qis=[d.code for d in ws.dimensions],
            kept=[(f"c{len(quasis) + j}", sensitive[c]) for j, c in enumerate(kept)],
            kept_columns=[sensitive[c] for c in kept],
        )
        records = encode(quasis, fds, signatures)
        progress(
            f"{self.name}: {records.size} records, {records.instances} dependency instances, "
            f"k = {k}"
        )
        result = self.cluster(records, k)
        vector_of, vectors = _vectors(records)
        pid = _vector_clusters(result.labels, vector_of, len(vectors))
        leftover_rows = int(np.bincount(vector_of, minlength=len(vectors))[pid < 0].sum())
        if leftover_rows > ws.suppression_budget:
            pid = _attach(records, vector_of, pid)
        suppressed_rows = int(np.bincount(vector_of, minlength=len(vectors))[pid < 0].sum())
        groups = ws.work("groups")
        group_table = vectors.append_column(
            "pid", arrow.array(np.where(pid < 0, SUPPRESSED_PID, pid + 1), pa.int64())
        )
        e.load_arrow(groups, group_table)
        e.run(
            "dependency/assign_work",
            target=ws.work("rows_next"),
            rows=ws.work("rows"),
            groups=groups,
            dims=ws.dimensions,
            payload=ws.payload,
        )
        stats = e.query_arrow(
            "mondrian/stats", work=ws.work("rows"), dims=ws.dimensions, window=_ALL_PARTITIONS
        )
        suppressed: BoolArray = arrow.to_numpy(stats.column("pid")) == SUPPRESSED_PID
        arrays = {d.index: HierarchyArrays(d.hierarchy) for d in ws.dimensions if d.hierarchy}
        e.load_arrow(ws.work("parts"), parts_table(stats, ws.dimensions, arrays, suppressed))
        clusters = int((~suppressed).sum())
        progress(f"{self.name}: {clusters} clusters, {suppressed_rows} rows suppressed")
        statements = e.stats.statements - start
        return Partitioning(
            partitions=clusters,
            suppressed_rows=suppressed_rows,
            suppressed_partitions=int(suppressed.sum()),
            rounds=1,
            statements=statements,
            statements_per_round=(statements,),
        )


def _vectors(records: EncodedRecords) -> tuple[IntArray, pa.Table]:
    """Each record's quasi-identifier vector id, and the vectors (columns ``q<i>`` as fetched)."""
    q = records.qi_count
    sig_codes = np.column_stack(
        [
            np.unique(arrow.to_numpy(records.signatures.column(f"c{a}")), return_inverse=True)[1]
            .reshape(-1)
            .astype(np.int64)
            for a in range(q)
        ]
    )
    _, first, sig_vector = np.unique(sig_codes, axis=0, return_index=True, return_inverse=True)
    sig_vector = np.asarray(sig_vector, np.int64).reshape(-1)
    vectors = arrow.table(
        {f"q{a}": records.signatures.column(f"c{a}").take(arrow.array(first)) for a in range(q)}
    )
    return sig_vector[records.signature], vectors


def _vector_clusters(labels: IntArray, vector_of: IntArray, vectors: int) -> IntArray:
    """Per vector its merged cluster (0..), -1 when all its records were left over: clusters
    sharing a vector are merged (connected components of the cluster-vector graph)."""
    clustered = labels >= 0
    clusters = int(labels.max()) + 1 if clustered.any() else 0
    nodes = clusters + vectors
    graph = coo_matrix(
        (
            np.ones(int(clustered.sum()), np.int8),
            (labels[clustered], clusters + vector_of[clustered]),
        ),
        shape=(nodes, nodes),
    )
    _, component = connected_components(graph, directed=False)
    has_cluster = np.zeros(vectors, bool)
    has_cluster[vector_of[clustered]] = True
    vector_component = component[clusters:]
    out = np.full(vectors, -1, np.int64)
    used = np.unique(vector_component[has_cluster])
    out[has_cluster] = np.searchsorted(used, vector_component[has_cluster])
    return out


def _widths(records: EncodedRecords, lo: IntArray, hi: IntArray) -> FloatArray:
    """NCP (per quasi-identifier, summed) of code ranges ``lo..hi`` (shape (..., q))."""
    total = np.zeros(lo.shape[:-1], np.float64)
    for a, attribute in enumerate(records.qi):
        if attribute.values is not None:
            span = float(attribute.values[-1] - attribute.values[0])
            if span > 0:
                total += (attribute.values[hi[..., a]] - attribute.values[lo[..., a]]) / span
        else:
            tree = attribute.tree
            assert tree is not None
            node = tree.lca(lo[..., a], hi[..., a])
            leaves = tree.last_leaf[node] - tree.first_leaf[node] + 1
            if tree.leaf_count > 1:
                total += np.where(leaves > 1, leaves / tree.leaf_count, 0.0)
    return total


def _attach(records: EncodedRecords, vector_of: IntArray, pid: IntArray) -> IntArray:
    """Every left-over vector joins the cluster whose NCP x size grows least (in vector order)."""
    q = records.qi_count
    codes = records.codes[:, :q]
    clusters = int(pid.max()) + 1
    if clusters == 0:
        raise SpecError(
            "privacy",
            f"no cluster of k records could be formed from {records.size} records",
            "lower k, or anonymize more rows",
        )
    record_pid = pid[vector_of]
    lo = np.full((clusters, q), np.iinfo(np.int64).max, np.int64)
    hi = np.full((clusters, q), -1, np.int64)
    inside = record_pid >= 0
    np.minimum.at(lo, record_pid[inside], codes[inside])
    np.maximum.at(hi, record_pid[inside], codes[inside])
    sizes = np.bincount(record_pid[inside], minlength=clusters).astype(np.float64)
    out = pid.copy()
    for v in np.flatnonzero(pid < 0):
        members = codes[vector_of == v]
        n = len(members)
        new_lo = np.minimum(lo, members.min(axis=0))
        new_hi = np.maximum(hi, members.max(axis=0))
        growth = (sizes + n) * _widths(records, new_lo, new_hi) - sizes * _widths(records, lo, hi)
        best = int(np.argmin(growth))
        out[v] = best
        lo[best], hi[best] = new_lo[best], new_hi[best]
        sizes[best] += n
    return out


class PairEnumOptions(Options):
    """PAIR-ENUM's options (Gorla 2019, Alg. 1): ``neighbours`` is Opt-1's q (None: every
    pair); ``ties`` breaks equal-utility merges (``first``: the thesis's pair order;
    ``closest``: the closest clusters, anonsql's extension); ``exact_distance`` uses the
    thesis's distance without the tabulated shortcut; limits refuse larger inputs."""

    neighbours: int | None = Field(default=5, ge=1)
    ties: Literal["first", "closest"] = "first"
    exact_distance: bool = False
    max_records: int = Field(default=PAIR_ENUM_MAX_RECORDS, ge=1)
    max_cells: int = Field(default=DEFAULT_MAX_CELLS, ge=1)


class PairEnum(DependencyClustering[PairEnumOptions]):
    """PAIR-ENUM (Gorla 2019, Ch. 4.2): merge the pair of clusters of highest dependency
    utility until clusters of ``k`` seal."""

    name = "pair_enum"

    def cluster(self, records: EncodedRecords, k: int) -> ClusteringResult:
        o = self.options
        return pair_enum(
            records,
            k,
            neighbours=o.neighbours,
            ties=o.ties,
            exact_distance=o.exact_distance,
            max_records=o.max_records,
            max_cells=o.max_cells,
        )


class KAssembleOptions(Options):
    """k-ASSEMBLE's options (Gorla 2019, Alg. 2): ``pool`` is the thesis's m (seeds per
    round), ``index_size`` its M (Opt-2, > 2k; None: no index), ``seed`` draws the seeds."""

    pool: int = Field(default=3, ge=1)
    index_size: int | None = Field(default=None, ge=1)
    seed: int = 0
    exact_distance: bool = False
    max_records: int = Field(default=K_ASSEMBLE_MAX_RECORDS, ge=1)


class KAssemble(DependencyClustering[KAssembleOptions]):
    """k-ASSEMBLE (Gorla 2019, Ch. 4.3): grow clusters of ``k`` around seeds by dependency
    utility, keeping the best of ``pool`` seeds each round."""

    name = "k_assemble"

    def cluster(self, records: EncodedRecords, k: int) -> ClusteringResult:
        o = self.options
        return k_assemble(
            records,
            k,
            pool=o.pool,
            seed=o.seed,
            index_size=o.index_size,
            exact_distance=o.exact_distance,
            max_records=o.max_records,
        )


class KMemberOptions(Options):
    """k-member's options: ``seed`` picks the first record."""

    seed: int = 0
    max_records: int = Field(default=K_MEMBER_MAX_RECORDS, ge=1)


class KMember(DependencyClustering[KMemberOptions]):
    """k-member (Byun, Kamra, Bertino, Li, DASFAA 2007), the thesis's baseline: greedy
    clusters of ``k`` around the farthest record, leftovers to the cheapest cluster."""

    name = "k_member"
    reference = "Byun, Kamra, Bertino, Li, Efficient k-Anonymization Using Clustering, 2007"

    def cluster(self, records: EncodedRecords, k: int) -> ClusteringResult:
        o = self.options
        return k_member(records, k, seed=o.seed, max_records=o.max_records)


class TopDownOptions(Options):
    """Top-down's options: ``seed`` and ``rounds`` of the seed search per split."""

    seed: int = 0
    rounds: int = Field(default=3, ge=1)
    max_records: int = Field(default=TOP_DOWN_MAX_RECORDS, ge=1)


class TopDown(DependencyClustering[TopDownOptions]):
    """Top-down greedy partitioning (Xu, Wang, Pei, Wang, Shi, Fu, KDD 2006), the thesis's
    baseline: split groups around two far records until they hold ``k .. 2k - 1``."""

    name = "top_down"
    reference = "Xu et al., Utility-Based Anonymization Using Local Recoding, KDD 2006"

    def cluster(self, records: EncodedRecords, k: int) -> ClusteringResult:
        o = self.options
        return top_down(records, k, seed=o.seed, rounds=o.rounds, max_records=o.max_records)
