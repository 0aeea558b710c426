"""Per-individual data for the identity-reserved algorithms, fetched compact and encoded.

DAnonyIR and GeneIR (Wang et al., KAIS 2019, §4 and §5.1) work on *individuals*: all records of
one person stay together. An individual ``p`` is encoded as

* ``records[p]`` — ``|R(p)|``, the person's number of records;
* numeric quasi-identifiers as an interval ``[low, high]`` (the identity element ``r̄_p`` of
  §2.2: a point when the value is the same on every record, else ``[min, max]``), with the
  attribute's domain ``[L, U]`` (declared, or the data's range);
* categorical quasi-identifiers as the code of the person's value in the attribute's domain
  ``X`` (a tuple of value labels; the person's value must be the same on all their records);
* the sensitive set ``S(p)`` as CSR rows of value codes (``sa_indptr``/``sa_codes``), with the
  records per (person, value) in ``sa_records`` (1 everywhere under the paper's assumption that
  a value appears at most once per individual; duplicates are kept as record counts).

:func:`fetch_individuals` aggregates in the engine (three queries: one row per individual, one
per (individual, value), the value labels); :func:`build_individuals` does the same from
in-memory record arrays (fixtures, tests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
from scipy import sparse

from anonsql import arrow
from anonsql.algorithms.identity_reserved.limits import LimitError
from anonsql.arrays import FloatArray, IntArray
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import PartStats
from anonsql.sql import Relation


@dataclass(frozen=True)
class NumericDomain:
    """A numeric quasi-identifier and its domain ``[low, high]`` (Eq. 11's ``[L, U]``)."""

    name: str
    low: float
    high: float

    @property
    def span(self) -> float:
        return self.high - self.low


@dataclass(frozen=True)
class CategoricalDomain:
    """A categorical quasi-identifier and its domain ``X`` (codes index ``values``)."""

    name: str
    values: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.values)


@dataclass(frozen=True)
class Individuals:
    """Encoded individuals, in the order of their person ids (see the module docstring)."""

    ids: npt.NDArray[Any]
    records: IntArray
    numeric: tuple[NumericDomain, ...]
    categorical: tuple[CategoricalDomain, ...]
    low: FloatArray
    high: FloatArray
    codes: IntArray
    sa_indptr: IntArray
    sa_codes: IntArray
    sa_records: IntArray
    sa_values: tuple[Any, ...]

    def __len__(self) -> int:
        return int(self.records.shape[0])

    @property
    def qid_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.numeric) + tuple(d.name for d in self.categorical)

    @property
    def qid_count(self) -> int:
        return len(self.numeric) + len(self.categorical)

    @property
    def value_count(self) -> int:
        """Size of the sensitive domain (codes run ``0 .. value_count - 1``)."""
        return len(self.sa_values)

    @property
    def total_records(self) -> int:
        return int(self.records.sum())

    def set_sizes(self) -> IntArray:
        """``|S(p)|`` per individual."""
        sizes: IntArray = np.diff(self.sa_indptr)
        return sizes

    def sensitive_matrix(self, *, records: bool = False) -> sparse.csr_array:
        """Individuals x values: 1 where the individual has the value (or its record count)."""
        data = self.sa_records if records else np.ones_like(self.sa_codes)
        return sparse.csr_array(
            (data, self.sa_codes, self.sa_indptr), shape=(len(self), self.value_count)
        )

    def set_ids(self) -> tuple[IntArray, IntArray, IntArray]:
        """Distinct sensitive sets: (set id per individual, CSR indptr, codes of each set)."""
        sizes = self.set_sizes()
        width = int(sizes.max()) if len(self) else 0
        padded = np.full((len(self), width), -1, dtype=np.int64)
        rows = np.repeat(np.arange(len(self)), sizes)
        cols = np.arange(self.sa_codes.shape[0]) - self.sa_indptr[rows]
        padded[rows, cols] = self.sa_codes
        unique, inverse = np.unique(padded, axis=0, return_inverse=True)
        present = unique >= 0
        indptr = np.concatenate([[0], np.cumsum(present.sum(axis=1))]).astype(np.int64)
        return inverse.reshape(-1).astype(np.int64), indptr, unique[present].astype(np.int64)

    def take(self, rows: npt.ArrayLike) -> Individuals:
        """The individuals at positions ``rows`` (ascending), with the same domains."""
        index = np.asarray(rows, dtype=np.int64)
        starts = self.sa_indptr[index]
        sizes = self.sa_indptr[index + 1] - starts
        owner = np.repeat(np.arange(index.shape[0]), sizes)
        offset = np.arange(owner.shape[0]) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        entries = starts[owner] + offset
        return Individuals(
            ids=self.ids[index],
            records=self.records[index],
            numeric=self.numeric,
            categorical=self.categorical,
            low=self.low[index],
            high=self.high[index],
            codes=self.codes[index],
            sa_indptr=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
            sa_codes=self.sa_codes[entries],
            sa_records=self.sa_records[entries],
            sa_values=self.sa_values,
        )

    def subset(self, numeric: Sequence[str], categorical: Sequence[str]) -> Individuals:
        """The same individuals with only the named quasi-identifiers (for |QI| sweeps)."""
        num_names = [d.name for d in self.numeric]
        cat_names = [d.name for d in self.categorical]
        ni = [num_names.index(n) for n in numeric]
        ci = [cat_names.index(n) for n in categorical]
        return Individuals(
            ids=self.ids,
            records=self.records,
            numeric=tuple(self.numeric[i] for i in ni),
            categorical=tuple(self.categorical[i] for i in ci),
            low=self.low[:, ni],
            high=self.high[:, ni],
            codes=self.codes[:, ci],
            sa_indptr=self.sa_indptr,
            sa_codes=self.sa_codes,
            sa_records=self.sa_records,
            sa_values=self.sa_values,
        )


def _numeric_domain(
    name: str, low: FloatArray, high: FloatArray, declared: tuple[float, float] | None
) -> NumericDomain:
    data_low = float(low.min()) if low.size else 0.0
    data_high = float(high.max()) if high.size else 0.0
    if declared is None:
        return NumericDomain(name, data_low, data_high)
    lo, hi = float(declared[0]), float(declared[1])
    if lo > data_low or hi < data_high:
        raise SpecError(
            f"domains.{name}",
            "the declared domain does not contain every value of the column",
            "widen the domain to the column's range, or leave it out to use the data's range",
        )
    return NumericDomain(name, lo, hi)


def _category_codes(
    name: str, labels: npt.NDArray[Any], declared: Sequence[str] | None
) -> tuple[CategoricalDomain, IntArray]:
    text = labels.astype(str)
    values = tuple(sorted(set(text.tolist()))) if declared is None else tuple(declared)
    domain = np.asarray(values, dtype=str)
    if len(set(values)) != len(values):
        raise SpecError(f"categories.{name}", "the domain lists a value twice", "list each once")
    order = np.argsort(domain, kind="stable")
    position = np.searchsorted(domain[order], text)
    position = np.minimum(position, max(0, domain.shape[0] - 1))
    codes = order[position] if domain.shape[0] else np.zeros(text.shape[0], dtype=np.int64)
    if text.shape[0] and (domain.shape[0] == 0 or (domain[codes] != text).any()):
        raise SpecError(
            f"categories.{name}",
            "the column holds values outside the declared domain",
            "add them to the domain (e.g. to the hierarchy), or leave the domain out",
        )
    return CategoricalDomain(name, values), codes.astype(np.int64)


def _check_size(persons: int, limit: int | None, key: str) -> None:
    if limit is not None and persons > limit:
        raise LimitError(
            key,
            f"the source has {persons} individuals, above this algorithm's limit of {limit}",
            "anonymize a subset (e.g. per region), or use the person-level Mondrian",
        )


def build_individuals(
    person: npt.ArrayLike,
    sensitive: npt.ArrayLike,
    *,
    numeric: Mapping[str, npt.ArrayLike] | None = None,
    categorical: Mapping[str, npt.ArrayLike] | None = None,
    domains: Mapping[str, tuple[float, float]] | None = None,
    categories: Mapping[str, Sequence[str]] | None = None,
    max_individuals: int | None = None,
) -> Individuals:
    """Individuals from record-level arrays (one entry per record), vectorized.

    ``domains``/``categories`` declare numeric domains and categorical domains by column;
    undeclared ones are the data's range / sorted distinct values.
    """
    numeric = dict(numeric or {})
    categorical = dict(categorical or {})
    ids, index = np.unique(np.asarray(person), return_inverse=True)
    index = index.reshape(-1).astype(np.int64)
    n = int(ids.shape[0])
    _check_size(n, max_individuals, "algorithm")
    records = np.bincount(index, minlength=n).astype(np.int64)
    low = np.full((n, len(numeric)), np.inf)
    high = np.full((n, len(numeric)), -np.inf)
    num_domains = []
    for i, (name, values) in enumerate(numeric.items()):
        column = np.asarray(values, dtype=np.float64)
        np.minimum.at(low[:, i], index, column)
        np.maximum.at(high[:, i], index, column)
        num_domains.append(_numeric_domain(name, low[:, i], high[:, i], (domains or {}).get(name)))
    codes = np.zeros((n, len(categorical)), dtype=np.int64)
    cat_domains = []
    for i, (name, values) in enumerate(categorical.items()):
        domain, record_codes = _category_codes(
            name, np.asarray(values, dtype=object), (categories or {}).get(name)
        )
        first = np.full(n, -1, dtype=np.int64)
        np.maximum.at(first, index, record_codes)
        if (first[index] != record_codes).any():
            raise _varying(name)
        codes[:, i] = first
        cat_domains.append(domain)
    import pandas as pd  # imported when used: most runs never need it

    sa_codes, sa_values = pd.factorize(
        pd.Series(list(np.asarray(sensitive, dtype=object)), dtype=object),
        sort=True,
        use_na_sentinel=False,
    )
    pairs = sparse.coo_array(
        (np.ones(index.shape[0], dtype=np.int64), (index, sa_codes.astype(np.int64))),
        shape=(n, len(sa_values)),
    ).tocsr()
    pairs.sum_duplicates()
    pairs.sort_indices()
    return Individuals(
        ids=ids,
        records=records,
        numeric=tuple(num_domains),
        categorical=tuple(cat_domains),
        low=low,
        high=high,
        codes=codes,
        sa_indptr=pairs.indptr.astype(np.int64),
        sa_codes=pairs.indices.astype(np.int64),
        sa_records=pairs.data.astype(np.int64),
        sa_values=tuple(None if pd.isna(v) else v for v in sa_values),
    )


def _varying(name: str) -> SpecError:
    return SpecError(
        f"columns.{name}",
        "an individual's records carry different values of this categorical quasi-identifier "
        "(the identity-reserved algorithms need one value per individual)",
        "make the column constant per individual, or declare it numeric",
    )


def _column(table: pa.Table, name: str) -> npt.NDArray[Any]:
    values: npt.NDArray[Any] = arrow.to_numpy(table.column(name))
    return values


def fetch_individuals(
    engine: Engine,
    relation: Relation,
    *,
    person: str,
    sensitive: str,
    numeric: Sequence[str] = (),
    categorical: Sequence[str] = (),
    domains: Mapping[str, tuple[float, float]] | None = None,
    categories: Mapping[str, Sequence[str]] | None = None,
    max_individuals: int | None = None,
) -> Individuals:
    """Individuals of ``relation`` (rows of persons), aggregated in the engine.

    Refuses NULL person ids or quasi-identifiers and, before fetching anything per person,
    more than ``max_individuals`` individuals (:class:`LimitError`).
    """
    params: dict[str, Any] = {
        "relation": relation,
        "person": person,
        "sensitive": sensitive,
        "numeric": list(numeric),
        "categorical": list(categorical),
    }
    persons, null_persons, null_qids = engine.query("identity_reserved/profile", **params)[0]
    if null_persons:
        raise SpecError(
            "person_id",
            f"{null_persons} rows have NULL in the person column",
            "fill or exclude them",
        )
    if null_qids:
        raise SpecError(
            "columns",
            f"{null_qids} rows have NULL in a quasi-identifier",
            "fill them (e.g. with a code for 'unknown') or exclude those rows",
        )
    _check_size(int(persons), max_individuals, "algorithm")
    rows = engine.query_arrow("identity_reserved/individuals", **params)
    pairs = engine.query_arrow("identity_reserved/individual_values", **params)
    labels = engine.query_arrow("identity_reserved/sensitive_values", **params)
    n = rows.num_rows
    low = np.zeros((n, len(numeric)))
    high = np.zeros((n, len(numeric)))
    num_domains = []
    for i, name in enumerate(numeric):
        low[:, i] = _column(rows, f"lo{i}").astype(np.float64)
        high[:, i] = _column(rows, f"hi{i}").astype(np.float64)
        num_domains.append(_numeric_domain(name, low[:, i], high[:, i], (domains or {}).get(name)))
    codes = np.zeros((n, len(categorical)), dtype=np.int64)
    cat_domains = []
    for i, name in enumerate(categorical):
        if (_column(rows, f"distinct{i}") > 1).any():
            raise _varying(name)
        domain, codes[:, i] = _category_codes(
            name, _column(rows, f"cat{i}"), (categories or {}).get(name)
        )
        cat_domains.append(domain)
    index = _column(pairs, "idx").astype(np.int64)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(index, minlength=n))]).astype(np.int64)
    return Individuals(
        ids=_column(rows, "person"),
        records=_column(rows, "records").astype(np.int64),
        numeric=tuple(num_domains),
        categorical=tuple(cat_domains),
        low=low,
        high=high,
        codes=codes,
        sa_indptr=indptr,
        sa_codes=_column(pairs, "code").astype(np.int64),
        sa_records=_column(pairs, "records").astype(np.int64),
        sa_values=tuple(labels.column("sa").to_pylist()),
    )


def individual_part_stats(
    individuals: Individuals, labels: npt.ArrayLike, parts: int, column: str
) -> PartStats:
    """:class:`~anonsql.privacy.base.PartStats` of the parts ``labels`` assigns individuals to
    (``-1`` = none), with every optional field for individuals: ``counts`` and ``histograms``
    count individuals, ``records``/``record_histograms`` records, and the distinct sensitive
    sets of the table are ``set_members``."""
    label = np.asarray(labels, dtype=np.int64)
    used = label >= 0
    part = label[used]
    records = individuals.records[used]
    sizes = individuals.set_sizes()
    value_part = np.repeat(label, sizes)
    keep = value_part >= 0
    value_part = value_part[keep]
    codes = individuals.sa_codes[keep]
    value_records = individuals.sa_records[keep]
    shape = (parts, individuals.value_count)
    set_id, set_indptr, set_codes = individuals.set_ids()
    members = sparse.csr_array(
        (np.ones_like(set_codes), set_codes, set_indptr),
        shape=(set_indptr.shape[0] - 1, individuals.value_count),
    )
    max_records = np.zeros(parts, dtype=np.int64)
    np.maximum.at(max_records, part, records)
    return PartStats(
        counts=np.bincount(part, minlength=parts).astype(np.int64),
        histograms={column: hist.from_triples(value_part, codes, np.ones_like(codes), shape)},
        records=np.bincount(part, weights=records, minlength=parts).astype(np.int64),
        max_person_records=max_records,
        record_histograms={column: hist.from_triples(value_part, codes, value_records, shape)},
        set_histograms={
            column: hist.from_triples(
                part, set_id[used], np.ones_like(part), (parts, members.shape[0])
            )
        },
        set_members={column: members},
    )
