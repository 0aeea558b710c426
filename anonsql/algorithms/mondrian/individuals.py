"""Mondrian over individuals who own several records each, for the models that read each record's
sensitive value (the identity-reserved models of Wang et al., KAIS 2019): the aggregates their
predicates need, from SQL, bin by bin.

The working table holds one row per individual with two more carried columns: ``records`` (the
individual's number of records) and ``set_id`` (the number of the individual's distinct set of
sensitive values); ``values`` holds (person, code, records) per individual and value. Each round
three statements give, per (partition, dimension, bin):

* individuals, records and the most records of one individual (``mondrian/candidates`` with its
  ``records`` aggregates);
* individuals and records per sensitive value (``mondrian/candidate_values``);
* individuals per distinct value set (``mondrian/candidates`` on ``set_id``),

which :class:`~anonsql.algorithms.mondrian.evaluate.PartEvaluator` adds up (or maximizes) over
the bins of each candidate part into the optional fields of
:class:`~anonsql.privacy.base.PartStats`; the sets' members are read once (``set_members``).
Statements per round stay constant whatever the number of partitions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from anonsql import arrow
from anonsql.algorithms.mondrian import columnar as col
from anonsql.algorithms.mondrian.evaluate import Bins, columns_of, triples
from anonsql.engines import Engine
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import PartStats
from anonsql.privacy.histograms import Histogram
from anonsql.sql import TableName

#: The columns the working table carries for individuals (after the person's number).
CARRIED = ("records", "set_id")


@dataclass(frozen=True)
class IndividualAggregates:
    """What Mondrian needs to judge parts of individuals: the sensitive ``column`` the models
    read, the table of (person, code, records), the number of value codes and of distinct
    sets, the sets' members, and the whole table's statistics (``root``)."""

    column: str
    values: TableName
    codes: int
    sets: int
    set_members: Histogram
    root: PartStats

    @classmethod
    def read(
        cls, engine: Engine, *, rows: TableName, values: TableName, sets: TableName, column: str
    ) -> IndividualAggregates:
        """Read the set members and the root statistics (``sets``: set_id, code)."""
        members = engine.query_arrow("mondrian/individual_sets", sets=sets)
        set_ids = arrow.to_numpy(members.column("set_id")).astype(np.int64)
        codes = arrow.to_numpy(members.column("code")).astype(np.int64)
        n_codes = int(codes.max()) + 1 if codes.size else 0
        n_sets = int(set_ids.max()) + 1 if set_ids.size else 0
        set_members = hist.from_triples(set_ids, codes, np.ones_like(codes), (n_sets, n_codes))
        totals = engine.query("mondrian/individual_totals", rows=rows)[0]
        by_value = engine.query_arrow("mondrian/individual_value_totals", values=values)
        by_set = engine.query_arrow("mondrian/individual_set_totals", rows=rows)
        value_codes = arrow.to_numpy(by_value.column("code")).astype(np.int64)
        zero = np.zeros_like(value_codes)
        root = PartStats(
            counts=np.array([int(totals[0])], dtype=np.int64),
            histograms={
                column: hist.from_triples(
                    zero, value_codes, arrow.to_numpy(by_value.column("persons")), (1, n_codes)
                )
            },
            records=np.array([int(totals[1])], dtype=np.int64),
            max_person_records=np.array([int(totals[2])], dtype=np.int64),
            record_histograms={
                column: hist.from_triples(
                    zero, value_codes, arrow.to_numpy(by_value.column("records")), (1, n_codes)
                )
            },
            set_histograms={
                column: hist.from_triples(
                    np.zeros(by_set.num_rows, dtype=np.int64),
                    arrow.to_numpy(by_set.column("set_id")).astype(np.int64),
                    arrow.to_numpy(by_set.column("persons")),
                    (1, n_sets),
                )
            },
            set_members={column: set_members},
        )
        return cls(column, values, n_codes, n_sets, set_members, root)

    def bins(self, engine: Engine, common: Mapping[str, Any]) -> Bins:
        """This round's bins with every field for individuals (three statements)."""
        counts = engine.query_arrow("mondrian/candidates", sa=None, records=True, **common)
        by_value = engine.query_arrow("mondrian/candidate_values", values=self.values, **common)
        by_set = engine.query_arrow("mondrian/candidates", sa="set_id", **common)
        groups = columns_of(counts)
        groups = groups.take(col.order_by(groups["pid"], groups["dim"], groups["bin"]))
        values, sets = columns_of(by_value), columns_of(by_set)
        return Bins(
            pid=groups["pid"],
            dim=groups["dim"],
            bin=groups["bin"],
            counts=groups["n"],
            histograms={self.column: triples(groups, values, "n", self.codes)},
            records=groups["records"],
            max_records=groups["max_records"],
            record_histograms={self.column: triples(groups, values, "records", self.codes)},
            set_histograms={self.column: triples(groups, sets, "n", self.sets)},
        )
