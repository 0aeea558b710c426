"""An independent adversary over the published relations of a personalized release (pandas, no
anonsql code): given a target's QID group, how confident can one be of each sensitive value or
fuzzy term?

* :func:`tuple_confidence` reads the tuple-level cells (paper_compat publishes them with each
  tuple): each tuple of the group shows its cells' labels. ``covering=False`` counts equal
  labels (the digest's T14 reading); ``covering=True`` counts, for a leaf value, every label
  on its path to the root (a generalized label may stand for any leaf below it).
* :func:`mapping_confidence` reads only the group-bucket counts and the bucket tables (random
  worlds: a bucket's cells are equally likely to belong to any of its rows):
  P(v | G) = sum_B c(G, B) / |G| * cover_B(v) / |B|.
* :func:`raw_confidence` is the strongest adversary, who knows every row's original value
  (from the private rows): the largest share of one original value or term in a group.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from anonsql.engines import Engine
from anonsql.hierarchies import Hierarchy
from anonsql.sql import TableName


def frame(engine: Engine, table: TableName) -> pd.DataFrame:
    return pd.DataFrame(
        engine.fetch_arrow(engine.sql.render("select_all", relation=table)).to_pandas()
    )


def _leaves_covered(label: str, taxonomy: Hierarchy | None) -> list[str]:
    """The leaf values a published label may stand for (a term stands for itself)."""
    if taxonomy is None or label in taxonomy.leaf_rank:
        return [label]
    node = taxonomy.node_by_label[label]
    return taxonomy.leaves[node.first_leaf : node.last_leaf + 1]


def _label_column(buckets: pd.DataFrame) -> str:
    return "term" if "term" in buckets.columns else "value"


def _expand(cells: pd.DataFrame, taxonomy: Hierarchy | None) -> pd.DataFrame:
    """One row per (cell, leaf it may stand for)."""
    out = cells.copy()
    out["leaf"] = out["label"].map(lambda x: _leaves_covered(x, taxonomy))
    return out.explode("leaf")


def tuple_confidence(
    tuples: pd.DataFrame,
    attributes: list[str],
    taxonomies: Mapping[str, Hierarchy | None],
    *,
    covering: bool,
) -> dict[str, float]:
    """Per attribute: max over groups and values of the share of the group's tuples whose
    published cell (a column of ``tuples``, which paper_compat publishes per tuple) is (or
    covers) the value."""
    out: dict[str, float] = {}
    sizes = tuples.groupby("group_id").size()
    for attribute in attributes:
        cells = pd.DataFrame({"group_id": tuples["group_id"], "label": tuples[attribute]})
        if covering:
            cells = _expand(cells, taxonomies.get(attribute))
        else:
            cells = cells.assign(leaf=cells["label"])
        counts = cells.groupby(["group_id", "leaf"]).size().rename("n").reset_index()
        counts["p"] = counts["n"] / counts["group_id"].map(sizes)
        out[attribute] = float(counts["p"].max())
    return out


def mapping_confidence(
    group_buckets: pd.DataFrame,
    buckets: Mapping[str, pd.DataFrame],
    taxonomies: Mapping[str, Hierarchy | None],
) -> dict[str, float]:
    """Per attribute: max over groups and leaf values of the random-worlds posterior through
    the group-bucket counts."""
    out: dict[str, float] = {}
    for attribute, table in buckets.items():
        cells = table.rename(columns={_label_column(table): "label"})
        size = cells.groupby("bucket").size().rename("bucket_size")
        expanded = _expand(cells, taxonomies.get(attribute))
        cover = expanded.groupby(["bucket", "leaf"]).size().rename("cover").reset_index()
        cover = cover.merge(size.reset_index(), on="bucket")
        gb = group_buckets[group_buckets["attribute"] == attribute]
        group_size = gb.groupby("group_id")["frequency"].sum().rename("group_size")
        post = gb.merge(cover, on="bucket").merge(group_size.reset_index(), on="group_id")
        post["p"] = post["frequency"] / post["group_size"] * post["cover"] / post["bucket_size"]
        out[attribute] = float(post.groupby(["group_id", "leaf"])["p"].sum().max())
    return out


def raw_confidence(groups_and_values: pd.DataFrame, attributes: list[str]) -> dict[str, float]:
    """Per attribute: max over groups of the share of one original value (a frame with a
    group_id column and one column per attribute)."""
    out = {}
    sizes = groups_and_values.groupby("group_id").size()
    for a in attributes:
        counts = groups_and_values.groupby(["group_id", a]).size().rename("n").reset_index()
        out[a] = float((counts["n"] / counts["group_id"].map(sizes)).max())
    return out


def published_confidence(
    group_buckets: pd.DataFrame, buckets: pd.DataFrame, sa_taxonomy: pd.DataFrame
) -> dict[str, float]:
    """Per attribute: max over groups and leaves of the random-worlds posterior, read from a
    release's published relations only: ``__group_buckets`` (attribute, group_id, bucket,
    frequency), the long-form ``__buckets`` (attribute, bucket, slot, label, weight) and
    ``__sa_taxonomy`` (attribute, label, leaf: the leaves a label may stand for)."""
    out: dict[str, float] = {}
    for attribute, cells in buckets.groupby("attribute"):
        size = cells.groupby("bucket").size().rename("bucket_size").reset_index()
        leaves = sa_taxonomy[sa_taxonomy["attribute"] == attribute][["label", "leaf"]]
        expanded = cells[["bucket", "label"]].merge(leaves, on="label", how="left")
        assert expanded["leaf"].notna().all(), f"{attribute}: a label the taxonomy lacks"
        cover = expanded.groupby(["bucket", "leaf"]).size().rename("cover").reset_index()
        gb = group_buckets[group_buckets["attribute"] == attribute]
        group_size = gb.groupby("group_id")["frequency"].sum().rename("group_size").reset_index()
        post = (
            gb.merge(group_size, on="group_id").merge(size, on="bucket").merge(cover, on="bucket")
        )
        post["p"] = post["frequency"] / post["group_size"] * post["cover"] / post["bucket_size"]
        out[str(attribute)] = float(post.groupby(["group_id", "leaf"])["p"].sum().max())
    return out
