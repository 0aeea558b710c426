"""The HTML report of a release: one self-contained file (inline CSS and SVG charts, no network,
no JavaScript) that a data owner (or a data protection officer) opens in a browser.

It leads with the verdict (:mod:`anonsql.report.verdict`): what the release protects, each
certified model in words and what it counts, and what it does not (declared sensitive columns no
model reads, exposure of published columns, changes since certification), with a badge that is
green only when nothing is left unprotected; then the source's re-identification risk beside the
release's, and the figures behind them. A figure nothing measured is "not measured", never 0.

Everything it shows is read back from the release, through the release reader and the release's
companions (``__classes``, ``__metrics``, ``__certificate``, ``__attributes``,
``__hierarchy_nodes``) and aggregate queries (``sql_templates/report/``). It holds the
**source's** most frequent quasi-identifier values: keep it where the source may be read.

:func:`gather` reads the release into :class:`Section` s of plain text, tables and charts; the
page is rendered by ``templates/report.html.j2`` with autoescaping on, so names and values from
the data are text wherever they appear. Only the charts go in unescaped: they are
:class:`~markupsafe.Markup` made by :mod:`anonsql.report.svg`, which escapes every text it draws.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import jinja2
from markupsafe import Markup

import anonsql
from anonsql.engines import Engine
from anonsql.privacy import largest_k
from anonsql.release import PublishedRelease, read_release
from anonsql.report.labels import NOT_MEASURED, RISK_FIGURES, formatted, label
from anonsql.report.svg import bar_chart, stacked_chart
from anonsql.report.verdict import ExposureFinding, Verdict, verdict
from anonsql.spec.relations import parse_relation
from anonsql.sql import TableName

#: Values per marginal chart (the most frequent ones).
TOP_VALUES = 12
#: Metric names (or prefixes) that are re-identification risk figures: listed in the risk
#: section, not among the information-loss metrics.
RISK_METRIC_PREFIXES = ("risk", "prosecutor", "journalist", "marketer", "reidentification")

_INTERVAL = re.compile(r"^\[\s*(-?[\d.eE+-]+)\s*,\s*(-?[\d.eE+-]+)\s*\]$")
_WIDTH_LEVELS = (
    (0.10, "≤ 10 % of range"),
    (0.25, "≤ 25 % of range"),
    (0.50, "≤ 50 % of range"),
    (1.01, "> 50 % of range"),
)


@dataclass(frozen=True)
class Cell:
    """One table cell: its text, a tooltip (``title``: e.g. the metric key behind a readable
    name) and a style (``bad``, ``warn``, ``na`` for "not measured")."""

    text: str
    title: str | None = None
    style: str | None = None


@dataclass(frozen=True)
class Table:
    """A table of text cells (header cells all empty: no header row); the template escapes
    every cell."""

    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    kind: ClassVar[str] = "table"

    @property
    def labelled(self) -> bool:
        return any(self.header)

    def column(self, index: int) -> list[str]:
        """The texts of one column."""
        return [row[index].text for row in self.rows]


@dataclass(frozen=True)
class Chart:
    """One chart, as drawn (and escaped) by :mod:`anonsql.report.svg`."""

    svg: Markup
    kind: ClassVar[str] = "chart"


@dataclass(frozen=True)
class ChartRow:
    """Charts side by side (a source chart and its release chart)."""

    charts: tuple[Markup, ...]
    kind: ClassVar[str] = "row"


Block = Table | Chart | ChartRow


@dataclass(frozen=True)
class Section:
    """One titled part of the report: an explanation, then charts and tables."""

    title: str
    intro: str
    body: tuple[Block, ...]


def _rows(engine: Engine, template: str, **params: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = engine.query_arrow(template, **params).to_pylist()
    return rows


def _cell(value: object) -> Cell:
    if isinstance(value, Cell):
        return value
    text = str(value)
    return Cell(text, style="na" if text.startswith(NOT_MEASURED) else None)


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> Table:
    return Table(tuple(header), tuple(tuple(_cell(c) for c in row) for row in rows))


def _metric_cell(key: str) -> Cell:
    """A metric's readable name, its key in the tooltip."""
    return Cell(label(key).text, title=key)


def _figure(value: float) -> str:
    return f"{value:,.0f}" if value.is_integer() else f"{value:,.4g}"


def _percent(value: float) -> str:
    return f"{value:.1f} %"


def _size_bins(sizes: Sequence[Mapping[str, Any]], k: int | None) -> list[tuple[str, float]]:
    """Individuals in classes of each size range, from (size, classes) counts: ranges double from
    ``k`` (k to 2k-1, 2k to 4k-1, ...; every range up to the largest class, empty ones too), so
    the first is the classes at the bound and none straddles it; classes below ``k``, if any,
    in one range before."""
    k = max(int(k or 1), 1)
    bins: dict[int, float] = {}
    for row in sizes:
        size, classes = int(row["class_size"]), int(row["classes"])
        # bin -1: below k; bin e >= 0: [k * 2^e, k * 2^(e+1) - 1]
        index = -1 if size < k else int(math.log2(size // k))
        while index >= 0 and k * 2**index > size:  # float log2 at exact powers
            index -= 1
        while index >= 0 and k * 2 ** (index + 1) <= size:
            index += 1
        bins[index] = bins.get(index, 0.0) + size * classes
    # every range from k's up to the largest class's, empty ones too: the first is [k, 2k - 1]
    ranges = [-1] if -1 in bins else []
    ranges += list(range(0, max(bins, default=-1) + 1))
    out = []
    for index in ranges:
        lo, hi = (1, k - 1) if index < 0 else (k * 2**index, k * 2 ** (index + 1) - 1)
        text = f"{lo}" if lo == hi else f"{lo}–{hi}"
        out.append((f"{text} (below k)" if index < 0 else text, bins.get(index, 0.0)))
    return out


_RISK_BINS = (
    (1.0, "100 % (unique)"),
    (0.5, "> 50 %"),
    (0.2, "20–50 %"),
    (0.1, "10–20 %"),
    (0.05, "5–10 %"),
    (0.01, "1–5 %"),
    (0.0, "≤ 1 %"),
)


def _risk_bins(sizes: Sequence[Mapping[str, Any]]) -> list[tuple[str, float]]:
    """Rows by their re-identification probability 1 / class size (prosecutor model)."""
    counts = {label: 0.0 for _, label in _RISK_BINS}
    for row in sizes:
        size, classes = int(row["class_size"]), int(row["classes"])
        risk = 1.0 / size if size > 0 else 1.0
        label = next(
            lbl
            for bound, lbl in _RISK_BINS
            if risk > bound or bound == 0.0 or (bound == 1.0 and risk >= 1.0)
        )
        counts[label] += size * classes
    return list(counts.items())


def _numeric_level(value: str, lo: float, hi: float) -> str:
    match = _INTERVAL.match(value)
    if match is None:
        return "original value"
    width = (float(match.group(2)) - float(match.group(1))) / ((hi - lo) or 1.0)
    return next(label for bound, label in _WIDTH_LEVELS if width <= bound)


def _source_relation(release: PublishedRelease, engine: Engine) -> TableName:
    live = release.names.source
    if engine.exists(live):
        return live
    return parse_relation(release.source, "source")


def _hierarchy_nodes(
    engine: Engine, release: PublishedRelease
) -> dict[str, dict[str, tuple[int, int]]]:
    """Per QID, each hierarchy node's (depth, leaf count) by its label."""
    nodes: dict[str, dict[str, tuple[int, int]]] = {}
    if engine.exists(release.names.hierarchy_nodes):
        for node in _rows(engine, "select_all", relation=release.names.hierarchy_nodes):
            nodes.setdefault(str(node["attribute"]), {})[str(node["label"])] = (
                int(node["depth"]),
                int(node["leaf_count"]),
            )
    return nodes


def _level(
    value: object, attribute: Mapping[str, Any], nodes: Mapping[str, tuple[int, int]]
) -> str:
    """The generalization level of one published value of a QID (``nodes``: its hierarchy's)."""
    if value is None:
        return "withheld (NULL)"
    if attribute.get("kind") == "numeric":
        return _numeric_level(
            str(value), float(attribute["min_value"]), float(attribute["max_value"])
        )
    depth, leaves = nodes.get(str(value), (-1, 1))
    if value == "*" or depth == 0:
        return "root (*)"
    if leaves <= 1:
        return "original value"
    return f"hierarchy level {depth}"


def _level_order(name: str) -> tuple[int, str]:
    """Levels from the least generalized: original values, narrow intervals or deep hierarchy
    levels first, the root last."""
    if name == "original value":
        return (0, "")
    if name.endswith("of range"):
        return (1, str([lbl for _, lbl in _WIDTH_LEVELS].index(name)))
    if name.startswith("hierarchy level"):
        return (2, f"{1000 - int(name.rsplit(' ', 1)[1]):04d}")
    return (3, name)


def _generalization(
    engine: Engine, release: PublishedRelease, attributes: list[dict[str, Any]]
) -> tuple[str, list[tuple[str, list[tuple[str, float]]]]]:
    """Per QID, the share of released rows at each generalization level."""
    nodes = _hierarchy_nodes(engine, release)
    by_name = {str(a["attribute"]): a for a in attributes}
    rows: list[tuple[str, list[tuple[str, float]]]] = []
    for qid in release.qids:
        counts: dict[str, float] = {}
        for row in _rows(
            engine, "report/value_counts", relation=release.names.main, column=qid, limit=None
        ):
            level = _level(row["value"], by_name.get(qid, {}), nodes.get(qid, {}))
            counts[level] = counts.get(level, 0.0) + float(row["n"])
        rows.append((qid, [(k, counts[k]) for k in sorted(counts, key=_level_order)]))
    intro = (
        "Share of released rows at each generalization level: the original value, a "
        "hierarchy level (numbered from the root, 0) or the root *; numeric columns by the "
        "width of their interval relative to the column's range."
    )
    return intro, rows


@dataclass(frozen=True)
class Report:
    """A release's report as the page shows it: the verdict first, then the sections."""

    release: PublishedRelease
    verdict: Verdict
    sections: tuple[Section, ...]


def gather(engine: Engine, output: str | TableName) -> Report:
    """Read the release published as ``output`` and build the report: its verdict and sections."""
    target = output if isinstance(output, TableName) else parse_relation(output, "output")
    release = read_release(
        engine, target, fix="give the name of a relation published by `anonsql run`"
    )
    cert, names = release.certificate, release.names
    found = verdict(engine, release)
    unit = found.counting.unit
    metrics = _rows(engine, "select_all", relation=names.metrics)
    sizes = _rows(engine, "report/class_sizes", classes=names.classes)
    attributes = release.attributes(engine) if engine.exists(names.attributes) else []
    sections = (
        _verdict_section(found),
        _risk_section(cert, metrics, sizes, unit),
        _certificate_section(cert),
        _classes_section(cert, sizes, unit, largest_k(release.models)),
        _loss_section(metrics),
        _generalization_section(engine, release, attributes),
        _marginals_section(engine, release),
        _suppression_section(cert),
        _diversity_section(engine, release, unit),
    )
    return Report(release, found, sections)


def _verdict_section(found: Verdict) -> Section:
    protects = _table(
        ["certified check", "what it bounds", "counts", "violating classes"],
        [
            (
                c.check,
                c.words,
                c.counts,
                Cell(
                    NOT_MEASURED if c.violations is None else str(c.violations),
                    style=None if c.holds else "bad",
                ),
            )
            for c in found.claims
        ],
    )
    gaps = _table(
        ["not protected"],
        [(Cell(text, style="warn"),) for text in found.not_protected]
        or [
            (
                "nothing found: every declared sensitive column is read by a check, and no "
                "column published unchanged gives a quasi-identifier away or splits a class "
                "below the bound",
            )
        ],
    )
    body: list[Block] = [protects, gaps]
    if found.exposure or found.unprotected_sensitive:
        body.append(_exposure_table(found))
    body.append(_table(["", ""], [("what k counts", found.counting.text)]))
    stale = ("source changed since certification", "yes")
    changes = [
        (Cell(lbl, style="warn" if (lbl, v) == stale else None), v)
        for lbl, v in found.changes.facts
    ]
    body.append(_table(["changes since certification", "now"], changes))
    return Section(
        "Verdict: what the release protects and what it does not",
        found.badge,
        tuple(body),
    )


def _exposure_table(found: Verdict) -> Table:
    """Per column published beside the quasi-identifiers: what it gives away."""
    rows: list[tuple[object, ...]] = []
    for column in found.unprotected_sensitive:
        if any(f.column == column for f in found.exposure):
            continue
        rows.append(
            (
                column,
                Cell("sensitive, no model reads it", style="warn"),
                NOT_MEASURED,
                "not applicable: analysts do not know sensitive values",
                "no",
            )
        )
    for f in found.exposure:
        rows.append(_exposure_row(found, f))
    return _table(
        [
            "column published unchanged",
            "role",
            "quasi-identifiers given away (rows recovered)",
            "rows in classes below the bound with it",
            "acknowledged",
        ],
        rows,
    )


def _exposure_row(found: Verdict, f: ExposureFinding) -> tuple[object, ...]:
    if f.recovered_rows is None:
        recovered: object = NOT_MEASURED
    elif f.recovered:
        recovered = Cell(
            ", ".join(f"{q}: {n} of {found.published_rows}" for q, n in f.recovered.items()),
            style="warn",
        )
    else:
        recovered = "none"
    if f.sensitive:
        below: object = "not applicable: analysts do not know sensitive values"
    elif f.below_bound_rows is None:
        below = NOT_MEASURED
    else:
        below = Cell(
            f"{f.below_bound_rows} of {found.published_rows}",
            style="warn" if f.below_bound_rows else None,
        )
    role: object = "sensitive" if f.sensitive else "insensitive"
    if f.sensitive and f.column in found.unprotected_sensitive:
        role = Cell("sensitive, no model reads it", style="warn")
    acknowledged = "determines " + ", ".join(f.acknowledged) if f.acknowledged else "no"
    return (f.column, role, recovered, below, acknowledged)


def _certificate_section(cert: Mapping[str, Any]) -> Section:
    facts = [
        ("release", cert["output"]),
        ("source", cert["source"]),
        ("verified", "yes" if cert["verified"] else "NO"),
        ("algorithm", cert["algorithm"]),
        (
            "layout",
            cert.get("layout")
            or ("person" if cert.get("person_level") not in (None, "null") else "record"),
        ),
        ("source rows", cert["source_rows"]),
        ("published rows", cert["published_rows"]),
        ("suppressed rows", cert["suppressed_rows"]),
        ("equivalence classes", cert["classes"]),
        ("NCP", _percent(float(cert["ncp_percent"]))),
        ("certified at", cert["created_at"]),
        ("run", cert["run_id"]),
        ("spec sha256", str(cert["spec_sha256"])[:16] + "…"),
        ("anonsql version", cert["anonsql_version"]),
    ]
    return Section(
        "Certificate",
        "What the run recorded beside the release (the checks and their violations are in the "
        "verdict above).",
        (_table(["", ""], facts),),
    )


def _classes_section(
    cert: Mapping[str, Any], sizes: list[dict[str, Any]], unit: str, k: int | None
) -> Section:
    bound = f"Ranges start at k = {k}: the first holds the classes at the bound." if k else ""
    return Section(
        "Equivalence classes",
        f"{cert['classes']} classes; {unit} by the size of the class they are in. Larger "
        f"classes hide individuals better and cost more information. {bound}".strip(),
        (Chart(bar_chart(_size_bins(sizes, k), title=f"{unit} by class size")),),
    )


def _loss_section(metrics: list[dict[str, Any]]) -> Section:
    ncp = [
        (str(m["attribute"]), float(m["value"]))
        for m in metrics
        if m["metric"] == "ncp" and m["attribute"] is not None
    ]
    others = [
        (
            _metric_cell(str(m["metric"])),
            m["attribute"] or "",
            formatted(_number(m["value"]), label(str(m["metric"])).kind),
        )
        for m in metrics
        if not str(m["metric"]).startswith(RISK_METRIC_PREFIXES)
    ]
    return Section(
        "Information loss",
        "Normalized certainty penalty per quasi-identifier (0 %: published as is, 100 %: "
        "fully generalized), and every metric the run recorded (its key in the tooltip).",
        (
            Chart(bar_chart(ncp, title="NCP per attribute", fmt=_percent)),
            _table(["metric", "attribute", "value"], others),
        ),
    )


def _number(value: object) -> float | None:
    return None if value is None else float(str(value))


def _generalization_section(
    engine: Engine, release: PublishedRelease, attributes: list[dict[str, Any]]
) -> Section:
    intro, levels = _generalization(engine, release, attributes)
    return Section(
        "What each quasi-identifier was generalized to",
        intro,
        (Chart(stacked_chart(levels, title="share of released rows per level", width=720)),),
    )


def _marginals_section(engine: Engine, release: PublishedRelease) -> Section:
    source = _source_relation(release, engine)
    rows = []
    for qid in release.qids:
        charts = []
        for title, relation in (
            (f"{qid}: source", source),
            (f"{qid}: release", release.names.main),
        ):
            counts = _rows(
                engine, "report/value_counts", relation=relation, column=qid, limit=TOP_VALUES
            )
            bars = [
                ("(null)" if r["value"] is None else str(r["value"]), float(r["n"])) for r in counts
            ]
            charts.append(bar_chart(bars, title=title, width=430))
        rows.append(ChartRow(tuple(charts)))
    return Section(
        "Source and release marginals",
        f"The {TOP_VALUES} most frequent values of each quasi-identifier in the source "
        "(left) and in the release (right). The source side holds original values.",
        tuple(rows),
    )


def _suppression_section(cert: Mapping[str, Any]) -> Section:
    source_rows = int(cert["source_rows"])
    suppressed = int(cert["suppressed_rows"])
    withheld = int(cert.get("withheld_rows") or 0)
    bars: list[tuple[str, float]] = [
        ("published", float(cert["published_rows"])),
        ("suppressed", suppressed),
    ]
    if withheld:
        bars.append(("withheld (no consent)", withheld))
    return Section(
        "Suppression",
        f"{suppressed} of {source_rows} source rows suppressed "
        f"({_percent(100 * suppressed / (source_rows or 1))}; the limit was "
        f"{_percent(100 * float(cert['suppression_limit']))}).",
        (Chart(bar_chart(bars, title="source rows")),),
    )


def _diversity_section(engine: Engine, release: PublishedRelease, unit: str) -> Section:
    """Distinct values per class of each sensitive column the class table counts (a layout
    counts the columns its models read: ``Layout.class_sensitive``)."""
    counted = [
        c.name
        for c in engine.columns(release.names.classes) or []
        if c.name.startswith("distinct ")
    ]
    diversity = []
    for name in counted:
        column = name.removeprefix("distinct ")
        counts = _rows(engine, "report/diversity", classes=release.names.classes, column=name)
        bars = [(str(r["distinct_values"]), float(r["n"])) for r in counts]
        diversity.append(
            Chart(bar_chart(bars, title=f"{unit} by distinct {column} values in class"))
        )
    if diversity:
        intro = (
            f"{unit.capitalize()} by the number of distinct values of each sensitive column in "
            "their class (1 means everyone in the class shares the value)."
        )
    elif release.sensitive:
        intro = (
            f"{NOT_MEASURED}: the class table of this {release.layout} release counts no "
            f"sensitive values (sensitive columns: {', '.join(release.sensitive)}; the checks "
            "that protect them are in the verdict)."
        )
    else:
        intro = (
            f"{NOT_MEASURED}: no model of this release reads a sensitive column (the verdict "
            "lists declared sensitive columns left unprotected)."
        )
    return Section("Sensitive-value diversity", intro, tuple(diversity))


def _risk_section(
    cert: Mapping[str, Any],
    metrics: list[dict[str, Any]],
    sizes: list[dict[str, Any]],
    unit: str = "rows",
) -> Section:
    source = _source_risk(cert)
    release = {
        str(m["metric"]): _number(m["value"])
        for m in metrics
        if str(m["metric"]).startswith(RISK_METRIC_PREFIXES) and m["attribute"] is None
    }
    figures = [
        (
            _metric_cell("risk." + key),
            formatted(source.get(key), label("risk." + key).kind),
            formatted(release.get("risk." + key), label("risk." + key).kind),
        )
        for key in RISK_FIGURES
    ]
    known = {"risk." + key for key in RISK_FIGURES}
    figures += [
        (
            _metric_cell(key),
            formatted(source.get(key.removeprefix("risk.")), label(key).kind),
            formatted(value, label(key).kind),
        )
        for key, value in release.items()
        if key not in known
    ]
    rows = sum(int(r["class_size"]) * int(r["classes"]) for r in sizes)
    classes = sum(int(r["classes"]) for r in sizes)
    smallest = min((int(r["class_size"]) for r in sizes), default=0)
    per_class = _table(
        ["from the published classes", "value"],
        [
            (
                "highest probability (1 / smallest class)",
                _percent(100 / smallest) if smallest else NOT_MEASURED,
            ),
            (
                f"average probability (classes / {unit})",
                _percent(100 * classes / rows) if rows else NOT_MEASURED,
            ),
        ],
    )
    return Section(
        "Re-identification risk: source and release",
        "The risk of the source as it was (the certificate's source_risk) beside the release's "
        "(the risk figures of __metrics), by ARX's attacker models: a prosecutor knows the "
        "target is in the data, a journalist does not, a marketer re-identifies as many as "
        "possible. Records at risk: the share of records whose risk is above the threshold.",
        (
            _table(["figure", "source", "release"], figures),
            Chart(
                bar_chart(
                    _risk_bins(sizes),
                    title=f"{unit} by re-identification probability (1/class size)",
                )
            ),
            per_class,
        ),
    )


def _source_risk(cert: Mapping[str, Any]) -> dict[str, float | None]:
    raw = cert.get("source_risk")
    try:
        found = json.loads(raw) if isinstance(raw, str) and raw else {}
    except ValueError:
        found = {}
    if not isinstance(found, dict):
        return {}
    return {str(k): _number(v) for k, v in found.items()}


@cache
def _template() -> jinja2.Template:
    # autoescape everything: only the charts (Markup from anonsql.report.svg) go in as they are
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("anonsql.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return environment.get_template("report.html.j2")


def render_report(engine: Engine, output: str | TableName) -> str:
    """The report of the release published as ``output``, as one HTML document."""
    report = gather(engine, output)
    cert = report.release.certificate
    return _template().render(
        output=str(cert["output"]),
        verdict=report.verdict,
        published_rows=str(cert["published_rows"]),
        classes=str(cert["classes"]),
        source=str(cert["source"]),
        version=anonsql.__version__,
        sections=report.sections,
    )


def write_report(engine: Engine, output: str | TableName, path: str | Path) -> Path:
    """Write the report of the release published as ``output`` to ``path`` (HTML)."""
    target = Path(path)
    target.write_text(render_report(engine, output), encoding="utf-8")
    return target
