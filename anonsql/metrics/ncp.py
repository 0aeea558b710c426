"""Normalized certainty penalty (NCP), also called GCP when averaged over the table.

Xu, Wang, Pei, Wang, Shi, Fu, "Utility-Based Anonymization Using Local Recoding", KDD 2006.
Per row and quasi-identifier: numeric ``(hi - lo) / (max - min)`` of the attribute (0 for a
plain value); categorical ``leaves under the published node / leaves of the hierarchy``
(0 for a leaf, 1 for the root); a suppressed row costs 1 per quasi-identifier. Reported in
percent, averaged over rows and quasi-identifiers, and per attribute.
"""

from __future__ import annotations

from anonsql.errors import AnonsqlError
from anonsql.metrics.base import Metric, MetricContext, MetricValue


class NCP(Metric):
    name = "ncp"
    reference = "J. Xu et al., Utility-Based Anonymization Using Local Recoding, KDD 2006"
    zero_when_exact = ("ncp",)

    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        row = ctx.engine.query(
            "metrics/ncp",
            relation=ctx.relation,
            qids=list(enumerate(ctx.qids)),
            nodes=ctx.hierarchy_nodes,
            classes=ctx.classes,
        )[0]
        published = int(row[0])
        suppressed = ctx.source_rows - published
        if suppressed < 0:
            raise AnonsqlError(
                f"{ctx.relation} has {published} rows, more than the {ctx.source_rows} "
                "of the source; "
                "it was changed after publishing. Fix: re-run anonsql"
            )
        values: list[MetricValue] = []
        total = 0.0
        for i, qid in enumerate(ctx.qids):
            penalty, unmatched = float(row[1 + 2 * i] or 0.0), int(row[2 + 2 * i] or 0)
            if unmatched:
                raise AnonsqlError(
                    f"column {qid.column!r}: {unmatched} rows hold labels that are not nodes "
                    "of its "
                    "hierarchy. Fix: measure a relation published with this hierarchy"
                )
            attribute = 100.0 * (penalty + suppressed) / ctx.source_rows
            values.append(MetricValue("ncp", qid.column, attribute))
            total += attribute
        values.insert(0, MetricValue("ncp", None, total / len(ctx.qids)))
        return values
