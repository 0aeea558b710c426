"""One row per individual: the anonymized view joins the source to the recoding map (distinct
quasi-identifier vectors -> published values)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from anonsql.layouts.base import SHARED_GRANTED, Layout
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.check import PlannedCheck
from anonsql.release.names import GENERALIZED_SUFFIX, OutputNames
from anonsql.sql import TableName


class RecordLayout(Layout):
    """The view (or table) of the source's rows with generalized quasi-identifiers, suppressed
    rows left out, and ``__recoding``, the map it joins."""

    name = "record"
    copied = ("recoding", "attributes", "hierarchy_nodes")
    granted = SHARED_GRANTED

    def stage(self) -> None:
        ws = self.workspace
        leaves = {d.index: ws.work(f"leaves{d.index}") for d in ws.dimensions if not d.is_numeric}
        ws.engine.run(
            "publish/recoding",
            target=ws.work("recoding"),
            rows=ws.work("rows"),
            generalized=ws.work("generalized"),
            dims=ws.dimensions,
            leaves=leaves,
            suffix=GENERALIZED_SUFFIX,
        )

    def create(self, names: OutputNames, kind: str) -> None:
        passthrough = set(self.resolved.passthrough)
        qids = set(self.qids)
        columns = [
            {"name": c.name, "qid": c.name in qids}
            for c in self.resolved.catalog
            if c.name in passthrough or c.name in qids
        ]
        self.workspace.engine.run(
            "publish/anonymized",
            kind=kind,
            target=names.main,
            source=self.resolved.source,
            recoding=names.recoding,
            columns=columns,
            dims=self.workspace.dimensions,
            suffix=GENERALIZED_SUFFIX,
        )

    @classmethod
    def planned_checks(
        cls,
        names: OutputNames,
        qids: Sequence[str],
        models: Sequence[PrivacyModel],
        person: str | None,
    ) -> list[PlannedCheck]:
        return [PlannedCheck(names.main, tuple(qids), tuple(models))]

    def expected_rows(self, names: OutputNames) -> dict[str, tuple[TableName, int]]:
        published = self.resolved.rows - self.partitioning.suppressed_rows
        return {"rows accounted for": (names.main, published)}

    @classmethod
    def measured(cls, names: OutputNames) -> TableName:
        return names.main

    def individuals(self) -> int:
        return self.resolved.rows

    def certificate_fields(self) -> dict[str, Any]:
        return {"person_level": json.dumps(None)}
