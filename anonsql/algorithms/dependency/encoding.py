"""Compact, encoded per-record data for the dependency-preserving clustering algorithms.

The clustering algorithms of Gorla (MSc thesis, McMaster, 2019) and their baselines are
per-record and quadratic, so they run in Python over a compact encoding fetched once from the
engine: every attribute they read becomes an integer *code* per record.

* a categorical quasi-identifier: the value's leaf rank in its hierarchy (depth-first order, so
  every hierarchy node covers a contiguous range of ranks);
* a numeric quasi-identifier: the rank of the value among the attribute's distinct values
  (``values`` maps a rank back to the value), so a generalized value ``[lo, hi]`` is a range of
  ranks, like a hierarchy node;
* a *kept* attribute (an FD attribute that is not a quasi-identifier, e.g. a sensitive one, which
  the thesis publishes unchanged): a dense rank of its values, NULL one value of its own.

The engine returns one row per distinct encoded record with its multiplicity (``n``); records
are expanded in that order, so record ``i`` is occurrence ``ordinal[i]`` of signature
``signature[i]``. :mod:`anonsql.algorithms.dependency.release` maps decisions back to rows that way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.arrays import FloatArray, IntArray
from anonsql.engines.base import Engine
from anonsql.errors import SpecError
from anonsql.hierarchies.model import Hierarchy
from anonsql.spec.dependencies import FunctionalDependency, instance_groups
from anonsql.sql import Relation, TableName

Kind = Literal["categorical", "numeric", "kept"]


@dataclass(frozen=True, eq=False)
class HierarchyTree:
    """A hierarchy as arrays: per node its parent, leaf-rank range, depth and leaf count, and
    per leaf rank its ancestors by depth (``ancestors[r, d]``; the leaf itself below its depth),
    so lowest common ancestors of many ranges are found without Python loops."""

    parent: IntArray
    first_leaf: IntArray
    last_leaf: IntArray
    depth: IntArray
    leaf_node: IntArray
    ancestors: IntArray
    height: int

    @classmethod
    def from_hierarchy(cls, hierarchy: Hierarchy) -> HierarchyTree:
        nodes = hierarchy.nodes
        parent = np.array([-1 if n.parent is None else n.parent for n in nodes], np.int64)
        depth = np.array([n.depth for n in nodes], np.int64)
        leaf_node = np.array(
            [hierarchy.leaf_node(r).id for r in range(hierarchy.leaf_count)], np.int64
        )
        height = int(depth.max())
        ancestors = np.empty((len(leaf_node), height + 1), np.int64)
        node = leaf_node.copy()
        for d in range(height, -1, -1):
            ancestors[:, d] = node
            up = depth[node] >= d
            node = np.where(up & (parent[node] >= 0), parent[node], node)
        return cls(
            parent=parent,
            first_leaf=np.array([n.first_leaf for n in nodes], np.int64),
            last_leaf=np.array([n.last_leaf for n in nodes], np.int64),
            depth=depth,
            leaf_node=leaf_node,
            ancestors=ancestors,
            height=height,
        )

    @property
    def leaf_count(self) -> int:
        return int(self.leaf_node.shape[0])

    def lca(self, lo: IntArray, hi: IntArray) -> IntArray:
        """Node ids of the lowest common ancestors of leaf-rank ranges ``lo..hi``."""
        lo = np.asarray(lo, np.int64)
        hi = np.asarray(hi, np.int64)
        a = self.ancestors[lo]
        b = self.ancestors[hi]
        shared = (a == b).sum(axis=-1)
        return np.take_along_axis(a, (shared - 1)[..., None], axis=-1)[..., 0]

    def node_range(self, lo: IntArray, hi: IntArray) -> tuple[IntArray, IntArray, IntArray]:
        """(node, first leaf, last leaf) of the lowest common ancestors of ``lo..hi``."""
        node = self.lca(lo, hi)
        return node, self.first_leaf[node], self.last_leaf[node]


@dataclass(frozen=True, eq=False)
class EncodedAttribute:
    """One encoded column; ``counts[c]`` is the number of records with code ``c``."""

    name: str
    kind: Kind
    counts: IntArray
    #: numeric: the distinct values in rank order
    values: FloatArray | None = None
    #: categorical: the hierarchy
    hierarchy: Hierarchy | None = None
    tree: HierarchyTree | None = None

    @property
    def is_qi(self) -> bool:
        return self.kind != "kept"

    @property
    def domain(self) -> int:
        return int(self.counts.shape[0])


@dataclass(frozen=True, eq=False)
class InstanceGroup:
    """Dependency instances of the FDs sharing one attribute set ``X ∪ Y`` (Gorla, Ch. 3.1.1):
    ``codes[p, j]`` is instance ``p``'s code on attribute ``attributes[j]`` (an index into
    :attr:`EncodedRecords.attributes`)."""

    fds: tuple[int, ...]
    attributes: tuple[int, ...]
    codes: IntArray

    @property
    def size(self) -> int:
        return int(self.codes.shape[0])


@dataclass(frozen=True, eq=False)
class EncodedRecords:
    """The records the clustering algorithms read (see the module docstring).

    ``codes[i, a]`` is record ``i``'s code on attribute ``a``; the quasi-identifiers come first
    (``qi_count`` of them), then the kept FD attributes.
    """

    attributes: tuple[EncodedAttribute, ...]
    qi_count: int
    codes: IntArray
    fds: tuple[FunctionalDependency, ...]
    groups: tuple[InstanceGroup, ...]
    signature: IntArray
    ordinal: IntArray
    #: One row per signature: its codes (columns ``c<a>``) and multiplicity ``n``; numeric
    #: quasi-identifiers carry their value (``c<a>`` is then a double), as fetched.
    signatures: pa.Table = field(repr=False)

    @property
    def size(self) -> int:
        return int(self.codes.shape[0])

    @property
    def qi(self) -> tuple[EncodedAttribute, ...]:
        return self.attributes[: self.qi_count]

    @property
    def instances(self) -> int:
        """|Γ|."""
        return sum(g.size for g in self.groups)


@dataclass(frozen=True)
class Quasi:
    """A quasi-identifier to encode: categorical with a hierarchy, numeric without one."""

    column: str
    hierarchy: Hierarchy | None = None


def _qi_attribute(q: Quasi, raw: FloatArray | IntArray) -> tuple[EncodedAttribute, IntArray]:
    if q.hierarchy is None:
        values, codes = np.unique(np.asarray(raw, np.float64), return_inverse=True)
        codes = codes.astype(np.int64).reshape(-1)
        counts = np.bincount(codes, minlength=len(values)).astype(np.int64)
        return EncodedAttribute(q.column, "numeric", counts, values=values), codes
    codes = np.asarray(raw, np.int64)
    counts = np.bincount(codes, minlength=q.hierarchy.leaf_count).astype(np.int64)
    tree = HierarchyTree.from_hierarchy(q.hierarchy)
    attribute = EncodedAttribute(q.column, "categorical", counts, hierarchy=q.hierarchy, tree=tree)
    return attribute, codes


def kept_columns(qis: Sequence[Quasi], fds: Sequence[FunctionalDependency]) -> list[str]:
    """FD attributes that are not quasi-identifiers, in order of first appearance."""
    names = {q.column for q in qis}
    kept: list[str] = []
    for fd in fds:
        kept.extend(c for c in fd.attributes if c not in names and c not in kept)
    return kept


def encode(
    qis: Sequence[Quasi],
    fds: Sequence[FunctionalDependency],
    signatures: pa.Table,
) -> EncodedRecords:
    """Encode signatures (columns ``c0..``: one per quasi-identifier, leaf rank or numeric
    value, then one per kept FD attribute, a dense code; and ``n``) into records."""
    kept = kept_columns(qis, fds)
    counts = np.asarray(arrow.to_numpy(signatures.column("n")), np.int64)
    sig = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    ordinal = np.arange(len(sig), dtype=np.int64) - starts
    attributes: list[EncodedAttribute] = []
    columns: list[IntArray] = []
    for a, q in enumerate(qis):
        raw = arrow.to_numpy(signatures.column(f"c{a}"))[sig]
        attribute, codes = _qi_attribute(q, raw)
        attributes.append(attribute)
        columns.append(codes)
    for j, name in enumerate(kept):
        codes = np.asarray(arrow.to_numpy(signatures.column(f"c{len(qis) + j}")), np.int64)[sig]
        attributes.append(EncodedAttribute(name, "kept", np.bincount(codes).astype(np.int64)))
        columns.append(codes)
    matrix = np.stack(columns, axis=1) if columns else np.zeros((len(sig), 0), dtype=np.int64)
    index = {a.name: i for i, a in enumerate(attributes)}
    groups = []
    for members in instance_groups(fds):
        attrs = tuple(index[c] for c in fds[members[0]].attributes)
        inst = (
            np.unique(matrix[:, list(attrs)], axis=0)
            if len(matrix)
            else np.zeros((0, len(attrs)), np.int64)
        )
        groups.append(InstanceGroup(tuple(members), attrs, inst.astype(np.int64)))
    return EncodedRecords(
        attributes=tuple(attributes),
        qi_count=len(qis),
        codes=matrix,
        fds=tuple(fds),
        groups=tuple(groups),
        signature=sig,
        ordinal=ordinal,
        signatures=signatures,
    )


def encode_table(
    data: pa.Table, qis: Sequence[Quasi], fds: Sequence[FunctionalDependency]
) -> EncodedRecords:
    """Encode an in-memory Arrow table the way :func:`fetch_records` encodes a relation (for
    fixtures and generated data; values outside a hierarchy raise :class:`SpecError`)."""
    kept = kept_columns(qis, fds)
    cols: dict[str, np.ndarray] = {}  # type: ignore[type-arg, unused-ignore]
    for a, q in enumerate(qis):
        column = data.column(q.column).to_pylist()
        if any(v is None for v in column):
            raise SpecError(q.column, "the column holds NULL", "fill or drop NULL rows first")
        if q.hierarchy is None:
            cols[f"c{a}"] = np.asarray(column, np.float64)
        else:
            rank = q.hierarchy.leaf_rank
            missing = sum(1 for v in column if str(v) not in rank)
            if missing:
                raise SpecError(
                    q.column,
                    f"{missing} rows hold values that are not leaves of its hierarchy",
                    "extend the hierarchy to cover every value",
                )
            cols[f"c{a}"] = np.array([rank[str(v)] for v in column], np.int64)
    for j, name in enumerate(kept):
        column = data.column(name).to_pylist()
        order = sorted({v for v in column if v is not None})
        code = {v: i for i, v in enumerate(order)}
        cols[f"c{len(qis) + j}"] = np.array(
            [len(order) if v is None else code[v] for v in column], np.int64
        )
    names = list(cols)
    if data.num_rows == 0:
        raise SpecError("source", "the relation has no rows", "anonymize a non-empty relation")
    stacked = np.stack([cols[c] for c in names], axis=1)
    unique, counts = np.unique(stacked, axis=0, return_counts=True)
    table = arrow.table(
        {
            **{c: arrow.array(unique[:, i].astype(cols[c].dtype)) for i, c in enumerate(names)},
            "n": arrow.array(counts.astype(np.int64)),
        }
    )
    return encode(qis, fds, table)


@dataclass(frozen=True)
class _TemplateQi:
    code: str
    column: str
    is_numeric: bool
    leaves: TableName | None


def fetch_records(
    engine: Engine,
    relation: Relation | TableName,
    qis: Sequence[Quasi],
    fds: Sequence[FunctionalDependency],
    leaves: dict[str, TableName],
) -> EncodedRecords:
    """Fetch the distinct encoded records of ``relation`` with their multiplicities (one query)
    and encode them. ``leaves`` maps each categorical quasi-identifier to its lookup table
    (value -> leaf rank, as :func:`anonsql.hierarchies.materialize` creates it).

    Rows whose quasi-identifier is NULL or not a leaf of its hierarchy cannot be encoded: they
    raise a :class:`SpecError` with their count (never their values).
    """
    kept = kept_columns(qis, fds)
    items = [
        _TemplateQi(f"c{a}", q.column, q.hierarchy is None, leaves.get(q.column))
        for a, q in enumerate(qis)
    ]
    for item in items:
        if not item.is_numeric and item.leaves is None:
            raise SpecError(
                item.column, "no leaf lookup table was given", "materialize its hierarchy first"
            )
    signatures = engine.query_arrow(
        "dependency/records",
        relation=relation,
        qis=items,
        kept=[(f"c{len(qis) + j}", name) for j, name in enumerate(kept)],
    )
    total = engine.count_rows(relation) if isinstance(relation, TableName) else None
    fetched = (
        int(np.asarray(arrow.to_numpy(signatures.column("n"))).sum()) if len(signatures) else 0
    )
    if total is not None and fetched != total:
        raise SpecError(
            "columns",
            f"{total - fetched} rows of {relation} have a NULL quasi-identifier or a value that "
            "is not a leaf of its hierarchy",
            "extend the hierarchies to cover every value and fill NULLs",
        )
    if fetched == 0:
        raise SpecError("source", f"{relation} has no rows", "anonymize a non-empty relation")
    return encode(qis, fds, signatures)
