"""What a privacy model's predicate says about a table, computed with pandas independently of
anonsql's SQL: shared by the model and algorithm conformance suites."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from anonsql.engines import ColumnInfo
from anonsql.errors import SpecError
from anonsql.privacy import PRIVACY_MODELS, PartStats, PrivacyModel


def instances(name: str, column: str, sa_type: str) -> list[PrivacyModel]:
    """The model's examples (reading ``column``) that accept a column of ``sa_type``, by the
    model's own column check."""
    cls = PRIVACY_MODELS.get(name)
    assert cls.examples, f"{name} declares no examples for the conformance suite"
    found = []
    for position, example in enumerate(cls.examples):
        params = {**example, "column": column} if cls.needs_sensitive else dict(example)
        model = cls.from_spec(params, key=f"examples[{position}]")
        try:
            model.check_columns({column: ColumnInfo.of(column, sa_type, "duckdb")}, "examples")
        except SpecError:
            continue
        found.append(model)
    return found


def _codes(values: pd.Series) -> tuple[np.ndarray, int]:
    """Dense codes in ascending value order, NULL last (as the pipeline codes values)."""
    present = sorted({v for v in values if v is not None and not pd.isna(v)})
    codes = pd.Categorical(values, categories=present).codes.astype(np.int64)
    codes[codes < 0] = len(present)
    return codes, len(present) + int((codes == len(present)).any())


def stats_of(
    frame: pd.DataFrame,
    qids: Sequence[str],
    model: PrivacyModel,
    *,
    sa: str | None,
    person: str | None,
) -> PartStats:
    """What the model's predicate sees for each class of ``frame`` (rows, or rows of persons
    linked by ``person``): individuals per class and the sensitive histograms, where persons
    are counted once and a person's SA fingerprint is the set of their values."""
    qids = list(qids)
    column = sa or "__sa"
    if model.counts_persons:
        assert person is not None
        if model.reads_fingerprints:
            assert sa is not None
            fingerprints = frame.groupby(person)[sa].agg(lambda s: repr(sorted(set(s))))
            units = frame.drop_duplicates(person)[[person, *qids]].copy()
            units[column] = units[person].map(fingerprints)
        else:
            units = frame.drop_duplicates([person, *qids])[[person, *qids]].copy()
    else:
        units = frame
    classes = units.groupby(qids, dropna=False, sort=False).ngroup().to_numpy()
    if model.needs_sensitive:
        codes, width = _codes(units[column])
    else:
        codes, width = np.zeros(len(units), np.int64), 1
    histogram = np.zeros((classes.max() + 1, width), dtype=np.int64)
    np.add.at(histogram, (classes, codes), 1)
    totals = np.bincount(codes, minlength=width).astype(np.int64)
    keyed = {model.sensitive_column or column: histogram} if model.needs_sensitive else {}
    return PartStats(
        counts=histogram.sum(axis=1),
        histograms=keyed,
        global_counts={k: totals for k in keyed},
    )


def predicate_violations(
    frame: pd.DataFrame,
    qids: Sequence[str],
    model: PrivacyModel,
    *,
    sa: str | None,
    person: str | None,
) -> int:
    """Classes where the predicate fails, plus the model's table-level violations."""
    stats = stats_of(frame, qids, model, sa=sa, person=person)
    return int((~model.holds(stats)).sum()) + model.table_violations(stats.global_counts)
