"""The HTML report: every section from a real release on every engine, self-contained (no
script, no link), figures that add up; and the page as a real browser shows it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import cast

import pytest
from helpers import load_people, people_spec
from PIL import Image

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine
from anonsql.release import read_release
from anonsql.report.html import Table, _generalization, _risk_bins, gather, render_report
from anonsql.sql import TableName

OUTPUT = TableName("people", "anon")
SECTIONS = (
    "Certificate",
    "Equivalence classes",
    "Information loss",
    "What each quasi-identifier was generalized to",
    "Source and release marginals",
    "Suppression",
    "Sensitive-value diversity",
    "Re-identification risk",
    "Columns published unchanged",
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


def test_report_sections_and_figures(engine: Engine, tmp_path: Path) -> None:
    publish(engine, tmp_path)
    page = render_report(engine, OUTPUT)
    for title in SECTIONS:
        assert f"<h2>{title}</h2>" in page
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
    # the per-attribute NCP the run recorded is what the chart shows
    ncp = {
        m.attribute: m.value
        for m in api.recompute_metrics(engine, OUTPUT)
        if m.name == "ncp" and m.attribute
    }
    for attribute, value in ncp.items():
        assert f"{value:.1f} %" in page, attribute
    # the pass-through column of the spec is listed with its findings
    _, sections = gather(engine, OUTPUT)
    linked = next(s for s in sections if s.title == "Columns published unchanged")
    tables = [block for block in linked.body if isinstance(block, Table)]
    assert "note" in [row[0] for table in tables for row in table.rows]
    assert "<td>note</td>" in page


def test_risk_hook_lists_recorded_risk_metrics(tmp_path: Path) -> None:
    """HOOK for the risk metrics (issue 16): rows named risk_* in __metrics are listed."""
    with DuckDBEngine() as engine:
        publish(engine, tmp_path)
        release = read_release(engine, OUTPUT, fix="")
        engine.execute(
            f"INSERT INTO {release.names.metrics.sql()} VALUES ('risk_prosecutor_max', NULL, 0.2)"
        )
        page = render_report(engine, OUTPUT)
    risk = page[page.index("<h2>Re-identification risk</h2>") :]
    assert "risk_prosecutor_max" in risk


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
        [*flags, "--window-size=1000,1400", f"--screenshot={shot}", url],
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
    # and painted it: the screenshot holds text and the charts' bars (their blue), not a blank page
    image = Image.open(shot).convert("RGB")
    assert image.size == (1000, 1400)
    # an RGB image's colours are (r, g, b) tuples; Pillow types those of any mode
    colours = cast("list[tuple[int, tuple[int, int, int]]]", image.getcolors(1 << 20) or [])
    bar_pixels = sum(n for n, rgb in colours if rgb == (0x00, 0x72, 0xB2))
    dark_pixels = sum(n for n, rgb in colours if sum(rgb) < 200)
    assert bar_pixels > 2000, bar_pixels
    assert dark_pixels > 2000, dark_pixels
