"""The attack interface: what an adversary reading a release can do with it, measured in the
engine (SQL aggregates; only figures reach Python), after anonymeter (Giomi, Boenisch,
Wehmeyer, Tasnádi, "A Unified Framework for Quantifying Privacy Risk in Synthetic Data",
PETS 2023): each attack reports a success rate, a baseline (what the adversary achieves without
the release's detail) and the bound the certified models promise, adapted to generalized
releases (an adversary's candidates for a target are the published rows compatible with what
they know of it).

**Adversaries.** An attack runs once per adversary of :meth:`AttackContext.adversaries`: the
one the certified models speak of, who knows the published quasi-identifiers and the columns
acknowledged as determining one (``acknowledge_linked``: they carry quasi-identifier
information), and, when the release publishes other insensitive columns, one who also knows
those. Only the first's results carry a bound (``bound``), which the publish gate enforces
(:mod:`anonsql.attacks.gate`); the second's are reported as not bounded by the models.

A new attack is one module subclassing :class:`Attack` plus its line in
:mod:`anonsql.attacks.registry`; ``tests/conformance/test_attack_conformance.py`` holds it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from anonsql.engines import Engine
from anonsql.measure.linkage import CoveredQid
from anonsql.privacy import PrivacyModel
from anonsql.sql import CountedRows, Relation, TableName

#: A figure beats its bound only beyond this slack (floating-point sums of shares).
SLACK = 1e-9


@dataclass(frozen=True)
class AttackResult:
    """One attack by one adversary on one release.

    ``success``: the adversary's success rate over the individuals attacked (None: not
    measured); ``baseline``: the rate without the release's detail (None: the attack has no
    baseline); ``worst``: the figure the certified models bound (the largest success on one
    target, or the success itself); ``bound``: the largest ``worst`` the certified models
    promise (None: they bound nothing here, ``note`` says why).
    """

    attack: str
    #: The columns the adversary knows of each target (and matches in the release).
    knows: tuple[str, ...]
    #: ``certified``: the adversary the certified models speak of (the quasi-identifiers and
    #: the acknowledged linked columns); ``columns``: one also knowing every insensitive column.
    adversary: str
    success: float | None
    baseline: float | None
    worst: float | None
    bound: float | None
    #: Individuals attacked, and what one is (``rows``, or ``persons`` for 1:M releases).
    attacked: int
    unit: str
    #: The sensitive column an inference attack guesses; None for the others.
    attribute: str | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    #: The auxiliary sample's seed; None where every individual is attacked (no sample).
    seed: int | None = None
    note: str = ""

    @property
    def measured(self) -> bool:
        return self.success is not None

    @property
    def breaks(self) -> bool:
        """Whether the release breaks the bound the certified models promise."""
        return self.bound is not None and self.worst is not None and self.worst > self.bound + SLACK

    def as_dict(self) -> dict[str, Any]:
        return {
            "attack": self.attack,
            "knows": list(self.knows),
            "adversary": self.adversary,
            "success": self.success,
            "baseline": self.baseline,
            "worst": self.worst,
            "bound": self.bound,
            "attacked": self.attacked,
            "unit": self.unit,
            "attribute": self.attribute,
            "parameters": dict(self.parameters),
            "seed": self.seed,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AttackResult:
        return cls(
            attack=str(d["attack"]),
            knows=tuple(d["knows"]),
            adversary=str(d["adversary"]),
            success=d["success"],
            baseline=d["baseline"],
            worst=d["worst"],
            bound=d["bound"],
            attacked=int(d["attacked"]),
            unit=str(d["unit"]),
            attribute=d.get("attribute"),
            parameters=dict(d.get("parameters") or {}),
            seed=d.get("seed"),
            note=str(d.get("note") or ""),
        )

    def describe(self) -> str:
        """One line for the run summary and the CLI."""
        if self.success is None:
            return f"not measured: {self.note}"
        text = f"success {self.success:.4g}"
        if self.baseline is not None:
            text += f" (baseline {self.baseline:.4g})"
        if self.worst is not None and self.worst != self.success:
            text += f", worst target {self.worst:.4g}"
        if self.bound is not None:
            verdict = "BREAKS" if self.breaks else "within"
            text += f"; {verdict} the bound {self.bound:.4g} the certified models promise"
        else:
            why = f" ({self.note})" if self.adversary == CERTIFIED else ""
            text += f"; not bounded by the certified models{why}"
        return text


@dataclass(frozen=True)
class RecoverySource:
    """What the linkage attack reads beside the release: the rows with their original values
    (the adversary's population), the hierarchy nodes of categorical quasi-identifiers, and the
    quasi-identifiers it can place on a line (numeric ones, categorical ones with nodes)."""

    source: Relation
    nodes: TableName | None
    qids: tuple[CoveredQid, ...]
    #: The published columns left out of the linkage gate (``acknowledge_linked``).
    acknowledged: tuple[str, ...] = ()
    #: The recovery figures already read of these relations (a release being published).
    recovered: MutableMapping[str, dict[str, int]] | None = field(
        default=None, compare=False, repr=False
    )
    #: ``source``'s rows counted (the run's), read instead of it (``recovered_rows``).
    counted_source: CountedRows | None = None


@dataclass(frozen=True)
class AttackContext:
    """What an attack reads: a relation with one row per individual (``counted``: or grouped,
    ``n`` rows per group), its published columns by role, the certified models and the
    individuals of the source (those left out of the release count as not attacked
    successfully)."""

    engine: Engine
    relation: TableName
    counted: bool
    qids: tuple[str, ...]
    #: Published columns acknowledged as determining a quasi-identifier.
    linked: tuple[str, ...]
    #: The other insensitive columns published unchanged.
    insensitive: tuple[str, ...]
    sensitive: tuple[str, ...]
    models: tuple[PrivacyModel, ...]
    individuals: int
    unit: str = "rows"
    #: The source and the quasi-identifiers as the recovery measure reads them
    #: (:mod:`anonsql.measure.linkage`); None where the release has no readable source.
    recovery: RecoverySource | None = None
    #: The columns ``relation`` is grouped by when ``counted`` (its rows are their distinct
    #: combinations): a query grouping by exactly these reads the rows as they are.
    grouped_by: frozenset[str] = frozenset()
    #: ``attacks/groups`` rows already read, by known columns (singling out and linkability
    #: read the same grouping for the same adversary: one query each, not two).
    _groups: dict[tuple[str, ...], tuple[Any, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def groups(self, known: tuple[str, ...]) -> tuple[Any, ...]:
        """The release grouped by ``known`` (``attacks/groups``: groups, isolated individuals,
        the smallest group, rows), read once per set of known columns."""
        if known not in self._groups:
            self._groups[known] = self.engine.query(
                "attacks/groups",
                relation=self.relation,
                known=list(known),
                counted=self.counted,
                distinct=self.distinct_on(known),
            )[0]
        return self._groups[known]

    def distinct_on(self, columns: Sequence[str]) -> bool:
        """Whether the relation's rows are the distinct combinations of exactly ``columns``
        (a grouping by them: at 1e7 rows PostgreSQL grouped the 380,000 groups again in 1.4 s
        of the inference attack's 2.3 s)."""
        return self.counted and self.grouped_by == frozenset(columns)

    def adversaries(self) -> list[tuple[tuple[str, ...], str]]:
        """(the columns an adversary knows, which adversary: ``certified`` or ``columns``)."""
        certified = (*self.qids, *self.linked)
        found = [(certified, CERTIFIED)]
        if self.insensitive:
            found.append(((*certified, *self.insensitive), COLUMNS))
        return found


CERTIFIED = "certified"
COLUMNS = "columns"
#: Why the second adversary's results carry no bound.
UNBOUNDED_COLUMNS = "the models are certified over the quasi-identifiers, not the columns beside"


class Attack(ABC):
    """Base of the attacks: one module each, registered in :mod:`anonsql.attacks.registry`."""

    name: ClassVar[str]
    #: One line for the docs and ``anonsql attack``.
    description: ClassVar[str]

    @abstractmethod
    def run(self, ctx: AttackContext) -> list[AttackResult]:
        """The attack's results on the release of ``ctx``, one per adversary (and attribute)."""


def share(count: int, total: int) -> float:
    return count / total if total else 0.0
