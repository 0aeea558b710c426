"""Phase 0-1 of the pipeline (digest 002 §3.2): consent filter, vertical split, fuzzy terms.

Reddy, Raju, Valli Kumari (IJET 2018) §1.2: a subject who did not consent (PD = F) is removed
before anything else, so minima, maxima and frequencies are those of the consenting rows (as
Table 9 requires). The rows never leave the engine: Python receives counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from anonsql.algorithms.personalized.config import CategoricalSA, PersonalizedConfig
from anonsql.algorithms.personalized.fuzzy import fuzzy_sql
from anonsql.algorithms.personalized.labels import labels_table
from anonsql.algorithms.personalized.names import WorkTables
from anonsql.engines.base import Engine
from anonsql.errors import InfeasibleError, SpecError
from anonsql.sql import Relation


@dataclass(frozen=True)
class ConsentCounts:
    """How many source rows there were and how many consented (the rest is withheld).

    The withheld rows are a disclosure risk of their own: a subject known to be in the source
    and missing from the release is known not to have consented (digest 002 §1.3).
    """

    source_rows: int
    consenting_rows: int

    @property
    def withheld_rows(self) -> int:
        return self.source_rows - self.consenting_rows

    @property
    def suppression_ratio(self) -> float:
        """Withheld rows over source rows (the paper's suppression ratio, §3.2)."""
        return self.withheld_rows / self.source_rows if self.source_rows else 0.0


@dataclass(frozen=True)
class LabelFrequencies:
    """Per sensitive attribute: distinct labels (leaves or terms) and the largest label count
    among the consenting rows."""

    distinct: tuple[int, ...]
    max_count: tuple[int, ...]


def sensitive_params(config: PersonalizedConfig) -> list[dict[str, Any]]:
    """What templates know of each sensitive attribute (number, column, kind, fuzzy terms)."""
    out: list[dict[str, Any]] = []
    for attr, sa in enumerate(config.sensitive):
        if isinstance(sa, CategoricalSA):
            out.append({"attr": attr, "column": sa.column, "kind": "categorical"})
        else:
            out.append(
                {
                    "attr": attr,
                    "column": sa.column,
                    "kind": "numeric",
                    "fuzzy": fuzzy_sql(sa.terms),
                }
            )
    return out


def prepare_rows(
    engine: Engine, source: Relation, config: PersonalizedConfig, work: WorkTables
) -> ConsentCounts:
    """Count consent, load the label table and create ``work.rows`` from the consenting rows.

    Raises :class:`SpecError` when a consenting row has a NULL quasi-identifier or a sensitive
    value that is NULL or (categorical) not a leaf of its taxonomy, and
    :class:`InfeasibleError` when fewer than ``k`` rows consent (none at all is fine: the
    release is then empty).
    """
    source_rows, consenting = engine.query(
        "personalized/consent_counts",
        source=source,
        consent=config.consent_column,
        consent_values=list(config.consent_values),
    )[0]
    counts = ConsentCounts(int(source_rows), int(consenting or 0))
    engine.load_arrow(work.labels, labels_table(config))
    engine.analyze(work.labels)
    engine.run("personalized/covers", target=work.covers, labels=work.labels)
    engine.analyze(work.covers)
    sensitive = sensitive_params(config)
    used = [*config.quasi_identifiers, *config.sensitive_columns]
    engine.run(
        "personalized/rows",
        target=work.rows,
        source=source,
        qids=list(config.quasi_identifiers),
        sensitive=sensitive,
        labels=work.labels,
        consent=config.consent_column,
        consent_values=list(config.consent_values),
        order_columns=used,
    )
    engine.analyze(work.rows)
    row = engine.query(
        "personalized/missing", rows=work.rows, qids=config.quasi_identifiers, sensitive=sensitive
    )[0]
    missing = [int(x or 0) for x in row[1:]]
    qids = len(config.quasi_identifiers)
    for i, column in enumerate(config.quasi_identifiers):
        if missing[i]:
            raise SpecError(
                f"{config.key}.quasi_identifiers",
                f"{missing[i]} consenting rows have NULL in column {column!r}",
                "fill or filter the NULLs in a view and publish from the view",
            )
    for attr, sa in enumerate(config.sensitive):
        n = missing[qids + attr]
        if not n:
            continue
        if isinstance(sa, CategoricalSA):
            problem = (
                f"{n} consenting rows have a value of column {sa.column!r} that is NULL or "
                "not a leaf of its taxonomy"
            )
            fix = "add the values to the taxonomy as leaves, or filter them in a view"
        else:
            problem = f"{n} consenting rows have NULL in column {sa.column!r}"
            fix = "fill or filter the NULLs in a view and publish from the view"
        raise SpecError(f"{config.key}.sensitive", problem, fix)
    if 0 < counts.consenting_rows < config.k:
        raise InfeasibleError(
            f"{config.key}.k: {counts.consenting_rows} rows consent, fewer than k = {config.k}. "
            "Fix: lower k, or publish when more subjects consent"
        )
    return counts


def label_frequencies(
    engine: Engine, config: PersonalizedConfig, work: WorkTables
) -> LabelFrequencies:
    """Distinct labels and the largest label count of every sensitive attribute."""
    rows = engine.query(
        "personalized/frequencies", rows=work.rows, sensitive=sensitive_params(config)
    )
    return LabelFrequencies(
        distinct=tuple(int(r[1]) for r in rows), max_count=tuple(int(r[2] or 0) for r in rows)
    )


def check_global_diversity(
    config: PersonalizedConfig, frequencies: LabelFrequencies, rows: int
) -> None:
    """The safe profile needs every attribute l-diverse over the whole release first: no label
    may hold more than 1/l of the rows (then no grouping can be diverse)."""
    if config.profile != "safe" or rows == 0:
        return
    for attr, sa in enumerate(config.sensitive):
        l = config.l_of(attr)
        top = frequencies.max_count[attr]
        if top * l > rows:
            what = "term" if not isinstance(sa, CategoricalSA) else "value"
            raise InfeasibleError(
                f"{config.key}.sensitive: the most frequent {what} of column {sa.column!r} "
                f"holds {top} of {rows} consenting rows, more than 1/l (l = {l}). Fix: lower "
                "this attribute's l, or (numeric) choose terms that split its values more evenly"
            )
