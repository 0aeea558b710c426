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
least gain first, and failing that absorbs the sub-bucket of least gain and is not split again.
Every bucket therefore holds at least ``k`` persons, and no person is suppressed.

All buckets advance together, one expansion per round, with a constant number of statements
per round; per-person data stays in the engine (``items``: person, leaf, covering node;
``fp_members``: person, bucket). Python sees the sub-bucket sizes of each round and, for
buckets whose leftover needs members, at most ``k`` members' gains per donor sub-bucket.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa

from anonsql.algorithms.base import ProgressCallback
from anonsql.pipeline.job import Job
from anonsql.privacy.base import IntArray


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


DECISION_COLUMNS = (
    "bucket",
    "subset",
    "target",
    "moved",
    "expand",
    "target_done",
    "leftover_done",
)


def plan_round(
    sizes: pd.DataFrame, k: int, next_id: int, donors: pd.DataFrame | None
) -> tuple[pd.DataFrame, int]:
    """One round's decisions from the sub-bucket ``sizes`` (bucket, subset, n, ig).

    ``donors`` holds, for the buckets :func:`donor_limits` names, their donor sub-buckets'
    least-gain members (bucket, subset, ig, seq). Returns the decisions (one row per sub-bucket:
    the bucket its members go to, how many of them go to the leftover instead, whether their
    items are expanded, whether the target or the leftover is finished) and the next free id.
    """
    frame = sizes.sort_values(["bucket", "subset"], kind="stable").reset_index(drop=True)
    n = frame["n"].to_numpy(np.int64)
    small = n < k
    leftover = pd.Series(np.where(small, n, 0)).groupby(frame["bucket"]).transform("sum")
    frame["leftover"] = leftover.to_numpy(np.int64)
    frame["small"] = small
    frame["moved"] = 0
    frame["merged"] = False
    frame["leftover_done"] = False
    short = frame[(frame["leftover"] > 0) & (frame["leftover"] < k)]
    for bucket in np.unique(short["bucket"].to_numpy(np.int64)):
        _balance(frame, short[short["bucket"] == bucket], int(bucket), k, donors)
    pooled = frame["small"] | frame["merged"]
    kept = ~pooled
    ids = np.full(len(frame), -1, np.int64)
    ids[kept.to_numpy()] = np.arange(next_id, next_id + int(kept.sum()), dtype=np.int64)
    decisions = pd.DataFrame(
        {
            "bucket": frame["bucket"].to_numpy(np.int64),
            "subset": frame["subset"].astype(str).to_numpy(),
            "target": np.where(kept, ids, frame["bucket"].to_numpy(np.int64)),
            "moved": frame["moved"].to_numpy(np.int64),
            "expand": kept.to_numpy(),
            "target_done": (pooled & frame["leftover_done"]).to_numpy(),
            "leftover_done": frame["leftover_done"].to_numpy(),
        }
    )
    return decisions, next_id + int(kept.sum())


def donor_limits(sizes: pd.DataFrame, k: int) -> pd.DataFrame:
    """Sub-buckets that may give members to a leftover below ``k``, with how many of their
    least-gain members the balancing may need to see: ``min(n - k, k - leftover)``."""
    frame = sizes.copy()
    n = frame["n"].to_numpy(np.int64)
    leftover = pd.Series(np.where(n < k, n, 0)).groupby(frame["bucket"]).transform("sum")
    need = k - leftover.to_numpy(np.int64)
    donor = (leftover.to_numpy() > 0) & (need > 0) & (n > k)
    return pd.DataFrame(
        {
            "bucket": frame["bucket"].to_numpy(np.int64)[donor],
            "subset": frame["subset"].astype(str).to_numpy()[donor],
            "limit_rows": np.minimum(n - k, need)[donor],
        }
    )


def _balance(
    frame: pd.DataFrame, subs: pd.DataFrame, bucket: int, k: int, donors: pd.DataFrame | None
) -> None:
    """Top up one bucket's leftover (below ``k``): members from sub-buckets above ``k``, least
    gain first; if that is not enough, the kept sub-bucket of least remaining gain joins it and
    the leftover is not split again."""
    leftover = int(subs["leftover"].iloc[0])
    need = k - leftover
    offered = (
        donors[donors["bucket"] == bucket]
        if donors is not None
        else pd.DataFrame({"subset": [], "ig": [], "seq": []})
    )
    offered = offered.sort_values(["ig", "subset", "seq"], kind="stable").head(need)
    taken = offered.groupby("subset")["ig"].agg(["size", "sum"])
    for subset, row in taken.iterrows():
        index = subs.index[subs["subset"] == subset][0]
        frame.loc[index, "moved"] = int(row["size"])
    leftover += len(offered)
    if leftover >= k:
        return
    kept = subs[~subs["small"]]
    donated = taken["sum"].reindex(kept["subset"]).fillna(0).to_numpy()
    remaining = kept.assign(remaining=kept["ig"].to_numpy() - donated)
    victim = remaining.sort_values(["remaining", "subset"], kind="stable").index[0]
    frame.loc[victim, "merged"] = True
    frame.loc[victim, "moved"] = 0
    frame.loc[subs.index, "leftover_done"] = True


class FingerprintPartition:
    """Runs the rounds on ``job``'s ``persons`` and ``items`` tables; leaves
    ``person_buckets`` (person, safb), ``fingerprints`` (safb, node) and ``items`` with each
    item's final covering node."""

    def __init__(self, job: Job, k: int, progress: ProgressCallback) -> None:
        self.job = job
        self.k = k
        self.progress = progress
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
            "partition/start",
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
                "partition/pick",
                target=t["fp_pick"],
                items=t["items"],
                members=t["fp_members"],
                nodes=t["sa_nodes"],
                tried=t["fp_tried"],
            )
            e.run(
                "partition/subsets",
                target=t["fp_subsets"],
                items=t["items"],
                members=t["fp_members"],
                pick=t["fp_pick"],
                ancestors=t["sa_ancestors"],
            )
            sizes = e.query_arrow("partition/sizes", subsets=t["fp_subsets"]).to_pandas()
            next_id = self._decide(sizes, next_id)
            e.run("partition/rewrite", **self._rewrite_tables())
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
            "partition/finish",
            bucket_map=t["fp_bucket_map"],
            done_items=t["fp_done_items"],
            done_members=t["fp_done_members"],
            person_buckets=t["person_buckets"],
            fingerprints=t["fingerprints"],
            items=t["items"],
        )
        counts = e.query("partition/bucket_sizes", person_buckets=t["person_buckets"])
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
                "partition/donors", subsets=t["fp_subsets"], donors=t["fp_donors"]
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
