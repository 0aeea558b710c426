"""The hierarchy model: a tree of generalizations over one attribute's values.

Leaves are numbered in depth-first order (their *rank*), children in the order they first appear
in the source. Every node then covers one contiguous range of leaf ranks, so a set of leaves is
generalized by the lowest common ancestor of its smallest and largest rank, and the engine can
hold categorical values as integer ranks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pyarrow as pa

from anonsql import arrow
from anonsql.errors import HierarchyError

#: Levels a hierarchy may have above its leaves (deeper ones are mistakes, e.g. masking a long
#: text one character at a time).
MAX_LEVELS = 64


@dataclass(frozen=True)
class Node:
    """One node of a hierarchy; a leaf when it covers a single leaf rank and has no children."""

    id: int
    label: str
    depth: int
    parent: int | None
    first_leaf: int
    last_leaf: int
    children: tuple[int, ...] = field(default=())

    @property
    def leaf_count(self) -> int:
        return self.last_leaf - self.first_leaf + 1

    @property
    def is_leaf(self) -> bool:
        return not self.children


class Hierarchy:
    """A generalization hierarchy built from leaf-to-root paths.

    ``paths`` holds one sequence per leaf value, from the leaf up to the root (root last), as in
    ARX's CSV format. Consecutive repeats (``Private;Private;*``) are one node: ARX pads short
    branches that way. ``origin`` names where the paths came from, for error messages, and
    ``lines`` optionally gives each path's line number there.
    """

    def __init__(
        self,
        paths: Sequence[Sequence[str]],
        *,
        name: str,
        origin: str = "<hierarchy>",
        lines: Sequence[int] | None = None,
    ) -> None:
        self.name = name
        self.origin = origin
        if not paths:
            raise HierarchyError(
                name, f"hierarchy {origin} has no values", "give at least one leaf value"
            )
        line_numbers = list(lines) if lines is not None else list(range(1, len(paths) + 1))
        #: The paths as given, repeats kept: ARX's positional levels (label ``l`` of a line is
        #: its value's generalization at level ``l``), which full-domain search reads.
        self.rows: tuple[tuple[str, ...], ...] = tuple(tuple(p) for p in paths)
        for path, line in zip(paths, line_numbers, strict=True):
            if len(path) > MAX_LEVELS + 1:
                raise HierarchyError(
                    name,
                    f"{origin} line {line}: {len(path) - 1} levels above the leaf, more than the "
                    f"{MAX_LEVELS} a hierarchy may have",
                    "use fewer levels (builders: set `levels` or a larger `step`)",
                )
        collapsed = [_collapse(p) for p in paths]
        self._build(collapsed, line_numbers)

    # -- construction ---------------------------------------------------------------------------
    def _error(self, line: int, problem: str, fix: str) -> HierarchyError:
        return HierarchyError(self.name, f"{self.origin} line {line}: {problem}", fix)

    def _build(self, paths: list[tuple[str, ...]], lines: list[int]) -> None:
        roots = {p[-1] for p in paths if p}
        if len(roots) != 1:
            first_bad = next(
                (ln for p, ln in zip(paths, lines, strict=True) if not p or p[-1] != paths[0][-1]),
                lines[0],
            )
            raise self._error(
                first_bad,
                "the hierarchy has more than one root",
                "end every line with the same root label, e.g. '*'",
            )
        # children keyed by root-to-node label path; insertion order = first appearance
        children: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        leaf_paths: dict[str, tuple[str, ...]] = {}
        label_owner: dict[str, tuple[str, ...]] = {}
        label_line: dict[str, int] = {}
        for path, line in zip(paths, lines, strict=True):
            leaf = path[0]
            top_down = tuple(reversed(path))
            if leaf in leaf_paths:
                if leaf_paths[leaf] != top_down:
                    raise self._error(
                        line,
                        "a leaf value appears twice with different parents",
                        "list each value once",
                    )
                continue
            leaf_paths[leaf] = top_down
            for depth in range(len(top_down)):
                node_path = top_down[: depth + 1]
                label = node_path[-1]
                owner = label_owner.get(label)
                if owner is None:
                    label_owner[label] = node_path
                    label_line[label] = line
                elif owner != node_path:
                    raise self._error(
                        line,
                        f"a label used at line {label_line[label]} names a different node here "
                        "(each level must be a function of the one below, and labels unique)",
                        "give distinct nodes distinct labels",
                    )
                if depth + 1 < len(top_down):
                    siblings = children.setdefault(node_path, [])
                    child = top_down[: depth + 2]
                    if child not in siblings:
                        siblings.append(child)
        for path in leaf_paths.values():
            if path in children:
                line = label_line[path[-1]]
                raise self._error(
                    line,
                    "a leaf value is also an inner node of the hierarchy",
                    "a value must not generalize to itself with children",
                )

        self.nodes: list[Node] = []
        self.leaves: list[str] = []
        root_path = (next(iter(roots)),)
        self._add(root_path, None, 0, children)
        self.root = self.nodes[0]
        self.leaf_rank: dict[str, int] = {leaf: rank for rank, leaf in enumerate(self.leaves)}
        self.node_by_label: dict[str, Node] = {n.label: n for n in self.nodes}
        self._leaf_node: list[int] = [0] * len(self.leaves)
        for node in self.nodes:
            if node.is_leaf:
                self._leaf_node[node.first_leaf] = node.id

    def _add(
        self,
        path: tuple[str, ...],
        parent: int | None,
        depth: int,
        children: dict[tuple[str, ...], list[tuple[str, ...]]],
    ) -> int:
        node_id = len(self.nodes)
        self.nodes.append(Node(node_id, path[-1], depth, parent, len(self.leaves), -1))
        kids = children.get(path, [])
        if not kids:
            self.leaves.append(path[-1])
        child_ids = tuple(self._add(kid, node_id, depth + 1, children) for kid in kids)
        self.nodes[node_id] = Node(
            node_id,
            path[-1],
            depth,
            parent,
            self.nodes[node_id].first_leaf,
            len(self.leaves) - 1,
            child_ids,
        )
        return node_id

    # -- queries --------------------------------------------------------------------------------
    @property
    def leaf_count(self) -> int:
        return len(self.leaves)

    @property
    def height(self) -> int:
        return max(n.depth for n in self.nodes)

    def leaf_node(self, rank: int) -> Node:
        return self.nodes[self._leaf_node[rank]]

    def lca(self, first_rank: int, last_rank: int) -> Node:
        """The lowest node covering leaf ranks ``first_rank..last_rank``."""
        node = self.leaf_node(first_rank)
        while node.last_leaf < last_rank:
            assert node.parent is not None
            node = self.nodes[node.parent]
        return node

    def child_containing(self, node: Node, rank: int) -> Node:
        for child_id in node.children:
            child = self.nodes[child_id]
            if child.first_leaf <= rank <= child.last_leaf:
                return child
        raise ValueError("rank outside the node")

    def ncp(self, node: Node) -> float:
        """Normalized certainty penalty of publishing ``node``: 0 for a leaf, 1 for the root."""
        if node.leaf_count <= 1:
            return 0.0
        return node.leaf_count / self.leaf_count

    def covers(self, values: Iterable[str]) -> list[str]:
        """The given values that are not leaves of this hierarchy."""
        return [v for v in values if v not in self.leaf_rank]

    def path(self, leaf: str) -> list[str]:
        """Labels from the leaf up to the root."""
        node = self.leaf_node(self.leaf_rank[leaf])
        labels = [node.label]
        while node.parent is not None:
            node = self.nodes[node.parent]
            labels.append(node.label)
        return labels

    # -- tables ---------------------------------------------------------------------------------
    def leaves_table(self) -> pa.Table:
        """value -> leaf rank, for encoding source values."""
        return arrow.table(
            {
                "value": arrow.array(self.leaves, pa.string()),
                "leaf_rank": arrow.array(range(len(self.leaves)), pa.int32()),
            }
        )

    def nodes_table(self) -> pa.Table:
        """Every node with its label, depth, leaf range and NCP."""
        return arrow.table(
            {
                "node_id": arrow.array([n.id for n in self.nodes], pa.int32()),
                "label": arrow.array([n.label for n in self.nodes], pa.string()),
                "depth": arrow.array([n.depth for n in self.nodes], pa.int32()),
                "parent_id": arrow.array([n.parent for n in self.nodes], pa.int32()),
                "first_leaf": arrow.array([n.first_leaf for n in self.nodes], pa.int32()),
                "last_leaf": arrow.array([n.last_leaf for n in self.nodes], pa.int32()),
                "leaf_count": arrow.array([n.leaf_count for n in self.nodes], pa.int32()),
                "ncp": arrow.array([self.ncp(n) for n in self.nodes], pa.float64()),
            }
        )

    def __repr__(self) -> str:
        return f"Hierarchy({self.name!r}, leaves={self.leaf_count}, height={self.height})"


def _collapse(path: Sequence[str]) -> tuple[str, ...]:
    out: list[str] = []
    for label in path:
        if not out or out[-1] != label:
            out.append(label)
    return tuple(out)
