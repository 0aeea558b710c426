"""Published columns that undo the generalization (docs/security.md, "Linkage").

A sensitive or insensitive column is published unchanged beside the generalized
quasi-identifiers. Alone or with others it can give a quasi-identifier's original value away
(*recovery*: Adult's ``education`` is a one-to-one recoding of ``education_num``), and an
insensitive one, which an adversary may know, refines the release's classes. The publish gate
(:mod:`anonsql.measure.linkage`) measures both exactly on the release and refuses it with a
:class:`LinkageError`; this module holds what the resolve step and the gate share: which
columns each measure reads (:func:`linkage_columns`), the findings and the error, and the
cheap early refusal of a column that alone *exactly* determines a quasi-identifier (each of its
values occurs with one value of it), found before any partitioning.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.spec import Role, Spec
from anonsql.sql import Relation

if TYPE_CHECKING:
    from anonsql.privacy.base import PrivacyModel

#: The fixes every linkage refusal names.
LINKAGE_FIXES = (
    "declare {columns} a quasi-identifier (role: quasi_identifier), leave {them} out of the "
    "release (remove {them} from columns), or publish {them} anyway with "
    "`acknowledge_linked: true` (the release then protects less than its models say; the "
    "certificate and the run summary record the exposure)"
)


@dataclass(frozen=True)
class LinkedColumn:
    """A published column and the quasi-identifiers it exactly determines."""

    column: str
    determines: tuple[str, ...]


@dataclass(frozen=True)
class LinkageColumns:
    """The published columns each linkage measure reads.

    ``recovery``: every column published unchanged (sensitive and insensitive) that is not
    acknowledged; the adversary reads them all beside the generalized values. ``classes``: the
    insensitive ones among them, which the adversary may know of a target and which therefore
    refine the classes the models must hold on. ``acknowledged``: the columns the spec publishes
    with ``acknowledge_linked: true`` (left out of both, measured for the certificate), with
    ``roles`` naming each one's role.
    """

    recovery: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    acknowledged: tuple[str, ...] = ()
    sensitive: tuple[str, ...] = ()

    def role(self, column: str) -> str:
        return "sensitive" if column in self.sensitive else "insensitive"


def linkage_columns(spec: Spec, published: Sequence[str]) -> LinkageColumns:
    """The linkage measures' columns among ``published`` (the columns published unchanged,
    in order)."""
    acknowledged = tuple(c for c in published if spec.columns[c].acknowledge_linked)
    sensitive = tuple(c for c in published if spec.columns[c].role is Role.SENSITIVE)
    recovery = tuple(c for c in published if c not in acknowledged)
    return LinkageColumns(
        recovery=recovery,
        classes=tuple(c for c in recovery if c not in sensitive),
        acknowledged=acknowledged,
        sensitive=sensitive,
    )


def refinable(model: PrivacyModel) -> bool:
    """Whether the model is a statistic of classes that stays meaningful on classes refined by
    other columns: not a person-keyed one (1:M consistency: a person's rows agree on the
    quasi-identifiers, not on other columns), nor one reading a population table keyed by the
    quasi-identifiers (k-map: the population holds no other column)."""
    return model.guard != "person" and "population" not in model.requires


@dataclass(frozen=True)
class LinkageFinding:
    """One way the published columns break a release: through ``columns`` (the smallest
    combination found), either ``rows`` published rows whose quasi-identifier ``qid`` is
    recovered, or ``classes`` classes refined by ``columns`` that violate ``model``."""

    columns: tuple[str, ...]
    qid: str | None = None
    rows: int = 0
    model: str | None = None
    classes: int = 0
    #: Found by the early check, before anything was partitioned: ``columns`` (one) exactly
    #: determines ``qid``, and ``rows`` counts the source's rows, each given away once
    #: generalized.
    exact: bool = False

    @property
    def kind(self) -> str:
        """``recovery`` or ``classes``."""
        return "recovery" if self.qid is not None else "classes"

    def describe(self) -> str:
        names = ", ".join(self.columns)
        together = "together " if len(self.columns) > 1 else ""
        if self.qid is not None and self.exact:
            return (
                f"{names} gives away the quasi-identifier {self.qid!r}: each of its values "
                f"occurs with a single value of it, so each of the {self.rows} rows is given "
                "away once generalized"
            )
        if self.qid is not None:
            return (
                f"{names} {together}give{'' if len(self.columns) > 1 else 's'} away the "
                f"quasi-identifier {self.qid!r} of {_rows(self.rows)} published generalized"
            )
        return (
            f"{names} {together}split{'' if len(self.columns) > 1 else 's'} the classes (an "
            f"adversary may know {'them' if together else 'it'}) into {self.classes} that "
            f"violate {self.model}"
        )


def _rows(n: int) -> str:
    return f"{n} row" if n == 1 else f"{n} rows"


#: The most column combinations a refusal's message describes (``findings`` holds them all).
SHOWN_COMBINATIONS = 6


def describe_findings(findings: Sequence[LinkageFinding]) -> str:
    """The findings in words, grouped by combination of columns (at most
    :data:`SHOWN_COMBINATIONS` of them)."""
    groups: dict[tuple[str, ...], list[LinkageFinding]] = {}
    for finding in findings:
        groups.setdefault(finding.columns, []).append(finding)
    parts = []
    for columns, found in list(groups.items())[:SHOWN_COMBINATIONS]:
        names = ", ".join(columns)
        verb = "together give" if len(columns) > 1 else "gives"
        exact = [f for f in found if f.qid is not None and f.exact]
        recovered = [f for f in found if f.qid is not None and not f.exact]
        classes = [f for f in found if f.qid is None]
        said = []
        if exact:
            qids = ", ".join(repr(f.qid) for f in exact)
            said.append(
                f"{verb} away {qids}: each of its values occurs with a single value, so each of "
                f"the {exact[0].rows} rows is given away once generalized"
            )
        if recovered:
            what = ", ".join(f"{f.qid!r} of {_rows(f.rows)}" for f in recovered)
            said.append(f"{verb} away {what} published generalized")
        for f in classes:
            split = "split" if len(columns) > 1 else "splits"
            said.append(f"{split} the classes into {f.classes} that violate {f.model}")
        parts.append(f"{names} " + " and ".join(said))
    if len(groups) > SHOWN_COMBINATIONS:
        parts.append(f"and {len(groups) - SHOWN_COMBINATIONS} more combinations")
    text = "; ".join(parts)
    if any(f.qid is None for f in findings):
        text += " (an adversary may know an insensitive column, so it splits the classes)"
    return text


class LinkageError(SpecError):
    """Published columns give quasi-identifiers away or refine classes below the models; the
    release was refused (nothing published). ``findings`` says how, for tools that fix specs
    (``anonsql init``)."""

    def __init__(self, findings: Sequence[LinkageFinding], *, published: bool = False) -> None:
        self.findings = tuple(findings)
        columns = list(dict.fromkeys(c for f in self.findings for c in f.columns))
        several = len(columns) > 1
        problem = "published unchanged, " + describe_findings(self.findings)
        if published:
            problem += "; nothing was published, the previous output is intact"
        fix = LINKAGE_FIXES.format(
            columns=" or ".join(repr(c) for c in columns),
            them="them" if several else "it",
        )
        super().__init__(f"columns.{columns[0]}" if columns else "columns", problem, fix)


#: The rows an engine's screen of the linked columns may read instead of every row
#: (PostgreSQL's: engines/postgres/templates/linked/splits.sql).
SCREEN_ROWS = 100_000


def linked_columns(
    engine: Engine,
    source: Relation,
    columns: Sequence[str],
    qids: Sequence[str],
    *,
    boolean: Collection[str] = (),
) -> list[LinkedColumn]:
    """The columns among ``columns`` that functionally determine a quasi-identifier of
    ``qids`` (one query per column, counts only); ``boolean`` names the quasi-identifiers of
    boolean type (compared with BOOL_AND/BOOL_OR, as PostgreSQL has no MIN of booleans)."""
    found = []
    params = [{"column": q, "boolean": q in boolean} for q in qids]
    common = {"source": source, "qids": params, "screen_rows": SCREEN_ROWS}
    for column in columns:
        row = engine.query("linked/splits", column=column, screen=True, **common)[0]
        # a screen (DuckDB's and Spark's compare hashes, PostgreSQL's reads some rows) proves
        # a quasi-identifier several-valued and split only: where it found one single-valued
        # or not split, the exact counts decide
        undecided = any(
            int(row[2 * i] or 0) == 0 or int(row[2 * i + 1] or 0) == 0 for i in range(len(qids))
        )
        if int(row[-1] or 0) and undecided:
            row = engine.query("linked/splits", column=column, screen=False, **common)[0]
        determined = tuple(
            q
            for i, q in enumerate(qids)
            if int(row[2 * i] or 0) == 1 and int(row[2 * i + 1] or 0) == 0
        )
        if determined:
            found.append(LinkedColumn(column, determined))
    return found


def check_linked_columns(
    engine: Engine,
    spec: Spec,
    source: Relation,
    columns: Sequence[str],
    qids: Sequence[str],
    *,
    rows: int,
    boolean: Collection[str] = (),
) -> list[LinkedColumn]:
    """The early refusal: a published column that alone exactly determines a quasi-identifier
    recovers it on every row published generalized, so the gate would refuse the release after
    the whole search; refuse it now unless acknowledged (``rows``: the source's, each of which
    is given away once generalized). Return the acknowledged ones."""
    acknowledged = []
    for linked in linked_columns(engine, source, columns, qids, boolean=boolean):
        if spec.columns[linked.column].acknowledge_linked:
            acknowledged.append(linked)
            continue
        raise LinkageError(
            [
                LinkageFinding((linked.column,), qid=q, rows=rows, exact=True)
                for q in linked.determines
            ]
        )
    return acknowledged
