"""The HTML report of a release: one self-contained file (inline CSS and SVG charts, no network,
no JavaScript) that a data owner opens in a browser.

Everything it shows is read back from the release, through the release reader and the release's
companions (``__classes``, ``__metrics``, ``__certificate``, ``__attributes``,
``__hierarchy_nodes``) and aggregate queries (``sql_templates/report/``). It holds the
**source's** most frequent quasi-identifier values: keep it where the source may be read.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import anonsql
from anonsql.engines import Engine
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
class Section:
    """One titled part of the report: an explanation, charts (SVG) and tables (HTML)."""

    title: str
    intro: str
    body: tuple[str, ...]


def _rows(engine: Engine, template: str, **params: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = engine.query_arrow(template, **params).to_pylist()
    return rows


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    thead = f"<thead><tr>{head}</tr></thead>" if any(header) else ""
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table>{thead}<tbody>{body}</tbody></table>"


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


def _generalization(
    engine: Engine, release: PublishedRelease, attributes: list[dict[str, Any]]
) -> tuple[str, list[tuple[str, list[tuple[str, float]]]]]:
    """Per QID, the share of released rows at each generalization level."""
    nodes: dict[str, dict[str, tuple[int, int]]] = {}
    if engine.exists(release.names.hierarchy_nodes):
        for node in _rows(engine, "select_all", relation=release.names.hierarchy_nodes):
            nodes.setdefault(str(node["attribute"]), {})[str(node["label"])] = (
                int(node["depth"]),
                int(node["leaf_count"]),
            )
    by_name = {str(a["attribute"]): a for a in attributes}
    rows: list[tuple[str, list[tuple[str, float]]]] = []
    for qid in release.qids:
        counts: dict[str, float] = {}
        attribute = by_name.get(qid, {})
        for row in _rows(
            engine, "report/value_counts", relation=release.names.main, column=qid, limit=None
        ):
            value, n = row["value"], float(row["n"])
            if value is None:
                level = "withheld (NULL)"
            elif attribute.get("kind") == "numeric":
                level = _numeric_level(
                    str(value), float(attribute["min_value"]), float(attribute["max_value"])
                )
            else:
                depth, leaves = nodes.get(qid, {}).get(str(value), (-1, 1))
                if value == "*" or depth == 0:
                    level = "root (*)"
                elif leaves <= 1:
                    level = "original value"
                else:
                    level = f"hierarchy level {depth}"
            counts[level] = counts.get(level, 0.0) + n

        def order(name: str) -> tuple[int, str]:
            if name == "original value":
                return (0, "")
            if name.endswith("of range"):
                return (1, str([lbl for _, lbl in _WIDTH_LEVELS].index(name)))
            if name.startswith("hierarchy level"):
                return (2, f"{1000 - int(name.rsplit(' ', 1)[1]):04d}")
            return (3, name)

        rows.append((qid, [(k, counts[k]) for k in sorted(counts, key=order)]))
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
    cert = release.certificate
    names = release.names
    sections: list[Section] = []
    # classes count persons in a 1:M release (its class metrics measure one row per person)
    unit = "persons" if release.person is not None else "rows"
    metrics = _rows(engine, "select_all", relation=names.metrics)
    sizes = _rows(engine, "report/class_sizes", classes=names.classes)
    attributes = release.attributes(engine) if engine.exists(names.attributes) else []

    # summary and certificate
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
    sections.append(
        Section(
            "Certificate",
            "What the run certified: the models re-checked by SQL on the published release "
            "(violating classes per model must be 0), and the row counts.",
            (
                _table(["", ""], facts),
                _table(["model", "violating classes"], list(violations.items())),
            ),
        )
    )
    # class sizes
    sections.append(
        Section(
            "Equivalence classes",
            f"{cert['classes']} classes; {unit} by the size of the class they are in. Larger "
            "classes hide individuals better and cost more information.",
            (bar_chart(_size_bins(sizes), title=f"{unit} by class size"),),
        )
    )
    # information loss
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
    sections.append(
        Section(
            "Information loss",
            "Normalized certainty penalty per quasi-identifier (0 %: published as is, 100 %: "
            "fully generalized), and every metric the run recorded.",
            (
                bar_chart(ncp, title="NCP per attribute", fmt=_percent),
                _table(["metric", "attribute", "value"], others),
            ),
        )
    )
    # generalization levels
    intro, levels = _generalization(engine, release, attributes)
    sections.append(
        Section(
            "What each quasi-identifier was generalized to",
            intro,
            (stacked_chart(levels, title="share of released rows per level", width=720),),
        )
    )
    # marginals
    source = _source_relation(release, engine)
    charts = []
    for qid in release.qids:
        for title, relation in ((f"{qid}: source", source), (f"{qid}: release", names.main)):
            counts = _rows(
                engine, "report/value_counts", relation=relation, column=qid, limit=TOP_VALUES
            )
            bars = [
                ("(null)" if r["value"] is None else str(r["value"]), float(r["n"])) for r in counts
            ]
            charts.append(bar_chart(bars, title=title, width=430))
    sections.append(
        Section(
            "Source and release marginals",
            f"The {TOP_VALUES} most frequent values of each quasi-identifier in the source "
            "(left) and in the release (right). The source side holds original values.",
            tuple(
                f'<div class="pair">{"".join(charts[i : i + 2])}</div>'
                for i in range(0, len(charts), 2)
            ),
        )
    )
    # suppression
    source_rows = int(cert["source_rows"])
    suppressed = int(cert["suppressed_rows"])
    sections.append(
        Section(
            "Suppression",
            f"{suppressed} of {source_rows} source rows suppressed "
            f"({_percent(100 * suppressed / (source_rows or 1))}; the limit was "
            f"{_percent(100 * float(cert['suppression_limit']))}).",
            (
                bar_chart(
                    [("published", float(cert["published_rows"])), ("suppressed", suppressed)],
                    title="source rows",
                ),
            ),
        )
    )
    # sensitive diversity
    diversity = []
    for column in release.sensitive:
        counts = _rows(
            engine, "report/diversity", classes=names.classes, column=f"distinct {column}"
        )
        bars = [(str(r["distinct_values"]), float(r["n"])) for r in counts]
        diversity.append(bar_chart(bars, title=f"rows by distinct {column} values in class"))
    sections.append(
        Section(
            "Sensitive-value diversity",
            "Rows by the number of distinct values of each sensitive column in their class "
            "(1 means everyone in the class shares the value)."
            if diversity
            else "The release declares no sensitive column.",
            tuple(diversity),
        )
    )
    sections.append(_risk_section(cert, metrics, sizes, unit))
    sections.append(_linked_section(cert))
    return release, sections


def _risk_section(
    cert: Mapping[str, Any],
    metrics: list[dict[str, Any]],
    sizes: list[dict[str, Any]],
    unit: str = "rows",
) -> Section:
    rows = sum(int(r["class_size"]) * int(r["classes"]) for r in sizes)
    classes = sum(int(r["classes"]) for r in sizes)
    smallest = min((int(r["class_size"]) for r in sizes), default=0)
    body = [
        bar_chart(
            _risk_bins(sizes), title=f"{unit} by re-identification probability (1/class size)"
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
    found = json.loads(str(cert.get("linked_columns") or "{}"))
    rows = []
    for column, facts in found.items():
        revealed = {q: n for q, n in (facts.get("revealed_rows") or {}).items() if n}
        rows.append(
            (
                column,
                ", ".join(f"{q}: {n} rows" for q, n in revealed.items()) or "none",
                int(facts.get("small_class_rows") or 0),
                ", ".join(facts.get("acknowledged_determines") or []) or "no",
            )
        )
    return Section(
        "Columns published unchanged",
        "Sensitive and insensitive columns published as they are, checked for giving "
        "quasi-identifiers away (a column whose value pins down the original value of a "
        "generalized one)."
        if rows
        else "No column is published unchanged beside the quasi-identifiers.",
        (
            _table(
                [
                    "column",
                    "quasi-identifier given away for",
                    "rows in classes below k with it",
                    "acknowledged as determining",
                ],
                rows,
            ),
        )
        if rows
        else (),
    )


_CSS = """
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:2em auto;max-width:960px;color:#222}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;border-bottom:1px solid #ccc;
padding-bottom:.2em;margin-top:1.8em}p.note{color:#555}table{border-collapse:collapse;
margin:.6em 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;font-size:13px}
th{background:#f4f4f4}.pair{display:flex;gap:1em;flex-wrap:wrap}svg{margin:.4em 0}
.ok{color:#007a3d}.bad{color:#b00020}
"""


def render_report(engine: Engine, output: str | TableName) -> str:
    """The report of the release published as ``output``, as one HTML document."""
    release, sections = gather(engine, output)
    cert = release.certificate
    verdict = (
        '<span class="ok">verified</span>'
        if cert["verified"]
        else '<span class="bad">NOT verified</span>'
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>anonsql report: {escape(str(cert['output']))}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>anonsql report: {escape(str(cert['output']))}</h1>",
        f'<p class="note">{verdict}; {escape(str(cert["published_rows"]))} rows in '
        f"{escape(str(cert['classes']))} classes from {escape(str(cert['source']))}. Made by "
        f"anonsql {escape(anonsql.__version__)}. This file shows the source's most frequent "
        "quasi-identifier values: keep it where the source may be read.</p>",
    ]
    for section in sections:
        parts.append(f"<section><h2>{escape(section.title)}</h2>")
        parts.append(f'<p class="note">{escape(section.intro)}</p>')
        parts.extend(section.body)
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(engine: Engine, output: str | TableName, path: str | Path) -> Path:
    """Write the report of the release published as ``output`` to ``path`` (HTML)."""
    target = Path(path)
    target.write_text(render_report(engine, output), encoding="utf-8")
    return target
