"""Class-based measures: number of classes, discernibility, normalized average class size.

Discernibility: Bayardo & Agrawal, "Data Privacy through Optimal k-Anonymization", ICDE 2005
(sum of squared class sizes, plus the table's size for each suppressed row). Normalized average
class size: LeFevre, DeWitt, Ramakrishnan, ICDE 2006 (``rows / classes / k``).
"""

from __future__ import annotations

from anonsql.metrics.base import Metric, MetricContext, MetricValue


class ClassMetrics(Metric):
    name = "classes"
    reference = "R. Bayardo, R. Agrawal, ICDE 2005; K. LeFevre et al., ICDE 2006"
    zero_when_exact = ("suppressed_rows",)

    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        classes, published, squares = ctx.engine.query(
            "metrics/classes",
            relation=ctx.relation,
            qids=[q.column for q in ctx.qids],
            classes=ctx.classes,
        )[0]
        classes, published, squares = int(classes), int(published or 0), int(squares or 0)
        suppressed = ctx.source_rows - published
        values = [
            MetricValue("classes", None, float(classes)),
            MetricValue("published_rows", None, float(published)),
            MetricValue("suppressed_rows", None, float(suppressed)),
            MetricValue("discernibility", None, float(squares + suppressed * ctx.source_rows)),
            MetricValue("average_class_size", None, published / classes if classes else 0.0),
        ]
        if ctx.k:
            values.append(
                MetricValue(
                    "normalized_average_class_size",
                    None,
                    (published / classes / ctx.k) if classes else 0.0,
                )
            )
        return values
