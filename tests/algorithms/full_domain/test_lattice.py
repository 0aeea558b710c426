"""Level maps of ARX level tables and the generalization lattice (no engine)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from fd_helpers import ADULT_ARX_HIERARCHIES

from anonsql.algorithms.full_domain import (
    Lattice,
    LevelHierarchy,
    levels_from_hierarchy,
    levels_from_rows,
)
from anonsql.algorithms.full_domain.lattice import flash_order
from anonsql.errors import HierarchyError, SpecError
from anonsql.hierarchies import Hierarchy, read_hierarchy, write_arx_csv


def labels(q: LevelHierarchy, level: int) -> list[str]:
    h = q.hierarchy
    return [h.nodes[int(q.level_nodes[r, level])].label for r in range(q.leaf_count)]


def test_levels_are_positional_with_padding_anywhere() -> None:
    rows = [
        ["a", "a", "AB", "*"],  # padded at level 1
        ["b", "B", "AB", "*"],
        ["c", "C", "C", "*"],  # padded at level 2 (the group repeats)
        ["d", "C", "C", "*"],
    ]
    q = levels_from_rows(rows, column="x")
    assert q.height == 3
    assert [labels(q, lv) for lv in range(4)] == [
        ["a", "b", "c", "d"],
        ["a", "B", "C", "C"],
        ["AB", "AB", "C", "C"],
        ["*", "*", "*", "*"],
    ]
    assert q.distinct(1) == 3 and q.distinct(2) == 2
    # ARX's domain share: lines with the same label at that level / all lines
    assert q.level_shares(1).tolist() == [0.25, 0.25, 0.5, 0.5]
    assert q.level_shares(0).tolist() == [0.25] * 4
    # anonsql's NCP of the node: leaves under it / all leaves, 0 for a leaf
    assert q.level_ncp(2).tolist() == [0.5, 0.5, 0.5, 0.5]
    assert q.level_ncp(1).tolist() == [0.0, 0.0, 0.5, 0.5]


def test_ragged_lines_are_refused_with_the_line() -> None:
    with pytest.raises(HierarchyError, match="line 2: 2 labels where the first line has 3"):
        levels_from_rows([["a", "A", "*"], ["b", "*"]], column="x")


def test_from_hierarchy_pads_at_the_leaf_like_the_arx_writer(tmp_path: Path) -> None:
    tree = Hierarchy([["a", "A", "*"], ["b", "A", "*"], ["c", "*"]], name="x")
    q = levels_from_hierarchy(tree)
    file = tmp_path / "x.csv"
    write_arx_csv(tree, file)
    again = levels_from_hierarchy(read_hierarchy(file, name="x"))
    assert np.array_equal(q.level_nodes, again.level_nodes)
    assert labels(q, 1) == ["A", "A", "c"]


def test_levels_of_a_gzip_hierarchy_file(tmp_path: Path) -> None:
    file = tmp_path / "x.csv.gz"
    with gzip.open(file, "wt") as handle:
        handle.write("a;A;*\n\nb;A;*\n")
    assert levels_from_hierarchy(read_hierarchy(file, name="x")).height == 2


def test_adult_arx_heights() -> None:
    heights = {
        p.stem: levels_from_hierarchy(read_hierarchy(p, name=p.stem)).height
        for p in sorted(ADULT_ARX_HIERARCHIES.glob("*.csv"))
    }
    assert heights == {
        "age": 4,
        "education": 3,
        "marital-status": 2,
        "native-country": 2,
        "occupation": 2,
        "race": 1,
        "salary-class": 1,
        "sex": 1,
        "workclass": 2,
    }


def test_lattice_numbering_and_neighbours() -> None:
    lattice = Lattice((1, 2, 1))
    assert lattice.size == 12 and lattice.height == 4
    assert lattice.node(0) == (0, 0, 0) and lattice.node(lattice.top) == (1, 2, 1)
    for index in range(lattice.size):
        assert lattice.index(lattice.node(index)) == index
        node = np.array(lattice.node(index))
        for up in lattice.successors(index):
            assert (np.array(lattice.node(up)) - node).sum() == 1
        for down in lattice.predecessors(index):
            assert (node - np.array(lattice.node(down))).sum() == 1
    middle = lattice.index((0, 1, 0))
    assert set(np.flatnonzero(lattice.above(middle))) == {
        lattice.index((a, b, c)) for a in (0, 1) for b in (1, 2) for c in (0, 1)
    }
    assert set(np.flatnonzero(lattice.below(middle))) == {0, middle}
    with pytest.raises(ValueError, match="not a node"):
        lattice.index((2, 0, 0))


def test_lattice_size_is_limited() -> None:
    with pytest.raises(SpecError, match="above the limit"):
        Lattice((9,) * 8)


def test_flash_order_starts_at_the_bottom() -> None:
    q = levels_from_rows([["a", "A", "*"], ["b", "A", "*"], ["c", "C", "*"]], column="x")
    lattice = Lattice((2, 2))
    rank = flash_order(lattice, [q, q])
    assert rank[0] == 0 and rank[lattice.top] == lattice.size - 1
    sums = lattice.level_sums()
    assert all(
        rank[i] < rank[j]
        for i in range(lattice.size)
        for j in range(lattice.size)
        if sums[i] < sums[j]
    )
