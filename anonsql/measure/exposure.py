"""What the acknowledged columns expose, and the certificate's ``linked_columns`` field.

A column published with ``acknowledge_linked: true`` is left out of the linkage gate
(:mod:`anonsql.measure.linkage`); the measure step records what it exposes instead, beside
everything the gate read (:class:`LinkedExposure`). The certificate holds it as one JSON field,
``linked_columns``::

    {
      "recovery_columns": ["disease", "note"],  # what the gate's recovery measure read
      "class_columns": ["note"],                 # the insensitive ones refining its classes
      "acknowledged": {                          # one entry per acknowledged column
        "zone": {
          "role": "insensitive",                 # or "sensitive"
          "determines": ["city"],                # quasi-identifiers it alone exactly determines
          "recovered_rows": {"city": 120},       # rows whose generalized value is recovered
                                                 #   through the gate's columns and this one
          "small_class_rows": 37                 # rows in classes (quasi-identifiers, class
                                                 #   columns, this one) below the release's
                                                 #   bound, in individuals; null if sensitive
        }
      },
      "combined": {...}                          # the same figures for every acknowledged
                                                 #   column together, or null (fewer than two)
    }

:func:`linked_exposure` reads it back typed (the run summary, the HTML report, ``anonsql
check``), and :meth:`LinkedExposure.warnings` words what it shows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from anonsql.measure.linkage import LinkageTarget, recovered_rows
from anonsql.resolve.linked import LinkageColumns, LinkedColumn


@dataclass(frozen=True)
class AcknowledgedExposure:
    """What one acknowledged column exposes (see the module docstring for each figure)."""

    column: str
    role: str
    determines: tuple[str, ...] = ()
    recovered_rows: Mapping[str, int] = field(default_factory=dict)
    small_class_rows: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "determines": list(self.determines),
            "recovered_rows": dict(self.recovered_rows),
            "small_class_rows": self.small_class_rows,
        }

    def warning(self) -> str | None:
        """The exposure in words, or None when it exposes nothing."""
        parts = [f"gives {q} away for {n} rows" for q, n in self.recovered_rows.items() if n]
        if self.small_class_rows:
            parts.append(f"{self.small_class_rows} rows in classes below k with it")
        if self.determines and not parts:
            parts.append(f"determines {', '.join(self.determines)}")
        if not parts:
            return None
        if self.role == "combined":
            return f"{self.column} together (acknowledged): " + "; ".join(parts)
        return f"{self.column} (acknowledged, {self.role}): " + "; ".join(parts)


@dataclass(frozen=True)
class LinkedExposure:
    """The certificate's ``linked_columns``: the columns the gate read, and what each
    acknowledged column exposes."""

    columns: LinkageColumns = field(default_factory=LinkageColumns)
    acknowledged: tuple[AcknowledgedExposure, ...] = ()
    #: Every acknowledged column together (``column`` lists them), when there are several.
    combined: AcknowledgedExposure | None = None

    def as_json(self) -> str:
        return json.dumps(
            {
                "recovery_columns": list(self.columns.recovery),
                "class_columns": list(self.columns.classes),
                "acknowledged": {a.column: a.as_dict() for a in self.acknowledged},
                "combined": self.combined.as_dict() if self.combined is not None else None,
            },
            sort_keys=True,
        )

    def warnings(self) -> list[str]:
        """One line per acknowledged column that exposes something (and one for them all
        together)."""
        found = [*self.acknowledged, *([self.combined] if self.combined is not None else [])]
        return [w for a in found if (w := a.warning()) is not None]


def linked_exposure(certificate: Mapping[str, Any]) -> LinkedExposure:
    """The ``linked_columns`` of a certificate, typed (an older certificate's per-column shape
    is read as well: its acknowledged columns, nothing of what its gate read)."""
    raw = certificate.get("linked_columns")
    found = json.loads(raw) if isinstance(raw, str) and raw else {}
    if not isinstance(found, dict):
        return LinkedExposure()
    if "recovery_columns" not in found:
        return _legacy(found)
    acknowledged = tuple(
        AcknowledgedExposure(
            column=str(column),
            role=str(facts.get("role", "insensitive")),
            determines=tuple(facts.get("determines") or ()),
            recovered_rows=_counts(facts.get("recovered_rows")),
            small_class_rows=_optional_int(facts.get("small_class_rows")),
        )
        for column, facts in found.get("acknowledged", {}).items()
    )
    sensitive = tuple(a.column for a in acknowledged if a.role == "sensitive")
    recovery = tuple(found["recovery_columns"])
    classes = tuple(found.get("class_columns") or ())
    columns = LinkageColumns(
        recovery=recovery,
        classes=classes,
        acknowledged=tuple(a.column for a in acknowledged),
        sensitive=(*(c for c in recovery if c not in classes), *sensitive),
    )
    combined = found.get("combined")
    together = None
    if isinstance(combined, dict):
        together = AcknowledgedExposure(
            ", ".join(a.column for a in acknowledged),
            "combined",
            recovered_rows=_counts(combined.get("recovered_rows")),
            small_class_rows=_optional_int(combined.get("small_class_rows")),
        )
    return LinkedExposure(columns, acknowledged, together)


def _legacy(found: Mapping[str, Any]) -> LinkedExposure:
    acknowledged = tuple(
        AcknowledgedExposure(
            column=str(column),
            role="sensitive" if facts.get("small_class_rows") is None else "insensitive",
            determines=tuple(facts["acknowledged_determines"]),
            recovered_rows=_counts(facts.get("revealed_rows")),
            small_class_rows=_optional_int(facts.get("small_class_rows")),
        )
        for column, facts in found.items()
        if isinstance(facts, dict) and facts.get("acknowledged_determines")
    )
    return LinkedExposure(
        LinkageColumns(acknowledged=tuple(a.column for a in acknowledged)), acknowledged
    )


def _counts(value: Any) -> dict[str, int]:
    return {str(q): int(n) for q, n in (value or {}).items()}


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def acknowledged_exposure(
    target: LinkageTarget,
    k: int,
    *,
    person: str | None = None,
    determined: Sequence[LinkedColumn] = (),
) -> LinkedExposure:
    """Measure each acknowledged column of ``target``: the rows recovered through the gate's
    columns and it (one query), and for an insensitive one the rows in classes refined by the
    class columns and it holding fewer than ``k`` individuals (one query; persons by ``person``
    where the models count persons); with several, all of them together as well."""
    columns = target.columns
    determines = {d.column: d.determines for d in determined}
    found = [
        AcknowledgedExposure(
            column,
            columns.role(column),
            determines.get(column, ()),
            *_exposure(target, [column], k, person),
        )
        for column in columns.acknowledged
    ]
    combined = None
    if len(columns.acknowledged) > 1:
        combined = AcknowledgedExposure(
            ", ".join(columns.acknowledged),
            "combined",
            (),
            *_exposure(target, list(columns.acknowledged), k, person),
        )
    return LinkedExposure(columns, tuple(found), combined)


def _exposure(
    target: LinkageTarget, extra: Sequence[str], k: int, person: str | None
) -> tuple[dict[str, int], int | None]:
    """Rows recovered per quasi-identifier through the gate's columns and ``extra``, and rows
    in classes below ``k`` refined by the class columns and the insensitive ones of ``extra``
    (None when ``extra`` is all sensitive)."""
    columns = target.columns
    recovered = recovered_rows(
        target.engine,
        target.grouped or target.relation,
        target.source,
        target.nodes,
        target.qids,
        [*columns.recovery, *extra],
        weighted=target.grouped is not None,
        memo=target.recovered,
        counted=target.counted,
    )
    known = [c for c in extra if c not in columns.sensitive]
    if not known:
        return recovered, None
    weighted = target.grouped is not None and person is None
    row = target.engine.query(
        "linked/small_rows",
        relation=target.grouped if weighted else target.relation,
        keys=[*(q.column for q in target.qids), *columns.classes, *known],
        k=k,
        person=person,
        weighted=weighted,
    )[0]
    return recovered, int(row[0] or 0)
