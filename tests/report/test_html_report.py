"""The HTML report: every section from a real release on every engine, self-contained (no
script, no link), figures that add up and agree with an independent recomputation (pandas);
and the page as a real browser shows it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import cast

import pandas as pd
import pytest
from helpers import load_people, people_spec
from PIL import Image

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine
from anonsql.release import read_release
from anonsql.report.html import (
    Table,
    _generalization,
    _risk_bins,
    _size_bins,
    gather,
    render_report,
)
from anonsql.report.labels import METRIC_LABELS, NOT_MEASURED, formatted, label
from anonsql.sql import TableName

OUTPUT = TableName("people", "anon")
SECTIONS = (
    "Verdict: what the release protects and what it does not",
    "Re-identification risk: source and release",
    "Certificate",
    "Equivalence classes",
    "Information loss",
    "What each quasi-identifier was generalized to",
    "Source and release marginals",
    "Suppression",
    "Sensitive-value diversity",
)


def publish(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_spec(
        tmp_path,
        k=5,
        privacy=[
            {"k_anonymity": {"k": 5}},
            {"distinct_l_diversity": {"column": "disease", "l": 2}},
        ],
    )
    api.run(spec, engine=engine)


def frame(engine: Engine, relation: TableName) -> pd.DataFrame:
    data: pd.DataFrame = engine.query_arrow("select_all", relation=relation).to_pandas()
    return data


def test_report_sections_and_figures(engine: Engine, tmp_path: Path) -> None:
    publish(engine, tmp_path)
    page = render_report(engine, OUTPUT)
    for title in SECTIONS:
        assert f"<h2>{title}</h2>" in page
    # the verdict comes first
    assert page.index('<p class="verdict') < page.index("<h2>")
    assert page.index(f"<h2>{SECTIONS[0]}</h2>") < page.index(f"<h2>{SECTIONS[1]}</h2>")
    # self-contained: nothing fetched, nothing run
    assert "<script" not in page.lower()
    assert not re.search(r"\b(src|href)\s*=", page)
    assert page.count("<svg") >= 10
    release = read_release(engine, OUTPUT, fix="")
    published = int(release.certificate["published_rows"])
    # every released row is at one generalization level of each QID
    _, levels = _generalization(engine, release, release.attributes(engine))
    assert [q for q, _ in levels] == ["age", "city", "income"]
    for _, segments in levels:
        assert sum(n for _, n in segments) == published
    sizes = engine.query_arrow("report/class_sizes", classes=release.names.classes).to_pylist()
    assert sum(n for _, n in _risk_bins(sizes)) == published
    # k = 5: no row at a re-identification probability above 20 %
    assert dict(_risk_bins(sizes))["20–50 %"] == 0
    # class sizes from k = 5: the first range is 5-9, nothing below k
    bins = _size_bins(sizes, 5)
    assert bins[0][0] == "5–9" and sum(n for _, n in bins) == published
    # the per-attribute NCP the run recorded is what the chart shows
    ncp = {
        m.attribute: m.value
        for m in api.recompute_metrics(engine, OUTPUT)
        if m.name == "ncp" and m.attribute
    }
    for attribute, value in ncp.items():
        assert f"{value:.1f} %" in page, attribute
    # the pass-through column: rows in classes (QIDs + note) below k, recomputed in pandas from
    # what an analyst reads, are the verdict's figure; so the badge is not green
    rows = frame(engine, OUTPUT)
    sizes_with_note = rows.groupby(["age", "city", "income", "note"], dropna=False).size()
    below = int(sizes_with_note[sizes_with_note < 5].sum())
    assert below > 0
    report = gather(engine, OUTPUT)
    exposure = next(
        block
        for block in report.sections[0].body
        if isinstance(block, Table) and block.header[0] == "column published unchanged"
    )
    assert exposure.column(0) == ["disease", "note"]
    assert exposure.column(3) == [
        "not applicable: analysts do not know sensitive values",
        f"{below} of {published}",
    ]
    assert report.verdict.level == "warn"
    assert f"{below} of {published} rows in classes below k = 5 to an analyst who knows note" in (
        report.verdict.badge
    )
    assert '<p class="verdict warn">verified: k_anonymity (k = 5) and distinct_l_diversity' in page


def test_size_bins_start_at_k_and_never_straddle_it() -> None:
    sizes = [{"class_size": s, "classes": 1} for s in (5, 6, 9, 10, 19, 20, 41)]
    assert _size_bins(sizes, 5) == [
        ("5–9", 20.0),
        ("10–19", 29.0),
        ("20–39", 20.0),
        ("40–79", 41.0),
    ]
    # below k only when something is below k, in one range ending at k - 1
    bins = _size_bins([*sizes, {"class_size": 2, "classes": 3}], 5)
    assert bins[0] == ("1–4 (below k)", 6.0) and bins[1][0] == "5–9"
    # the first range is k's even when no class is that small; empty ranges are shown
    assert _size_bins([{"class_size": 12, "classes": 2}, {"class_size": 45, "classes": 1}], 5) == [
        ("5–9", 0.0),
        ("10–19", 24.0),
        ("20–39", 0.0),
        ("40–79", 45.0),
    ]
    # no k: powers of two from 1
    assert [b for b, _ in _size_bins(sizes, None)] == ["1", "2–3", "4–7", "8–15", "16–31", "32–63"]
    for k in range(1, 12):
        for b, _ in _size_bins([{"class_size": s, "classes": 1} for s in range(1, 60)], k):
            lo, _, hi = b.split(" ")[0].partition("–")
            assert int(hi or lo) < k or int(lo) >= k, (k, b)


def test_unmeasured_figures_are_not_zero(tmp_path: Path) -> None:
    """A figure nothing measured is "not measured": a certificate without source risk, a
    column whose exposure was not recorded. The badge is then not green."""
    with DuckDBEngine() as engine:
        publish(engine, tmp_path)
        release = read_release(engine, OUTPUT, fix="")
        certificate = release.names.certificate.sql()
        engine.execute(
            f"UPDATE {certificate} SET source_risk = NULL, "
            """linked_columns = '{"note": {}}'"""
        )
        report = gather(engine, OUTPUT)
        page = render_report(engine, OUTPUT)
    risk = next(s for s in report.sections if s.title.startswith("Re-identification"))
    figures = risk.body[0]
    assert isinstance(figures, Table)
    assert set(figures.column(1)) == {NOT_MEASURED}
    assert NOT_MEASURED not in figures.column(2)
    assert "note: exposure not measured" in report.verdict.badge
    assert report.verdict.level == "warn"
    assert '<td class="na">not measured</td>' in page


def test_a_release_that_fails_its_models_is_not_verified(tmp_path: Path) -> None:
    with DuckDBEngine() as engine:
        publish(engine, tmp_path)
        release = read_release(engine, OUTPUT, fix="")
        engine.execute(
            f"UPDATE {release.names.certificate.sql()} SET verified = FALSE, "
            """violations = '{"k_anonymity(k=5)": 3, """
            """"distinct_l_diversity(column=disease, l=2)": 0}'"""
        )
        report = gather(engine, OUTPUT)
        page = render_report(engine, OUTPUT)
    assert report.verdict.level == "bad"
    assert report.verdict.badge == "NOT verified: k_anonymity (k = 5) fails on 3 classes"
    assert '<p class="verdict bad">NOT verified' in page and "verdict ok" not in page


def test_risk_figures_source_beside_release_with_readable_names(
    engine: Engine, tmp_path: Path
) -> None:
    publish(engine, tmp_path)
    report = gather(engine, OUTPUT)
    page = render_report(engine, OUTPUT)
    release = report.release
    metrics = {
        str(row["metric"]): float(row["value"])
        for row in engine.query_arrow("select_all", relation=release.names.metrics).to_pylist()
        if row["attribute"] is None
    }
    risk = next(s for s in report.sections if s.title.startswith("Re-identification"))
    figures = risk.body[0]
    assert isinstance(figures, Table)
    rows = {row[0].title: (row[1].text, row[2].text) for row in figures.rows}
    # every row of the source: 1 per class (the people table has unique QID vectors)
    key = "risk.prosecutor.records_at_risk"
    assert rows[key] == ("100.0 %", formatted(metrics[key], "share"))
    assert rows["risk.prosecutor.highest_risk"][1] == "20.0 %"  # k = 5
    for key in ("risk.journalist.records_at_risk", "risk.marketer.success_rate"):
        assert NOT_MEASURED not in rows[key]
    # readable names, the key in a tooltip; every metric the run recorded has a label
    assert f'<td title="{key}">{label(key).text}</td>' in page
    assert set(metrics) <= set(METRIC_LABELS)
    assert "risk.prosecutor.records_at_risk</td>" not in page


def test_unknown_metrics_are_listed_under_their_key(tmp_path: Path) -> None:
    """A metric added by another package is shown, named by its key."""
    with DuckDBEngine() as engine:
        publish(engine, tmp_path)
        release = read_release(engine, OUTPUT, fix="")
        engine.execute(
            f"INSERT INTO {release.names.metrics.sql()} VALUES ('risk_prosecutor_max', NULL, 0.2)"
        )
        page = render_report(engine, OUTPUT)
    risk = page[page.index("<h2>Re-identification risk") :]
    assert '<td title="risk_prosecutor_max">risk_prosecutor_max</td>' in risk


def test_stale_source_is_a_finding(tmp_path: Path) -> None:
    with DuckDBEngine() as engine:
        publish(engine, tmp_path)
        engine.execute("UPDATE main.people SET income = income + 1 WHERE age < 30")
        report = gather(engine, OUTPUT)
    assert "since certification: the source changed since certification (stale)" in (
        report.verdict.badge
    )
    assert report.verdict.level == "warn"
    facts = dict(report.verdict.changes.facts)
    assert facts["source changed since certification"] == "yes"


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_report_in_a_real_browser(tmp_path: Path) -> None:
    browser = _chromium()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is required in CI (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        publish(engine, tmp_path)
    report = tmp_path / "report.html"
    with DuckDBEngine(db) as engine:
        api.write_report(engine, OUTPUT, report)
    flags = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    url = report.resolve().as_uri()
    shot = tmp_path / "report.png"
    subprocess.run(
        [*flags, "--window-size=1000,4000", f"--screenshot={shot}", url],
        check=True,
        capture_output=True,
        timeout=120,
    )
    dom = subprocess.run(
        [*flags, "--dump-dom", url], check=True, capture_output=True, text=True, timeout=120
    ).stdout
    # the browser parsed the page: its sections and charts are in the DOM
    for title in SECTIONS:
        assert title in dom
    assert dom.count("<svg") >= 10 and "<rect" in dom
    # and painted it: the screenshot holds text, the verdict's amber badge (a pass-through
    # column splits classes below k) and the charts' bars (their blue), not a blank page
    image = Image.open(shot).convert("RGB")
    assert image.size == (1000, 4000)
    # an RGB image's colours are (r, g, b) tuples; Pillow types those of any mode
    colours = cast("list[tuple[int, tuple[int, int, int]]]", image.getcolors(1 << 20) or [])
    by_colour = dict((rgb, n) for n, rgb in colours)
    bar_pixels = by_colour.get((0x00, 0x72, 0xB2), 0)
    amber_pixels = by_colour.get((0xFF, 0xF3, 0xE0), 0)
    green_pixels = by_colour.get((0xE8, 0xF5, 0xEE), 0)
    dark_pixels = sum(n for n, rgb in colours if sum(rgb) < 200)
    assert bar_pixels > 2000, bar_pixels
    assert dark_pixels > 2000, dark_pixels
    assert amber_pixels > 5000 and green_pixels == 0, (amber_pixels, green_pixels)
