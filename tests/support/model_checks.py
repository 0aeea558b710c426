"""What a privacy model's predicate says about a table, computed with pandas independently of
anonsql's SQL: shared by the model and algorithm conformance suites."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
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


def _codes(values: pd.Series) -> tuple[npt.NDArray[np.int64], int]:
    """Dense codes in ascending value order, NULL last (as the pipeline codes values)."""
    present = sorted({v for v in values if v is not None and not pd.isna(v)})
    codes = pd.Categorical(values, categories=present).codes.astype(np.int64)
    codes[codes < 0] = len(present)
    return codes, len(present) + int((codes == len(present)).any())


def _text(values: pd.Series) -> tuple[str | None, ...]:
    """The text of each code of :func:`_codes` (None for NULL), as the engines cast values."""
    present = sorted({v for v in values if v is not None and not pd.isna(v)})
    has_null = any(v is None or pd.isna(v) for v in values)
    return tuple(str(v) for v in present) + ((None,) if has_null else ())


def _keys(frame: pd.DataFrame, qids: Sequence[str]) -> list[tuple[object, ...]]:
    """Each row's QID vector, NULL as None (so NULL matches NULL, as SQL's grouping does)."""
    return [
        tuple(None if v is None or pd.isna(v) else v for v in row)
        for row in frame[list(qids)].itertuples(index=False)
    ]


def individual_stats(
    frame: pd.DataFrame, qids: Sequence[str], model: PrivacyModel, *, sa: str, person: str
) -> PartStats:
    """Models over individuals owning several records (a person's rows, each with its own
    sensitive value; identity-reserved data): every optional field of PartStats, per class.

    An individual is a (class, person) pair and every statistic is taken within the class:
    ``counts`` individuals, ``records`` rows, ``max_person_records`` the most rows of one
    individual, ``histograms`` the individuals having each value, ``record_histograms`` the rows
    with each value, ``set_histograms`` the individuals per distinct set of values (the sets
    numbered over the whole table, ``set_members``). A model declaring a
    ``record_count_refinement`` bound is judged on count-refined classes: the class key is the
    quasi-identifiers plus the individual's number of rows in the class."""
    rows = frame[[person, *qids]].copy()
    keys = list(qids)
    if any(b.kind == "record_count_refinement" for b in model.bounds()):
        rows["__records"] = (
            rows.assign(__one=1).groupby([*qids, person], dropna=False)["__one"].transform("size")
        )
        keys.append("__records")
    rows["__class"] = rows.groupby(keys, dropna=False, sort=False).ngroup().to_numpy()
    rows["__code"], width = _codes(frame[sa])
    classes = int(rows["__class"].max()) + 1
    cls = rows["__class"].to_numpy(np.int64)
    code = rows["__code"].to_numpy(np.int64)
    record_histogram = np.zeros((classes, width), dtype=np.int64)
    np.add.at(record_histogram, (cls, code), 1)
    per_individual = rows.groupby(["__class", person], sort=False)
    sizes = per_individual.size().reset_index(name="n")
    max_records = sizes.groupby("__class")["n"].max().reindex(range(classes)).to_numpy(np.int64)
    pairs = rows.drop_duplicates(["__class", person, "__code"])
    histogram = np.zeros((classes, width), dtype=np.int64)
    np.add.at(histogram, (pairs["__class"].to_numpy(), pairs["__code"].to_numpy()), 1)
    # pandas-stubs allow only scalars from an aggregation; pandas keeps the tuples as objects
    sets_of = per_individual["__code"].agg(lambda c: tuple(sorted(set(c))))  # type: ignore[type-var]
    value_sets = sets_of.reset_index()
    set_id, distinct_sets = pd.factorize(value_sets["__code"])
    set_histogram = np.zeros((classes, len(distinct_sets)), dtype=np.int64)
    np.add.at(set_histogram, (value_sets["__class"].to_numpy(), set_id), 1)
    members = np.zeros((len(distinct_sets), width), dtype=np.int64)
    for j, values in enumerate(distinct_sets):
        members[j, list(values)] = 1
    counts = np.bincount(value_sets["__class"].to_numpy(), minlength=classes).astype(np.int64)
    column = model.sensitive_column or sa
    return PartStats(
        counts=counts,
        histograms={column: histogram},
        global_counts={column: np.bincount(code, minlength=width).astype(np.int64)},
        records=record_histogram.sum(axis=1),
        max_person_records=max_records,
        record_histograms={column: record_histogram},
        set_histograms={column: set_histogram},
        set_members={column: members},
    )


def reads_records(model: PrivacyModel) -> bool:
    """Whether the model counts persons but reads a sensitive value on each of their rows."""
    return model.counts_persons and model.needs_sensitive and not model.reads_fingerprints


def stats_of(
    frame: pd.DataFrame,
    qids: Sequence[str],
    model: PrivacyModel,
    *,
    sa: str | None,
    person: str | None,
    population: pd.DataFrame | None = None,
) -> PartStats:
    """What the model's predicate sees for each class of ``frame`` (rows, or rows of persons
    linked by ``person``): individuals per class and the sensitive histograms, where persons
    are counted once and a person's SA fingerprint is the set of their values (or, for models
    reading each row's value, :func:`individual_stats`); and what the model ``requires``
    besides: the text of the sensitive codes, and each class's persons in ``population`` (rows
    with the same QID columns)."""
    qids = list(qids)
    column = sa or "__sa"
    if reads_records(model):
        assert person is not None and sa is not None
        return individual_stats(frame, qids, model, sa=sa, person=person)
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
    reads_text = "sensitive_values" in model.requires
    values = {k: _text(units[column]) for k in keyed} if reads_text else {}
    sizes = None
    if "population" in model.requires:
        assert population is not None, f"{model.name} needs a population table"
        persons = Counter(_keys(population, qids))
        first: dict[int, tuple[object, ...]] = {}
        for group, key in zip(classes, _keys(units, qids), strict=True):
            first.setdefault(int(group), key)
        sizes = np.array([persons[first[g]] for g in range(len(first))], dtype=np.float64)
    return PartStats(
        counts=histogram.sum(axis=1),
        histograms=keyed,
        global_counts={k: totals for k in keyed},
        values=values,
        population=sizes,
    )


def predicate_violations(
    frame: pd.DataFrame,
    qids: Sequence[str],
    model: PrivacyModel,
    *,
    sa: str | None,
    person: str | None,
    population: pd.DataFrame | None = None,
) -> int:
    """Classes where the predicate fails, plus the model's violations of the whole table
    (fingerprint buckets; a table-level model's one row)."""
    stats = stats_of(frame, qids, model, sa=sa, person=person, population=population)
    return (
        int((~model.holds(stats)).sum())
        + model.table_violations(stats.global_counts)
        + model.table_level_violations(stats)
    )
