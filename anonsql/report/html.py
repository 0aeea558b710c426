"""The HTML report of a release: one self-contained file (inline CSS and SVG charts, no network,
no JavaScript) that a data owner opens in a browser.

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
from anonsql.measure.exposure import linked_exposure
from anonsql.release import PublishedRelease, read_release
from anonsql.report.svg import bar_chart, stacked_chart
from anonsql.spec.relations import parse_relation
from anonsql.sql import TableName

#: Values per marginal chart (the most frequent ones).
TOP_VALUES = 12
#: Metric names (or prefixes) that are re-identification risk figures. HOOK (issue 16, risk
#: metrics, built on another branch): a run whose ``__metrics`` carries rows named so, or whose
#: certificate has a ``risk`` field, gets them listed in the report's risk section.
RISK_METRIC_PREFIXES = ("risk", "prosecutor", "journalist", "marketer", "reidentification")

_INTERVAL = re.compile(r"^\[\s*(-?[\d.eE+-]+)\s*,\s*(-?[\d.eE+-]+)\s*\]$")
_WIDTH_LEVELS = (
    (0.10, "≤ 10 % of range"),
    (0.25, "≤ 25 % of range"),
    (0.50, "≤ 50 % of range"),
    (1.01, "> 50 % of range"),
)


@dataclass(frozen=True)
class Table:
    """A table of text cells (header cells all empty: no header row); the template escapes
    every cell."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    kind: ClassVar[str] = "table"

    @property
    def labelled(self) -> bool:
        return any(self.header)


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


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> Table:
    return Table(tuple(header), tuple(tuple(str(c) for c in row) for row in rows))


def _figure(value: float) -> str:
    return f"{value:,.0f}" if value.is_integer() else f"{value:,.4g}"


def _percent(value: float) -> str:
    return f"{value:.1f} %"


def _size_bins(sizes: Sequence[Mapping[str, Any]]) -> list[tuple[str, float]]:
    """Rows in classes of each size range (powers of two), from (size, classes) counts."""
    bins: dict[int, float] = {}
    for row in sizes:
        size, classes = int(row["class_size"]), int(row["classes"])
        exponent = int(math.log2(size)) if size > 0 else 0
        bins[exponent] = bins.get(exponent, 0.0) + size * classes
    out = []
    for exponent in sorted(bins):
        lo, hi = 2**exponent, 2 ** (exponent + 1) - 1
        out.append((f"{lo}" if lo == hi else f"{lo}–{hi}", bins[exponent]))
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


def gather(engine: Engine, output: str | TableName) -> tuple[PublishedRelease, list[Section]]:
    """Read the release published as ``output`` and build the report's sections."""
    target = output if isinstance(output, TableName) else parse_relation(output, "output")
    release = read_release(
        engine, target, fix="give the name of a relation published by `anonsql run`"
    )
    cert, names = release.certificate, release.names
    # classes count persons in a 1:M release (its class metrics measure one row per person)
    unit = "persons" if release.person is not None else "rows"
    metrics = _rows(engine, "select_all", relation=names.metrics)
    sizes = _rows(engine, "report/class_sizes", classes=names.classes)
    attributes = release.attributes(engine) if engine.exists(names.attributes) else []
    return release, [
        _certificate_section(cert),
        _classes_section(cert, sizes, unit),
        _loss_section(metrics),
        _generalization_section(engine, release, attributes),
        _marginals_section(engine, release),
        _suppression_section(cert),
        _diversity_section(engine, release),
        _risk_section(cert, metrics, sizes, unit),
        _linked_section(cert),
    ]


def _certificate_section(cert: Mapping[str, Any]) -> Section:
    violations = json.loads(str(cert.get("violations") or "{}"))
    facts = [
        ("release", cert["output"]),
        ("source", cert["source"]),
        ("verified", "yes" if cert["verified"] else "NO"),
        ("models", ", ".join(violations) or cert["models"]),
        ("algorithm", cert["algorithm"]),
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
        "What the run certified: the models re-checked by SQL on the published release "
        "(violating classes per model must be 0), and the row counts.",
        (
            _table(["", ""], facts),
            _table(["model", "violating classes"], list(violations.items())),
        ),
    )


def _classes_section(cert: Mapping[str, Any], sizes: list[dict[str, Any]], unit: str) -> Section:
    return Section(
        "Equivalence classes",
        f"{cert['classes']} classes; {unit} by the size of the class they are in. Larger "
        "classes hide individuals better and cost more information.",
        (Chart(bar_chart(_size_bins(sizes), title=f"{unit} by class size")),),
    )


def _loss_section(metrics: list[dict[str, Any]]) -> Section:
    ncp = [
        (str(m["attribute"]), float(m["value"]))
        for m in metrics
        if m["metric"] == "ncp" and m["attribute"] is not None
    ]
    others = [
        (m["metric"], m["attribute"] or "", _figure(float(m["value"])))
        for m in metrics
        if not str(m["metric"]).startswith(RISK_METRIC_PREFIXES)
    ]
    return Section(
        "Information loss",
        "Normalized certainty penalty per quasi-identifier (0 %: published as is, 100 %: "
        "fully generalized), and every metric the run recorded.",
        (
            Chart(bar_chart(ncp, title="NCP per attribute", fmt=_percent)),
            _table(["metric", "attribute", "value"], others),
        ),
    )


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
    return Section(
        "Suppression",
        f"{suppressed} of {source_rows} source rows suppressed "
        f"({_percent(100 * suppressed / (source_rows or 1))}; the limit was "
        f"{_percent(100 * float(cert['suppression_limit']))}).",
        (
            Chart(
                bar_chart(
                    [("published", float(cert["published_rows"])), ("suppressed", suppressed)],
                    title="source rows",
                )
            ),
        ),
    )


def _diversity_section(engine: Engine, release: PublishedRelease) -> Section:
    diversity = []
    for column in release.sensitive:
        counts = _rows(
            engine, "report/diversity", classes=release.names.classes, column=f"distinct {column}"
        )
        bars = [(str(r["distinct_values"]), float(r["n"])) for r in counts]
        diversity.append(Chart(bar_chart(bars, title=f"rows by distinct {column} values in class")))
    return Section(
        "Sensitive-value diversity",
        "Rows by the number of distinct values of each sensitive column in their class "
        "(1 means everyone in the class shares the value)."
        if diversity
        else "The release declares no sensitive column.",
        tuple(diversity),
    )


def _risk_section(
    cert: Mapping[str, Any],
    metrics: list[dict[str, Any]],
    sizes: list[dict[str, Any]],
    unit: str = "rows",
) -> Section:
    rows = sum(int(r["class_size"]) * int(r["classes"]) for r in sizes)
    classes = sum(int(r["classes"]) for r in sizes)
    smallest = min((int(r["class_size"]) for r in sizes), default=0)
    body: list[Block] = [
        Chart(
            bar_chart(
                _risk_bins(sizes), title=f"{unit} by re-identification probability (1/class size)"
            )
        ),
        _table(
            ["figure", "value"],
            [
                ("highest probability (1 / smallest class)", _percent(100 / (smallest or 1))),
                (f"average probability (classes / {unit})", _percent(100 * classes / (rows or 1))),
            ],
        ),
    ]
    # HOOK (issue 16): risk metrics recorded by the run, shown when present
    recorded = [
        (m["metric"], m["attribute"] or "", _figure(float(m["value"])))
        for m in metrics
        if str(m["metric"]).startswith(RISK_METRIC_PREFIXES)
    ]
    if cert.get("risk"):
        recorded += [("certificate: risk", "", str(cert["risk"]))]
    if recorded:
        body.append(_table(["risk metric", "attribute", "value"], recorded))
    return Section(
        "Re-identification risk",
        "An attacker who knows someone is in the data and knows their quasi-identifiers picks "
        "one row of their class: the probability of the right one is 1 / class size.",
        tuple(body),
    )


def _linked_section(cert: Mapping[str, Any]) -> Section:
    exposure = linked_exposure(cert)
    rows = [
        (
            a.column,
            ", ".join(f"{q}: {n} rows" for q, n in a.recovered_rows.items() if n) or "none",
            int(a.small_class_rows or 0),
            ", ".join(a.determines) or "no",
        )
        for a in exposure.acknowledged
    ]
    checked = exposure.columns.recovery
    return Section(
        "Columns published unchanged",
        (
            "Sensitive and insensitive columns published as they are give no quasi-identifier "
            "away and keep every class within the models (the linkage gate): "
            + (", ".join(checked) or "none")
            + ". Acknowledged columns were published anyway; what they expose:"
        )
        if rows
        else "The columns published unchanged ("
        + (", ".join(checked) or "none")
        + ") give no quasi-identifier away and keep every class within the models.",
        (
            _table(
                [
                    "acknowledged column",
                    "quasi-identifier given away for",
                    "rows in classes below k with it",
                    "determines alone",
                ],
                rows,
            ),
        )
        if rows
        else (),
    )


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
    release, sections = gather(engine, output)
    cert = release.certificate
    return _template().render(
        output=str(cert["output"]),
        verified=bool(cert["verified"]),
        published_rows=str(cert["published_rows"]),
        classes=str(cert["classes"]),
        source=str(cert["source"]),
        version=anonsql.__version__,
        sections=sections,
    )


def write_report(engine: Engine, output: str | TableName, path: str | Path) -> Path:
    """Write the report of the release published as ``output`` to ``path`` (HTML)."""
    target = Path(path)
    target.write_text(render_report(engine, output), encoding="utf-8")
    return target
