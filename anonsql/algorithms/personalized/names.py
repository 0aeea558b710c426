"""Where the relations of a personalized release live: working tables and published targets.

Working tables hold original values (row keys, raw sensitive values, the true links between a
row's group and its bucket cells) and stay in the run's private working schema. The published
targets are given by the caller, so the integrator places them (schema, names, grants).
"""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.sql import TableName


@dataclass(frozen=True)
class WorkTables:
    """The working tables of one run, in ``schema`` with names starting ``prefix``."""

    schema: str
    prefix: str = "pz_"

    def table(self, name: str) -> TableName:
        return TableName(self.prefix + name, self.schema)

    @property
    def labels(self) -> TableName:
        return self.table("labels")

    @property
    def covers(self) -> TableName:
        """attr, node, leaf, share: every label with each leaf it covers."""
        return self.table("covers")

    @property
    def rows(self) -> TableName:
        """rid, q<i> (QIDs), s<a> (label node), r<a> (leaf rank), x<a>/w<a> (numeric SAs)."""
        return self.table("rows")

    @property
    def blocks(self) -> TableName:
        return self.table("blocks")

    @property
    def starts(self) -> TableName:
        return self.table("starts")

    @property
    def members(self) -> TableName:
        """rid -> group_id."""
        return self.table("members")

    @property
    def row_values(self) -> TableName:
        """rid, attr (QID number), value (text)."""
        return self.table("row_values")

    def cells(self, version: int) -> TableName:
        """Bucket cells after ``version`` rounds of taxonomy climbing."""
        return self.table(f"cells_{version}")

    @property
    def slots(self) -> TableName:
        """The final cells with their published slot."""
        return self.table("slots")

    @property
    def cell_leaves(self) -> TableName:
        """attr, rid, bucket, leaf, p: every final cell with the leaves its label covers."""
        return self.table("cell_leaves")

    @property
    def queries(self) -> TableName:
        return self.table("queries")

    @property
    def predicates(self) -> TableName:
        return self.table("predicates")

    def all(self, cell_versions: int) -> list[TableName]:
        fixed = [
            self.labels,
            self.covers,
            self.cell_leaves,
            self.rows,
            self.blocks,
            self.starts,
            self.members,
            self.row_values,
            self.slots,
            self.queries,
            self.predicates,
        ]
        return fixed + [self.cells(v) for v in range(cell_versions + 1)]


@dataclass(frozen=True)
class PublishedTables:
    """The published relations of a release.

    ``tuples``: one row per published tuple (a consenting row) with its ``group_id``, its
    quasi-identifiers generalized to the smallest generalization covering its group's values
    (when the caller gives them), and, in paper_compat only, its published sensitive cells
    (the paper's tuple-level mapping joined to the bucket tables), in a keyed shuffled order.
    ``groups``: one row per QID group, its size and one value:count multiset per QID (the
    paper's Table 8). ``group_values``: the same multisets in long form (group_id, attribute,
    value, frequency). ``buckets``: every attribute's buckets (attribute, bucket, slot, label,
    weight; the weight of numeric attributes' fuzzy terms, NULL for categorical ones).
    ``group_buckets``: (attribute, group_id, bucket, frequency), how many rows of each group
    have their cell in each bucket. ``sa_taxonomy``: (attribute, label, leaf), every published
    label with each leaf value (or term) it may stand for.
    """

    tuples: TableName
    groups: TableName
    group_values: TableName
    buckets: TableName
    group_buckets: TableName
    sa_taxonomy: TableName

    @classmethod
    def beside(cls, base: TableName) -> PublishedTables:
        """Names derived from ``base``: ``base`` (the tuples), ``base__groups``,
        ``base__group_values``, ``base__buckets``, ``base__group_buckets`` and
        ``base__sa_taxonomy`` (the companions an anonsql release of this layout publishes)."""

        def named(suffix: str) -> TableName:
            return base.with_name(base.name + "__" + suffix)

        return cls(
            tuples=base,
            groups=named("groups"),
            group_values=named("group_values"),
            buckets=named("buckets"),
            group_buckets=named("group_buckets"),
            sa_taxonomy=named("sa_taxonomy"),
        )

    def all(self) -> list[TableName]:
        return [
            self.tuples,
            self.groups,
            self.group_values,
            self.buckets,
            self.group_buckets,
            self.sa_taxonomy,
        ]
