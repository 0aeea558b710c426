"""Phase 2 of the pipeline: QID rows clustered into groups of at least ``k`` (digest 002 §3.2).

Reddy, Raju, Valli Kumari (IJET 2018) §3.1 step 3 leave the similarity measure open. Here rows
are put in a 1D order by the configuration's cluster key (``ClusterKey`` parts; a prefix of a
value's text makes the key coarser, digest T3), rows with equal keys form a *block* that is
never split, and groups are runs of consecutive blocks. A group closes at the first block at
which it holds ``k`` rows and, in the safe profile, is frequency l-diverse over every sensitive
attribute (no label, leaf or term, above 1/l of the group; :func:`frequency_l_holds`). A last run
that cannot close is merged with the groups before it, fewest first ("merged with another
closest cluster", step 3b). Both conditions survive unions, so merging never breaks a group.

The engine holds the per-row state (row -> block -> group); Python receives the block sizes and,
for the safe profile, per-block label counts, and returns the blocks where groups start.
The search is sequential over groups (each start depends on the previous group's end); within
a group the candidate ends are tested together with NumPy over prefix sums. Its memory is the
prefix table of (blocks + 1) x labels counts, limited to :data:`MAX_PREFIX_CELLS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from anonsql.engines.base import Engine
from anonsql.errors import InfeasibleError
from anonsql.personalized.config import PersonalizedConfig
from anonsql.personalized.names import WorkTables
from anonsql.personalized.prepare import sensitive_params
from anonsql.privacy.base import BoolArray, IntArray

#: Largest prefix table (cells = (blocks + 1) x distinct labels) the safe grouping may hold:
#: 2^26 int32 counts, 256 MiB.
MAX_PREFIX_CELLS = 1 << 26

#: Candidate group ends tested at once at first (grown 4x while none is valid).
_FIRST_WINDOW = 16


def frequency_l_holds(counts: IntArray, sizes: IntArray, l: IntArray) -> BoolArray:
    """For each part (row of ``counts``), whether no label holds more than 1/l of it.

    ``counts[p, v]`` counts the rows of part ``p`` with label ``v`` (labels of every attribute
    side by side), ``sizes[p]`` the part's rows and ``l[v]`` the diversity required of label
    ``v``'s attribute. The safe profile's ``group_diversity`` check is this predicate in SQL.
    """
    return np.asarray((counts * l[None, :] <= sizes[:, None]).all(axis=1), dtype=np.bool_)


@dataclass(frozen=True)
class Grouping:
    """The QID groups of a release: their number, sizes and the blocks they were cut from."""

    groups: int
    blocks: int
    min_size: int
    max_size: int


def greedy_groups(
    sizes: IntArray,
    k: int,
    counts: IntArray | None = None,
    l: IntArray | None = None,
) -> IntArray:
    """The first block of every group, cutting blocks (in order, with ``sizes`` rows each) into
    runs of at least ``k`` rows that satisfy :func:`frequency_l_holds` when ``counts``
    (blocks x labels) and ``l`` are given.

    Raises :class:`InfeasibleError` when even one group of all blocks fails.
    """
    blocks = len(sizes)
    if blocks == 0:
        return np.zeros(0, np.int64)
    cum = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])
    prefix: IntArray | None = None
    weights = np.ones(0, np.int64)
    if counts is not None and counts.shape[1] > 0:
        assert l is not None
        prefix = np.zeros((blocks + 1, counts.shape[1]), np.int64)
        np.cumsum(counts, axis=0, out=prefix[1:])
        weights = np.asarray(l, np.int64)

    def valid(firsts: IntArray, ends: IntArray) -> BoolArray:
        """Whether blocks firsts[i]..ends[i] make a valid group (arrays broadcast)."""
        size = cum[ends + 1] - cum[firsts]
        ok = size >= k
        if prefix is not None:
            parts = prefix[ends + 1] - prefix[firsts]
            ok &= frequency_l_holds(np.atleast_2d(parts), np.atleast_1d(size), weights)
        return np.asarray(np.atleast_1d(ok), np.bool_)

    last = np.array([blocks - 1])
    if not valid(np.array([0]), last)[0]:
        raise InfeasibleError(
            "no grouping of the consenting rows satisfies k and l even as one group. "
            "Fix: lower k or l"
        )
    starts: list[int] = []
    first = 0
    while first < blocks:
        # the earliest end with k rows, then windows of candidate ends from there
        end = int(np.searchsorted(cum, cum[first] + k, side="left")) - 1
        if end >= blocks:
            break
        found = -1
        window = _FIRST_WINDOW
        while True:
            ends = np.arange(end, min(blocks, end + window))
            ok = valid(np.full(len(ends), first), ends)
            if ok.any():
                found = int(ends[int(np.argmax(ok))])
                break
            if ends[-1] == blocks - 1:
                break
            end = int(ends[-1]) + 1
            window *= 4
        if found < 0:
            break
        starts.append(first)
        first = found + 1
    if first < blocks:
        # the tail fails: merge it with the fewest groups before it that make a valid union
        if not starts:
            return np.zeros(1, np.int64)
        firsts = np.asarray(starts[::-1], np.int64)
        ok = valid(firsts, np.full(len(firsts), blocks - 1))
        # ok[j] <=> the last j + 1 groups and the tail are valid together; with j = all groups
        # that is the whole table, valid by the check above
        merged = int(np.argmax(ok)) + 1
        starts = starts[: len(starts) - merged + 1]
    return np.asarray(starts, np.int64)


def _label_counts(
    engine: Engine, config: PersonalizedConfig, work: WorkTables, blocks: int
) -> tuple[IntArray, IntArray]:
    """Per-block label counts of the attributes with l > 1, as a dense (blocks x labels)
    matrix, and each label column's l."""
    attrs = [a for a in range(len(config.sensitive)) if config.l_of(a) > 1]
    if not attrs:
        return np.zeros((blocks, 0), np.int64), np.zeros(0, np.int64)
    sensitive = [s for s in sensitive_params(config) if s["attr"] in attrs]
    table = engine.query_arrow(
        "personalized/block_labels", blocks=work.blocks, rows=work.rows, sensitive=sensitive
    )
    block = table.column("block").to_numpy().astype(np.int64)
    attr = table.column("attr").to_numpy().astype(np.int64)
    label = table.column("label").to_numpy().astype(np.int64)
    n = table.column("n").to_numpy().astype(np.int64)
    # one column per distinct (attribute, label) pair
    pair = attr * (int(label.max(initial=0)) + 1) + label
    uniq, column = np.unique(pair, return_inverse=True)
    cells = (blocks + 1) * len(uniq)
    if cells > MAX_PREFIX_CELLS:
        raise InfeasibleError(
            f"{config.key}.cluster_key: the safe grouping needs a prefix table of {blocks} "
            f"blocks x {len(uniq)} sensitive labels ({cells} cells), over its limit of "
            f"{MAX_PREFIX_CELLS}. Fix: use a coarser cluster key (a prefix) so that rows form "
            "fewer blocks, or coarser sensitive labels"
        )
    counts = np.zeros((blocks, len(uniq)), np.int64)
    np.add.at(counts, (block, column), n)
    stride = int(label.max(initial=0)) + 1
    l_of_column = np.array([config.l_of(int(p // stride)) for p in uniq], np.int64)
    return counts, l_of_column


def group_rows(engine: Engine, config: PersonalizedConfig, work: WorkTables) -> Grouping:
    """Create ``work.blocks`` (rid -> block), decide the groups and create ``work.members``
    (rid -> group_id, groups numbered 1, 2, ... in key order)."""
    qid_alias = {q: f"q{i}" for i, q in enumerate(config.quasi_identifiers)}
    key = [{"column": qid_alias[p.column], "prefix": p.prefix} for p in config.grouping_key]
    engine.run("personalized/blocks", target=work.blocks, rows=work.rows, key=key)
    sizes_table = engine.query_arrow("personalized/block_sizes", blocks=work.blocks)
    sizes = sizes_table.column("n").to_numpy().astype(np.int64)
    blocks = len(sizes)
    if config.profile == "safe":
        counts, l = _label_counts(engine, config, work, blocks)
        starts = greedy_groups(sizes, config.k, counts, l)
    else:
        starts = greedy_groups(sizes, config.k)
    engine.load_arrow(work.starts, pa.table({"block": pa.array(starts, pa.int64())}))
    engine.run("personalized/members", target=work.members, blocks=work.blocks, starts=work.starts)
    if blocks == 0:
        return Grouping(0, 0, 0, 0)
    group_sizes = group_sizes_of(starts, sizes)
    return Grouping(len(starts), blocks, int(group_sizes.min()), int(group_sizes.max()))


def group_sizes_of(starts: Sequence[int] | IntArray, sizes: IntArray) -> IntArray:
    """Rows per group, given the groups' first blocks and the blocks' sizes."""
    bounds = np.append(np.asarray(starts, np.int64), len(sizes))
    cum = np.concatenate([[0], np.cumsum(sizes)])
    return np.asarray(cum[bounds[1:]] - cum[bounds[:-1]], np.int64)
