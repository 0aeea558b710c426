"""Phases 4-7 of the pipeline: per-attribute buckets, and duplicates climbing the taxonomy.

Reddy, Raju, Valli Kumari (IJET 2018) §3.1 steps 5 and 8: every sensitive attribute is split
horizontally into buckets of at least K values that are distinct, duplicates being
"transformed to higher levels of taxonomy". Decisions (digest 002 §3.2, G4-G6, G9):

* the bucket count is m = floor(n / max(bucket_k, l)) (the digest's Rule B, which reproduces
  the example's structure, T7/T8); each attribute is bucketized on its own (G4);
* cells are dealt round-robin in order of (label frequency desc, label, keyed draw), so a label
  held f <= m times lands in f buckets and bucket sizes differ by at most one; a numeric
  attribute deals its raw values in the paper profile (the paper's distinctness is on values)
  and its terms, then values, in the safe profile (term diversity, digest F4);
* of the cells of one bucket sharing a label, ``sensitivity_threshold`` keep it and the others
  climb to the parent, repeatedly, until no label but a root repeats; a repeated root is kept
  (it reveals nothing) and counted (G9). Numeric attributes have no taxonomy: their repeated
  raw values are counted, not repaired (digest F5).

With the safe profile's default bucket_k = l and a release that is l-diverse as a whole
(checked before grouping), m >= the largest label count, so no bucket repeats a label and
nothing climbs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from anonsql.algorithms.personalized.config import PersonalizedConfig
from anonsql.algorithms.personalized.mixing import Mixers
from anonsql.algorithms.personalized.names import WorkTables
from anonsql.algorithms.personalized.prepare import sensitive_params
from anonsql.engines.base import Engine
from anonsql.errors import InfeasibleError
from anonsql.sql import TableName


@dataclass(frozen=True)
class AttributeBuckets:
    """The buckets of one sensitive attribute after duplicate repair."""

    attribute: str
    buckets: int
    min_size: int
    max_size: int
    #: cells published with a taxonomy ancestor of their value
    generalized_cells: int
    #: cells repeating a root label in their bucket (beyond the sensitivity threshold)
    root_repeats: int
    #: numeric attributes: cells repeating a raw value already in their bucket
    raw_repeats: int


@dataclass(frozen=True)
class Bucketing:
    """Every attribute's buckets, the final cells table and the climbing rounds it took."""

    attributes: tuple[AttributeBuckets, ...]
    cells: TableName
    rounds: int


def bucket_counts(config: PersonalizedConfig, rows: int) -> list[int]:
    """The number of buckets of every sensitive attribute."""
    out = []
    for attr in range(len(config.sensitive)):
        size = max(config.bucket_k_of(attr), config.l_of(attr))
        if rows and rows < size:
            raise InfeasibleError(
                f"{config.key}.bucket_k: {rows} rows consent, fewer than the bucket size "
                f"{size} of column {config.sensitive_columns[attr]!r}. Fix: lower bucket_k or l"
            )
        out.append(max(1, rows // size))
    return out


def bucketize(
    engine: Engine, config: PersonalizedConfig, work: WorkTables, rows: int, mixers: Mixers
) -> Bucketing:
    """Create the cells of every sensitive attribute, dealt into buckets, and repair repeated
    labels; return the final cells table (``work.cells(rounds)``) with per-attribute stats."""
    counts = bucket_counts(config, rows)
    step = config.published_weight_step
    sensitive: list[dict[str, Any]] = []
    for s, m in zip(sensitive_params(config), counts, strict=True):
        attr = s["attr"]
        numeric = s["kind"] == "numeric"
        if numeric and config.profile == "paper_compat":
            primary, secondary = f"x{attr}", None
        elif numeric:
            primary, secondary = f"s{attr}", f"x{attr}"
        else:
            primary, secondary = f"s{attr}", None
        sensitive.append(
            {**s, "buckets": m, "primary": primary, "secondary": secondary, "step": step}
        )
    engine.run(
        "personalized/cells",
        target=work.cells(0),
        rows=work.rows,
        sensitive=sensitive,
        mixer=mixers.ties,
    )
    threshold = config.sensitivity_threshold
    limit = 1 + max(
        (sa.taxonomy.height for sa in config.categorical),
        default=0,
    )
    rounds = 0
    while True:
        current = work.cells(rounds)
        repeated = int(
            engine.query(
                "personalized/repeated_labels",
                cells=current,
                labels=work.labels,
                threshold=threshold,
            )[0][0]
        )
        if repeated == 0:
            break
        # a kept cell is never displaced, so a cell climbs in consecutive rounds only
        assert rounds < limit, "duplicate repair does not converge"
        engine.run(
            "personalized/climb",
            target=work.cells(rounds + 1),
            cells=current,
            labels=work.labels,
            threshold=threshold,
            round=rounds,
        )
        engine.drop(current)
        rounds += 1
    cells = work.cells(rounds)
    engine.analyze(cells)
    stats = {
        int(r[0]): r
        for r in engine.query(
            "personalized/bucket_stats", cells=cells, labels=work.labels, threshold=threshold
        )
    }
    attributes = []
    for attr, column in enumerate(config.sensitive_columns):
        r = stats.get(attr)
        if r is None:
            attributes.append(AttributeBuckets(column, 0, 0, 0, 0, 0, 0))
            continue
        attributes.append(
            AttributeBuckets(
                attribute=column,
                buckets=int(r[1]),
                min_size=int(r[2]),
                max_size=int(r[3]),
                generalized_cells=int(r[4]),
                root_repeats=int(r[5]),
                raw_repeats=int(r[6]),
            )
        )
    return Bucketing(tuple(attributes), cells, rounds)
