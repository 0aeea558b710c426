"""Helpers of the identity-reserved tests: loading relations, and the models' violations computed
independently in Python (per-class statistics with pandas, the predicates over PartStats)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from anonsql.algorithms.identity_reserved.encoding import build_individuals, individual_part_stats
from anonsql.engines import Engine
from anonsql.privacy.identity_reserved import (
    EIRAlphaBetaAnonymity,
    EIRLDiversity,
    IdentityReservedModel,
    IRAlphaBetaAnonymity,
    IRKLAnonymity,
)
from anonsql.sql import TableName

_tables = itertools.count()

Key = tuple[Any, ...]


def load(engine: Engine, columns: Mapping[str, Sequence[Any]], name: str = "t") -> TableName:
    relation = TableName(f"{name}{next(_tables)}", "main")
    engine.load_arrow(relation, pa.table({c: list(v) for c, v in columns.items()}))
    return relation


def model(name: str, **params: Any) -> IdentityReservedModel:
    classes: dict[str, type[IdentityReservedModel]] = {
        "ir_kl_anonymity": IRKLAnonymity,
        "ir_alpha_beta_anonymity": IRAlphaBetaAnonymity,
        "eir_l_diversity": EIRLDiversity,
        "eir_alpha_beta_anonymity": EIRAlphaBetaAnonymity,
    }
    built = classes[name].from_spec(params, key=f"privacy[0].{name}")
    assert isinstance(built, IdentityReservedModel)
    return built


def sql_violations(
    engine: Engine,
    m: IdentityReservedModel,
    relation: TableName,
    qids: Sequence[str],
    person: str,
) -> dict[Key, tuple[Any, ...]]:
    rows = engine.fetchall(m.violations_sql(engine.sql, relation, qids, person=person))
    width = len(qids) + int(m.protects_record_counts)
    return {tuple(row[:width]): tuple(row[width:]) for row in rows}


def python_violations(
    m: IdentityReservedModel,
    columns: Mapping[str, Sequence[Any]],
    qids: Sequence[str],
    person: str,
    sa: str,
) -> set[Key]:
    """Classes violating ``m`` by its predicate: each (class, person) pair is one individual
    (statistics restricted to the class), classes from the QID vectors (NULLs equal), refined
    by the individual's record count in the class when the model protects record counts."""
    frame = pd.DataFrame({c: pd.Series(list(v), dtype=object) for c, v in columns.items()})
    keys_of = list(qids)
    if m.protects_record_counts:
        frame["__count"] = frame.groupby([*qids, person], dropna=False)[sa].transform("size")
        keys_of.append("__count")
    class_id = frame.groupby(keys_of, dropna=False, sort=False).ngroup().to_numpy()
    keys: dict[int, Key] = {}
    for i, cid in enumerate(class_id):
        keys.setdefault(int(cid), tuple(frame[q].iloc[i] for q in keys_of))
    person_codes = pd.factorize(frame[person])[0]
    pair = class_id.astype(np.int64) * (int(person_codes.max()) + 1) + person_codes
    individuals = build_individuals(pair, np.asarray(columns[sa], dtype=object))
    base = int(person_codes.max()) + 1
    labels = (individuals.ids // base).astype(np.int64)
    stats = individual_part_stats(individuals, labels, len(keys), m.column)
    holds = m.holds(stats)
    return {keys[c] for c in range(len(keys)) if not holds[c]}
