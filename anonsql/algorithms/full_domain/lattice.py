"""Generalization levels per quasi-identifier, and the lattice of full-domain generalizations.

Full-domain generalization (Samarati, "Protecting Respondents' Identities in Microdata Release",
IEEE TKDE 13(6), 2001; LeFevre, DeWitt, Ramakrishnan, "Incognito", SIGMOD 2005) maps every value
of a quasi-identifier to its ancestor at one *level* of the hierarchy, the same level for the whole
column. A *node* of the lattice picks one level per quasi-identifier; its successors raise one
level by one.

Levels are positional, as in ARX's CSV hierarchies (``value;level1;...;root``): level ``l`` of a
value is column ``l`` of its line. Short branches are padded by repeating a label
(``White;White;*``), so the level-``l`` label of a value may be the value itself. Levels are kept as
node ids of the :class:`~anonsql.hierarchies.Hierarchy` built from the same lines (consecutive
repeats collapse into one node), so a generalized value is an ordinary hierarchy node: its label,
leaf range and NCP come from the hierarchy.

In the engine a value is held as one integer *path code*: the sibling positions of its labels,
root down, packed into bits (``bits[l]`` bits for the step from level ``l`` to ``l + 1``). Its
level-``l`` label is then the code shifted right by ``shifts[l]`` bits, so rolling a value (or a
class) up any number of levels is a shift, never a join.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from anonsql import arrow
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.errors import HierarchyError, SpecError
from anonsql.hierarchies import Hierarchy
from anonsql.hierarchies.io import hierarchy_key, new_hierarchy

#: The largest lattice the search handles: its node table lives in NumPy (one byte per
#: quasi-identifier and node) and predictive tagging sweeps it, so memory and time per tag
#: grow with it. ARX's limit is 2^31 - 1 nodes; 8-10 Adult-like quasi-identifiers give 1e4.
MAX_LATTICE_NODES = 2_000_000


@dataclass(frozen=True, eq=False)
class LevelHierarchy:
    """A quasi-identifier's hierarchy with its generalization levels.

    ``level_nodes[r, l]`` is the node id (in ``hierarchy``) that the leaf of rank ``r`` publishes
    at level ``l``; level 0 is the leaf itself and the last level the root. ``column`` is the
    source column it generalizes.
    """

    column: str
    hierarchy: Hierarchy
    level_nodes: IntArray
    #: per level, the code of every leaf's level-``l`` label (``codes[l] = codes[0] >> shifts[l]``)
    codes: IntArray = field(init=False)
    shifts: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        height = int(self.level_nodes.shape[1]) - 1
        leaves = int(self.level_nodes.shape[0])
        codes = np.zeros((leaves, height + 1), dtype=np.int64)
        bits = [0] * height
        for level in range(height - 1, -1, -1):
            # number the distinct level-``level`` labels below each level-``level + 1`` label
            pairs = np.unique(self.level_nodes[:, [level + 1, level]], axis=0)
            parents = pairs[:, 0]
            first = np.searchsorted(parents, parents, side="left")
            position = np.arange(len(pairs)) - first
            bits[level] = int(position.max()).bit_length()
            index = {(int(a), int(b)): int(p) for (a, b), p in zip(pairs, position, strict=True)}
            for rank in range(leaves):
                key = (int(self.level_nodes[rank, level + 1]), int(self.level_nodes[rank, level]))
                codes[rank, level] = (codes[rank, level + 1] << bits[level]) | index[key]
        shifts = tuple(int(sum(bits[:level])) for level in range(height + 1))
        if shifts[-1] > 62:
            raise HierarchyError(
                hierarchy_key(self.column),
                f"the hierarchy needs {shifts[-1]} bits to code its paths, above 62",
                "use fewer levels or fewer values per group",
            )
        object.__setattr__(self, "codes", codes)
        object.__setattr__(self, "shifts", shifts)

    def nodes_of(self, level: int, codes: npt.ArrayLike) -> IntArray:
        """The node ids of level-``level`` codes."""
        known = self.codes[:, level]
        order = np.argsort(known, kind="stable")
        at = np.searchsorted(known[order], np.asarray(codes, dtype=np.int64))
        nodes: IntArray = self.level_nodes[order[at], level]
        return nodes

    @property
    def height(self) -> int:
        """The top level (the number of levels minus one)."""
        return int(self.level_nodes.shape[1]) - 1

    @property
    def leaf_count(self) -> int:
        return self.hierarchy.leaf_count

    def distinct(self, level: int) -> int:
        """How many distinct values level ``level`` has (over all leaves of the hierarchy)."""
        return int(np.unique(self.level_nodes[:, level]).shape[0])

    def level_shares(self, level: int) -> FloatArray:
        """For every leaf, the share of the hierarchy's lines whose level-``level`` label equals
        the leaf's: ARX's domain share of the generalized value (1/leaves for a leaf)."""
        nodes = self.level_nodes[:, level]
        counts = np.bincount(nodes, minlength=len(self.hierarchy.nodes))
        shares: FloatArray = counts[nodes] / self.leaf_count
        return shares

    def level_ncp(self, level: int) -> FloatArray:
        """For every leaf, the NCP of its level-``level`` node (leaves under it / all leaves,
        0 for a leaf), as :meth:`Hierarchy.ncp` defines it."""
        ncp = np.array([self.hierarchy.ncp(n) for n in self.hierarchy.nodes], dtype=np.float64)
        values: FloatArray = ncp[self.level_nodes[:, level]]
        return values

    def levels_table(self) -> pa.Table:
        """value -> leaf rank and path code, for the engine."""
        return arrow.table(
            {
                "value": arrow.array(self.hierarchy.leaves, pa.string()),
                "leaf": arrow.array(np.arange(self.leaf_count, dtype=np.int32), pa.int32()),
                "code": arrow.array(self.codes[:, 0], pa.int64()),
            }
        )


def levels_from_rows(
    rows: Sequence[Sequence[str]],
    *,
    column: str,
    origin: str = "<hierarchy>",
    lines: Sequence[int] | None = None,
) -> LevelHierarchy:
    """Levels from ARX's level table: one line per value, ``value;level1;...;root``, every line
    with the same number of labels."""
    key = hierarchy_key(column)
    numbers = list(lines) if lines is not None else list(range(1, len(rows) + 1))
    if not rows:
        raise HierarchyError(key, f"{origin} has no values", "give one line per value")
    width = len(rows[0])
    for row, line in zip(rows, numbers, strict=True):
        if len(row) != width:
            raise HierarchyError(
                key,
                f"{origin} line {line}: {len(row)} labels where the first line has {width} "
                "(full-domain generalization needs one label per level on every line)",
                "pad short branches by repeating a label, as ARX does (e.g. 'White;White;*')",
            )
    hierarchy = new_hierarchy(rows, name=column, origin=origin, lines=numbers)
    return _positional(hierarchy, rows, column, origin)


def _positional(
    hierarchy: Hierarchy, rows: Sequence[Sequence[str]], column: str, origin: str
) -> LevelHierarchy:
    """Levels read from the lines' positions (every line as long as the first)."""
    width = len(rows[0])
    level_nodes = np.zeros((hierarchy.leaf_count, width), dtype=np.int64)
    for row in rows:
        rank = hierarchy.leaf_rank[row[0]]
        level_nodes[rank] = [hierarchy.node_by_label[label].id for label in row]
    for level in range(1, width):
        pairs = np.unique(level_nodes[:, level - 1 : level + 1], axis=0)
        if len(np.unique(pairs[:, 0])) != len(pairs):
            raise HierarchyError(
                hierarchy_key(column),
                f"{origin}: a label of level {level - 1} generalizes to different labels at "
                f"level {level}",
                "make every level a function of the level below it",
            )
    return LevelHierarchy(column=column, hierarchy=hierarchy, level_nodes=level_nodes)


def levels_from_hierarchy(hierarchy: Hierarchy, *, column: str | None = None) -> LevelHierarchy:
    """Levels of a hierarchy: positional, as ARX reads them, when it was built from lines of
    one length (label ``l`` of a line is level ``l``); otherwise a leaf at depth ``d`` of a
    hierarchy of height ``H`` keeps its own value for the first ``H - d`` levels, then climbs one
    node per level (the padding ARX and :func:`~anonsql.hierarchies.write_arx_csv` write)."""
    name = column or hierarchy.name
    rows = hierarchy.rows
    if rows and len({len(r) for r in rows}) == 1 and len(rows[0]) > 1:
        return _positional(hierarchy, rows, name, hierarchy.origin)
    height = hierarchy.height
    level_nodes = np.zeros((hierarchy.leaf_count, height + 1), dtype=np.int64)
    for rank in range(hierarchy.leaf_count):
        path = [hierarchy.leaf_node(rank)]
        while path[-1].parent is not None:
            path.append(hierarchy.nodes[path[-1].parent])
        pad = height - (len(path) - 1)
        for level in range(height + 1):
            level_nodes[rank, level] = path[max(0, level - pad)].id
    return LevelHierarchy(
        column=column or hierarchy.name, hierarchy=hierarchy, level_nodes=level_nodes
    )


@dataclass(frozen=True, eq=False)
class Lattice:
    """The full-domain generalization lattice of quasi-identifiers with the given top levels.

    Nodes are numbered in mixed radix, the first quasi-identifier most significant, so node 0
    is the bottom (every value kept) and node ``size - 1`` the top (every column at its root).
    ``levels[n]`` holds node ``n``'s level per quasi-identifier.
    """

    heights: tuple[int, ...]
    levels: npt.NDArray[np.int16] = field(init=False)
    weights: IntArray = field(init=False)

    def __post_init__(self) -> None:
        size = self.size
        if size > MAX_LATTICE_NODES:
            raise SpecError(
                "algorithm",
                f"the full-domain lattice has {size} nodes, above the limit of {MAX_LATTICE_NODES}",
                "use fewer quasi-identifiers or hierarchies with fewer levels, or a partitioning "
                "algorithm (mondrian)",
            )
        radix = np.array([h + 1 for h in self.heights], dtype=np.int64)
        weights = np.ones(len(radix), dtype=np.int64)
        for i in range(len(radix) - 2, -1, -1):
            weights[i] = weights[i + 1] * radix[i + 1]
        index = np.arange(size, dtype=np.int64)
        levels = ((index[:, None] // weights[None, :]) % radix[None, :]).astype(np.int16)
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "weights", weights)

    @property
    def size(self) -> int:
        return int(np.prod([h + 1 for h in self.heights], dtype=object))

    @property
    def dimensions(self) -> int:
        return len(self.heights)

    @property
    def top(self) -> int:
        return self.size - 1

    @property
    def height(self) -> int:
        """The level (sum of levels) of the top node."""
        return int(sum(self.heights))

    def index(self, levels: Sequence[int]) -> int:
        if len(levels) != self.dimensions or any(
            not 0 <= lv <= h for lv, h in zip(levels, self.heights, strict=True)
        ):
            raise ValueError(f"{tuple(levels)} is not a node of a lattice with tops {self.heights}")
        return int(np.dot(np.asarray(levels, dtype=np.int64), self.weights))

    def node(self, index: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self.levels[index])

    def level_sums(self) -> IntArray:
        sums: IntArray = self.levels.sum(axis=1, dtype=np.int64)
        return sums

    def successors(self, index: int) -> list[int]:
        """Nodes one level up in one quasi-identifier."""
        row = self.levels[index]
        return [
            index + int(self.weights[i]) for i in range(self.dimensions) if row[i] < self.heights[i]
        ]

    def predecessors(self, index: int) -> list[int]:
        row = self.levels[index]
        return [index - int(self.weights[i]) for i in range(self.dimensions) if row[i] > 0]

    def above(self, index: int) -> BoolArray:
        """Mask of the nodes that generalize node ``index`` (itself included)."""
        mask: BoolArray = (self.levels >= self.levels[index]).all(axis=1)
        return mask

    def below(self, index: int) -> BoolArray:
        """Mask of the nodes that node ``index`` generalizes (itself included)."""
        mask: BoolArray = (self.levels <= self.levels[index]).all(axis=1)
        return mask


def flash_order(lattice: Lattice, qids: Sequence[LevelHierarchy]) -> IntArray:
    """Each node's rank in the order Flash visits candidates: by lattice level, then by mean
    relative level, then by the mean share of distinct values lost (Kohlmayer, Prasser, Eckert,
    Kemper, Kuhn, "Flash: Efficient, Stable and Optimal K-Anonymity", PASSAT 2012), ties by node
    number."""
    levels = lattice.levels.astype(np.float64)
    heights = np.array([max(h, 1) for h in lattice.heights], dtype=np.float64)
    relative = (levels / heights).mean(axis=1)
    distinct = np.zeros_like(levels)
    for i, qid in enumerate(qids):
        per_level = np.array([qid.distinct(lv) for lv in range(qid.height + 1)], dtype=np.float64)
        distinct[:, i] = per_level[lattice.levels[:, i]] / per_level[0]
    lost = 1.0 - distinct.mean(axis=1)
    level = lattice.level_sums() / max(lattice.height, 1)
    order = np.lexsort((np.arange(lattice.size), lost, relative, level))
    rank: IntArray = np.empty(lattice.size, dtype=np.int64)
    rank[order] = np.arange(lattice.size, dtype=np.int64)
    return rank
