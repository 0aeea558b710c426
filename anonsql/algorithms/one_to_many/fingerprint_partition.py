"""SA fingerprints generalized into buckets of at least ``k`` persons: step 2 of
1:M-Generalization (Gong et al., KBS 2017, Section 4.2), which runs the top-down Partition
algorithm of He & Naughton ("Anonymization of Set-Valued Data via Top-Down, Local
Generalization", VLDB 2009) on the per-person sets of sensitive items (digest 000 §3.3).

A bucket is a set of persons sharing one generalized fingerprint, a *cut* of the sensitive
hierarchy: every node of the cut covers at least one item of every member. Starting from one
bucket whose cut is the root, a bucket expands one node of its cut, the untried node with the
largest information gain (items under the node times its leaves; ties to the first node in
depth-first order): each member falls into the sub-bucket of the children covering its items.
Sub-buckets below ``k`` persons are pooled into a *leftover*, which keeps the bucket's cut (and
its tried nodes); if the leftover is below ``k`` it takes members from sub-buckets above ``k``,
least gain first, and failing that absorbs the sub-bucket of least gain (where the original
stops splitting such a leftover, it goes on here: see :func:`_top_up`). Every bucket therefore
holds at least ``k`` persons, and no person is suppressed.

All buckets advance together, one expansion per round, with a constant number of statements
per round; per-person data stays in the engine (``items``: person, leaf, covering node;
``fp_members``: person, bucket). Python sees the sub-bucket sizes of each round and, for
buckets whose leftover needs members, at most ``k`` members' gains per donor sub-bucket.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from anonsql.algorithms.base import ProgressCallback
from anonsql.algorithms.workspace import Workspace
from anonsql.arrays import BoolArray, IntArray

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class FingerprintBuckets:
    """The outcome: persons per bucket (index = bucket id, the ``safb`` of ``person_buckets``)."""

    sizes: IntArray
    rounds: int
    statements: int
    statements_per_round: list[int] = field(default_factory=list)

    @property
    def buckets(self) -> int:
        return int(self.sizes.shape[0])


def plan_round(
    sizes: pd.DataFrame, k: int, next_id: int, donors: pd.DataFrame | None
) -> tuple[pd.DataFrame, int]:
    """One round's decisions from the sub-bucket ``sizes`` (bucket, subset, n, ig).

    ``donors`` holds, for the sub-buckets :func:`donor_limits` names, their least-gain members
    (bucket, subset, ig, seq). Returns the decisions (one row per sub-bucket: the bucket its
    members go to, how many of them go to the leftover instead, whether their items are
    expanded) and the next free id.
    """
    import pandas as pd  # imported when used: most runs never need it

    frame = sizes.sort_values(["bucket", "subset"], kind="stable").reset_index(drop=True)
    n = frame["n"].to_numpy(np.int64)
    small = n < k
    leftover = (
        pd.Series(np.where(small, n, 0)).groupby(frame["bucket"].to_numpy()).transform("sum")
    ).to_numpy(np.int64)
    moved = np.zeros(len(frame), np.int64)
    merged = np.zeros(len(frame), bool)
    short = (leftover > 0) & (leftover < k)
    if short.any():
        _top_up(frame, small, leftover, short, k, donors, moved, merged)
    pooled = small | merged
    kept = ~pooled
    count = int(kept.sum())
    ids = np.full(len(frame), -1, np.int64)
    ids[kept] = np.arange(next_id, next_id + count, dtype=np.int64)
    bucket = frame["bucket"].to_numpy(np.int64)
    decisions = pd.DataFrame(
        {
            "bucket": bucket,
            "subset": frame["subset"].to_numpy(),
            "target": np.where(kept, ids, bucket),
            "moved": moved,
            "expand": kept,
        }
    )
    return decisions, next_id + count


def _top_up(
    frame: pd.DataFrame,
    small: BoolArray,
    leftover: IntArray,
    short: BoolArray,
    k: int,
    donors: pd.DataFrame | None,
    moved: IntArray,
    merged: BoolArray,
) -> None:
    """Top up the leftovers below ``k``, all buckets at once: members from sub-buckets above
    ``k``, least gain first (ties: sub-bucket key, then the member's rank); where that is not
    enough, the kept sub-bucket of least remaining gain joins the leftover. Fills ``moved``
    and ``merged`` in place.

    He & Naughton's Partition (and the 1:M authors' code) then stops splitting that leftover;
    here it stays splittable like any bucket (the node just expanded is among its tried
    nodes), since expanding its other nodes keeps every sub-bucket at ``k`` or more and can
    only lower the loss (INFORMS, l = 5: SA-NCP 4.34 -> 4.25 % at k = 2, unchanged for k >= 25).
    """
    import pandas as pd  # imported when used: most runs never need it

    position = pd.DataFrame(
        {"bucket": frame["bucket"].to_numpy(np.int64), "subset": frame["subset"].to_numpy()}
    ).reset_index()
    need = pd.Series(k - leftover[short], index=frame["bucket"].to_numpy(np.int64)[short])
    need = need[~need.index.duplicated()]
    taken_count = np.zeros(len(frame), np.int64)
    taken_ig = np.zeros(len(frame), np.int64)
    if donors is not None and len(donors):
        offered = donors[donors["bucket"].isin(need.index)]
        offered = offered.sort_values(["bucket", "ig", "subset", "seq"], kind="stable")
        rank = offered.groupby("bucket", sort=False).cumcount().to_numpy()
        offered = offered[rank < need.reindex(offered["bucket"]).to_numpy()]
        taken = offered.groupby(["bucket", "subset"], as_index=False)["ig"].agg(["size", "sum"])
        at = taken.merge(position, on=["bucket", "subset"], how="left")["index"].to_numpy()
        taken_count[at] = taken["size"].to_numpy(np.int64)
        taken_ig[at] = taken["sum"].to_numpy(np.int64)
    moved[:] = taken_count
    bucket = frame["bucket"].to_numpy(np.int64)
    gained = pd.Series(taken_count).groupby(bucket).transform("sum").to_numpy(np.int64)
    failing = short & (leftover + gained < k)
    if not failing.any():
        return
    candidates = pd.DataFrame(
        {
            "bucket": bucket,
            "subset": frame["subset"].to_numpy(),
            "remaining": frame["ig"].to_numpy(np.int64) - taken_ig,
            "row": np.arange(len(frame)),
        }
    )[failing & ~small]
    victims = (
        candidates.sort_values(["bucket", "remaining", "subset"], kind="stable")
        .drop_duplicates("bucket")["row"]
        .to_numpy()
    )
    merged[victims] = True
    moved[victims] = 0


def donor_limits(sizes: pd.DataFrame, k: int) -> pd.DataFrame:
    """Sub-buckets that may give members to a leftover below ``k``, with how many of their
    least-gain members the balancing may need to see: ``min(n - k, k - leftover)``."""
    import pandas as pd  # imported when used: most runs never need it

    n = sizes["n"].to_numpy(np.int64)
    bucket = sizes["bucket"].to_numpy(np.int64)
    leftover = pd.Series(np.where(n < k, n, 0)).groupby(bucket).transform("sum")
    need = k - leftover.to_numpy(np.int64)
    donor = (leftover.to_numpy() > 0) & (need > 0) & (n > k)
    return pd.DataFrame(
        {
            "bucket": bucket[donor],
            "subset": sizes["subset"].to_numpy()[donor],
            "limit_rows": np.minimum(n - k, need)[donor],
        }
    )


class FingerprintPartition:
    """Runs the rounds on ``job``'s ``persons`` and ``items`` tables; leaves
    ``person_buckets`` (person, safb), ``fingerprints`` (safb, node) and ``items`` with each
    item's final covering node."""

    def __init__(self, job: Workspace, k: int, progress: ProgressCallback) -> None:
        self.job = job
        self.k = k
        self.progress = progress
        hierarchy = job.person.hierarchy if job.person else None
        assert hierarchy is not None
        # a sub-bucket's key: a bit mask of child positions while they fit in a BIGINT
        self.bitmask = max(len(n.children) for n in hierarchy.nodes) <= 62
        names = (
            "items",
            "items_next",
            "persons",
            "fp_members",
            "fp_members_next",
            "fp_done_members",
            "fp_done_items",
            "fp_tried",
            "fp_pick",
            "fp_subsets",
            "fp_donors",
            "fp_decisions",
            "fp_assign",
            "fp_bucket_map",
            "person_buckets",
            "fingerprints",
            "sa_nodes",
            "sa_ancestors",
        )
        self.t = {name: job.work(name) for name in names}

    def run(self) -> FingerprintBuckets:
        e, t = self.job.engine, self.t
        start = e.stats.statements
        e.run(
            "fingerprint_partition/start",
            members=t["fp_members"],
            persons=t["persons"],
            done_members=t["fp_done_members"],
            done_items=t["fp_done_items"],
            items=t["items"],
            tried=t["fp_tried"],
        )
        next_id = 1
        rounds = 0
        per_round: list[int] = []
        while True:
            before = e.stats.statements
            e.run(
                "fingerprint_partition/pick",
                target=t["fp_pick"],
                items=t["items"],
                members=t["fp_members"],
                nodes=t["sa_nodes"],
                tried=t["fp_tried"],
            )
            # fresh planner statistics of the tables just built (PostgreSQL otherwise plans
            # nested loops over them; a no-op on DuckDB)
            e.analyze(t["fp_pick"])
            e.run(
                "fingerprint_partition/subsets",
                target=t["fp_subsets"],
                bitmask=self.bitmask,
                items=t["items"],
                members=t["fp_members"],
                pick=t["fp_pick"],
                ancestors=t["sa_ancestors"],
            )
            e.analyze(t["fp_subsets"])
            sizes = e.query_arrow(
                "fingerprint_partition/sizes", subsets=t["fp_subsets"]
            ).to_pandas()
            next_id = self._decide(sizes, next_id)
            e.run("fingerprint_partition/rewrite", **self._rewrite_tables())
            e.analyze(t["items"])
            e.analyze(t["fp_members"])
            for name in ("fp_pick", "fp_subsets", "fp_decisions"):
                e.drop(t[name])
            rounds += 1
            per_round.append(e.stats.statements - before)
            active = int(e.query("count_rows", relation=t["fp_members"])[0][0])
            self.progress(
                f"fingerprint round {rounds}: {len(sizes)} sub-buckets, {active} persons active"
            )
            if active == 0:
                break
        e.run(
            "fingerprint_partition/finish",
            bucket_map=t["fp_bucket_map"],
            done_items=t["fp_done_items"],
            done_members=t["fp_done_members"],
            person_buckets=t["person_buckets"],
            fingerprints=t["fingerprints"],
            items=t["items"],
        )
        counts = e.query("fingerprint_partition/bucket_sizes", person_buckets=t["person_buckets"])
        sizes_by_bucket = np.zeros(len(counts), dtype=np.int64)
        for safb, persons in counts:
            sizes_by_bucket[int(safb)] = int(persons)
        for name in ("fp_members", "fp_done_members", "fp_tried", "fp_bucket_map"):
            e.drop(t[name])
        return FingerprintBuckets(
            sizes=sizes_by_bucket,
            rounds=rounds,
            statements=e.stats.statements - start,
            statements_per_round=per_round,
        )

    def _decide(self, sizes: pd.DataFrame, next_id: int) -> int:
        e, t = self.job.engine, self.t
        limits = donor_limits(sizes, self.k)
        donors = None
        if len(limits):
            e.load_arrow(t["fp_donors"], pa.Table.from_pandas(limits, preserve_index=False))
            donors = e.query_arrow(
                "fingerprint_partition/donors", subsets=t["fp_subsets"], donors=t["fp_donors"]
            ).to_pandas()
            e.drop(t["fp_donors"])
        decisions, next_id = plan_round(sizes, self.k, next_id, donors)
        e.load_arrow(t["fp_decisions"], pa.Table.from_pandas(decisions, preserve_index=False))
        return next_id

    def _rewrite_tables(self) -> dict[str, object]:
        t = self.t
        return {
            "assign": t["fp_assign"],
            "subsets": t["fp_subsets"],
            "decisions": t["fp_decisions"],
            "members": t["fp_members"],
            "members_next": t["fp_members_next"],
            "pick": t["fp_pick"],
            "items": t["items"],
            "items_next": t["items_next"],
            "ancestors": t["sa_ancestors"],
            "done_items": t["fp_done_items"],
            "done_members": t["fp_done_members"],
        }
