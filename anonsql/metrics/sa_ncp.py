"""SA-NCP of a 1:M release (Gong et al., KBS 2017, Eq. 4, as the authors' code computes it;
digest 000 §4): every distinct original sensitive item of every person is charged the NCP of
the fingerprint node that generalizes it (0 for a leaf, leaves under the node / leaves of the
hierarchy otherwise), averaged over those items, in percent. Read from the release's
``__fingerprints`` table, which counts the original items each node stands for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from typing_extensions import Self

from anonsql.engines import Engine
from anonsql.metrics.base import Metric, MetricContext, MetricInput, MetricValue
from anonsql.sql import TableName

if TYPE_CHECKING:
    from anonsql.publish import BuiltRelease
    from anonsql.release.reader import PublishedRelease


@dataclass(frozen=True)
class Fingerprints(MetricInput):
    """A 1:M release's table of generalized fingerprint items (``__fingerprints``: label, ncp,
    persons, items)."""

    table: TableName

    @classmethod
    def at_publish(cls, release: BuiltRelease) -> Self | None:
        return cls(release.built.fingerprints)

    @classmethod
    def of_release(cls, engine: Engine, release: PublishedRelease) -> Self | None:
        return cls(release.names.fingerprints)


class SaNCP(Metric):
    name = "sa_ncp"
    reference = (
        "Q. Gong et al., Anonymizing 1:M microdata with high utility, KBS 2017 (Eq. 4); "
        "J. Xu et al., KDD 2006 (NCP)"
    )
    zero_when_exact = ("sa_ncp",)
    reads = (Fingerprints,)
    layouts = ("person",)

    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        fingerprints = ctx.get(Fingerprints).table
        penalty, items = ctx.engine.query("metrics/sa_ncp", fingerprints=fingerprints)[0]
        if not items:
            return []
        return [MetricValue(self.name, None, 100.0 * float(penalty) / float(items))]
