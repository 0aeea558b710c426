"""Set generalization results and their published text form (Wang et al., KAIS 2019, §2.2 and
§4.1; Wang et al. [24] for set generalization).

A clustering assigns every individual a class (or ``-1``: suppressed, left out of the release).
Each class publishes one identity element:

* a numeric quasi-identifier as ``[lo, hi]`` — both ends inclusive, numbers written as integers
  when integral (``[33, 34]``, a point as ``[36, 36]``), otherwise in Python's shortest
  round-trip form (``[0.5, 1.25]``);
* a categorical quasi-identifier as ``{v1, v2, ...}`` — the values in domain order, separated by
  exactly ``", "``; inside a value ``%``, ``,``, ``{`` and ``}`` are written ``%25``, ``%2C``,
  ``%7B``, ``%7D`` (so a separator never occurs inside a value, and SQL can count a set's
  values as ``1 + the number of commas``); a set is never empty;
* a suppressed value (not published by default) as ``*``.

:func:`parse_generalized` reads the form back. GeneIR's taxonomy nodes are published in the same
form (a numeric node as the interval of its leaves, a categorical node as its leaf set), so both
algorithms share one text form, one loss and one query estimator.

The normalized information loss (Eqs. 11-15): a record's loss sums, over the quasi-identifiers,
``(b* - a*) / (U - L)`` (numeric) or ``(|V*| - 1) / (|X| - 1)`` (categorical), or 1 per
suppressed value; ``NLoss = Σ_records loss / (|D| · |QI|)`` with ``|D|`` counting suppressed
records too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
from scipy import sparse

from anonsql import arrow
from anonsql.algorithms.identity_reserved.encoding import Individuals
from anonsql.arrays import FloatArray, IntArray

SUPPRESSED = "*"
_ESCAPES = (("%", "%25"), (",", "%2C"), ("{", "%7B"), ("}", "%7D"))


@dataclass(frozen=True)
class Interval:
    """A generalized numeric value ``[low, high]`` (inclusive)."""

    low: float
    high: float


@dataclass(frozen=True)
class ValueSet:
    """A generalized categorical value: a non-empty set of values."""

    values: tuple[str, ...]


@dataclass(frozen=True)
class Suppressed:
    """A suppressed value (``*``)."""


def format_number(value: float) -> str:
    """An integral value without a fraction, otherwise the shortest round-trip form."""
    if math.isfinite(value) and value == math.floor(value) and abs(value) < 2.0**53:
        return str(int(value))
    return repr(float(value))


def format_interval(low: float, high: float) -> str:
    return f"[{format_number(low)}, {format_number(high)}]"


def encode_value(value: str) -> str:
    """A value as written inside a set (``%``, ``,``, ``{``, ``}`` percent-encoded)."""
    for raw, code in _ESCAPES:
        value = value.replace(raw, code)
    return value


def decode_value(text: str) -> str:
    for raw, code in reversed(_ESCAPES):
        text = text.replace(code, raw)
    return text


def format_set(values: tuple[str, ...] | list[str]) -> str:
    if not values:
        raise ValueError("a generalized value set is never empty")
    return "{" + ", ".join(encode_value(v) for v in values) + "}"


def parse_generalized(text: str) -> Interval | ValueSet | Suppressed:
    """Read a published value back: ``[lo, hi]``, ``{a, b}`` or ``*``."""
    if text == SUPPRESSED:
        return Suppressed()
    if text.startswith("[") and text.endswith("]"):
        parts = text[1:-1].split(", ")
        if len(parts) != 2:
            raise ValueError("an interval is written [lo, hi]")
        return Interval(float(parts[0]), float(parts[1]))
    if text.startswith("{") and text.endswith("}"):
        return ValueSet(tuple(decode_value(v) for v in text[1:-1].split(", ")))
    raise ValueError("a generalized value is [lo, hi], {a, b, ...} or *")


@dataclass(frozen=True)
class Clustering:
    """A release of individuals in classes with set generalization.

    ``cluster[i]`` is individual ``i``'s class (``-1`` = suppressed); per class ``low``/``high``
    (classes x numeric, in the data's units), ``sets[c]`` (classes x ``|X_c|`` booleans, one
    sparse matrix per categorical quasi-identifier), ``records`` and ``persons``. ``loss`` and
    ``nloss`` are Eqs. 14-15; ``steps``/``merges`` count DAnonyIR's additions and class merges
    (GeneIR: generalization steps); ``nodes`` (classes x categorical) are the taxonomy node ids a
    taxonomy generalization (GeneIR) publishes, None for set generalization.
    """

    algorithm: str
    model: str
    cluster: IntArray
    low: FloatArray
    high: FloatArray
    sets: tuple[sparse.csr_array, ...]
    records: IntArray
    persons: IntArray
    loss: float
    nloss: float
    suppressed_individuals: int
    suppressed_records: int
    seconds: float
    steps: int = 0
    merges: int = 0
    nodes: IntArray | None = None

    @property
    def classes(self) -> int:
        return int(self.records.shape[0])


def set_generalization(
    individuals: Individuals, cluster: IntArray, classes: int
) -> tuple[FloatArray, FloatArray, tuple[sparse.csr_array, ...]]:
    """The identity elements ``δ`` of the classes: numeric ``[min, max]`` and value unions."""
    inside = cluster >= 0
    part = cluster[inside]
    n_num = individuals.low.shape[1]
    low = np.full((classes, n_num), np.inf)
    high = np.full((classes, n_num), -np.inf)
    for a in range(n_num):
        np.minimum.at(low[:, a], part, individuals.low[inside, a])
        np.maximum.at(high[:, a], part, individuals.high[inside, a])
    sets = []
    for c, domain in enumerate(individuals.categorical):
        member = sparse.coo_array(
            (np.ones(part.shape[0], dtype=bool), (part, individuals.codes[inside, c])),
            shape=(classes, domain.size),
        ).tocsr()
        member.sum_duplicates()
        member.sort_indices()
        sets.append(sparse.csr_array(member.astype(bool)))
    return low, high, tuple(sets)


def class_record_loss(
    individuals: Individuals,
    low: FloatArray,
    high: FloatArray,
    sets: tuple[sparse.csr_array, ...],
) -> FloatArray:
    """Per class, the loss of one of its records (Eq. 13)."""
    spans = np.array([d.span for d in individuals.numeric], dtype=np.float64)
    scale = np.divide(1.0, spans, out=np.zeros_like(spans), where=spans > 0)
    loss = ((high - low) * scale).sum(axis=1) if low.shape[1] else np.zeros(low.shape[0])
    for c, domain in enumerate(individuals.categorical):
        if domain.size > 1:
            loss = loss + (np.diff(sets[c].indptr) - 1) / (domain.size - 1)
    out: FloatArray = np.asarray(loss, dtype=np.float64)
    return out


def clustering_from_labels(
    individuals: Individuals,
    labels: npt.ArrayLike,
    *,
    algorithm: str,
    model: str,
    seconds: float,
    steps: int = 0,
    merges: int = 0,
    generalization: tuple[FloatArray, FloatArray, tuple[sparse.csr_array, ...]] | None = None,
    nodes: IntArray | None = None,
) -> Clustering:
    """A :class:`Clustering` from class labels (any non-negative ids; negative = suppressed),
    renumbered by first member. Without ``generalization`` the identity elements are the
    members' set generalization (labels must then be the final classes); ``nodes`` (per label
    id, like ``generalization``) are kept as the classes' taxonomy nodes."""
    raw = np.asarray(labels, dtype=np.int64)
    inside = raw >= 0
    ids, first, dense = np.unique(raw[inside], return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first, kind="stable"), kind="stable")
    cluster = np.full(raw.shape[0], -1, dtype=np.int64)
    cluster[inside] = order[dense.reshape(-1)]
    classes = int(ids.shape[0])
    remap = ids[np.argsort(order, kind="stable")]
    if generalization is None:
        low, high, sets = set_generalization(individuals, cluster, classes)
    else:
        gl, gh, gs = generalization
        low, high = gl[remap], gh[remap]
        sets = tuple(sparse.csr_array(s[remap]) for s in gs)
    part = cluster[inside]
    records = np.bincount(part, weights=individuals.records[inside], minlength=classes).astype(
        np.int64
    )
    persons = np.bincount(part, minlength=classes).astype(np.int64)
    suppressed_records = int(individuals.records[~inside].sum())
    qids = individuals.qid_count
    loss = float((class_record_loss(individuals, low, high, sets) * records).sum())
    loss += suppressed_records * qids
    total = individuals.total_records * qids
    return Clustering(
        algorithm=algorithm,
        model=model,
        cluster=cluster,
        low=low,
        high=high,
        sets=sets,
        records=records,
        persons=persons,
        loss=loss,
        nloss=loss / total if total else 0.0,
        suppressed_individuals=int((~inside).sum()),
        suppressed_records=suppressed_records,
        seconds=seconds,
        steps=steps,
        merges=merges,
        nodes=None if nodes is None else nodes[remap],
    )


def class_texts(individuals: Individuals, clustering: Clustering) -> dict[str, list[str]]:
    """Each class's published value per quasi-identifier (one string per class)."""
    out: dict[str, list[str]] = {}
    for a, domain in enumerate(individuals.numeric):
        out[domain.name] = [
            format_interval(lo, hi)
            for lo, hi in zip(clustering.low[:, a], clustering.high[:, a], strict=True)
        ]
    for c, cat in enumerate(individuals.categorical):
        member = clustering.sets[c]
        labels = np.asarray(cat.values, dtype=object)
        out[cat.name] = [
            format_set(list(labels[member.indices[member.indptr[j] : member.indptr[j + 1]]]))
            for j in range(clustering.classes)
        ]
    return out


def class_table(individuals: Individuals, clustering: Clustering) -> pa.Table:
    """One row per class: ``cluster`` and the published text of every quasi-identifier."""
    columns: dict[str, Any] = {"cluster": np.arange(clustering.classes, dtype=np.int64)}
    columns.update(class_texts(individuals, clustering))
    return arrow.table(columns)


def assignment_table(individuals: Individuals, clustering: Clustering) -> pa.Table:
    """One row per published individual: the person id and its class."""
    keep = clustering.cluster >= 0
    return arrow.table(
        {"person": individuals.ids[keep], "cluster": clustering.cluster[keep].astype(np.int64)}
    )
