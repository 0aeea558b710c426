"""Hostile names and values through a real run and its HTML report: every one of them reaches
the page as text, none as markup (no element, no attribute, no template expression)."""

from __future__ import annotations

import csv
from html.parser import HTMLParser
from pathlib import Path

import pyarrow as pa

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine
from anonsql.report.html import render_report
from anonsql.sql import TableName

SCRIPT = "<script>alert(1)</script>"
QUOTES = "\"q\" 'a' & b"
TEMPLATE = "{{ 7*7 }}"
CLOSE_SVG = "</svg><b>bold</b>"
ATTRIBUTE = '" onmouseover="alert(1)'
VALUES = [SCRIPT, QUOTES, TEMPLATE, CLOSE_SVG, ATTRIBUTE]

SCHEMA = f"s{SCRIPT}"
TABLE = f"t{QUOTES}{TEMPLATE}"
NUMERIC_QID = f"age{SCRIPT}"
CATEGORICAL_QID = f"city{ATTRIBUTE}{CLOSE_SVG}"
SENSITIVE = f"disease{QUOTES}{TEMPLATE}"
INSENSITIVE = f"note{CLOSE_SVG}{SCRIPT}"
OUTPUT = TableName(f"a{ATTRIBUTE}{TEMPLATE}", f"o{CLOSE_SVG}")
#: Hierarchy groups (the second level), which the release publishes.
GROUPS = [f"group{i}{SCRIPT}{ATTRIBUTE}" for i in range(2)]

#: What the report is made of: anything else in the parsed page was injected.
ELEMENTS = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "span", "section",
    "table", "thead", "tbody", "tr", "th", "td", "div", "svg", "text", "rect",
}  # fmt: skip
ATTRIBUTES = {
    "lang", "charset", "class", "xmlns", "width", "height", "role", "aria-label", "x", "y",
    "font-family", "font-size", "font-weight", "text-anchor", "fill", "title",
}  # fmt: skip


class Page(HTMLParser):
    """The elements, attributes and text of a page, as a browser's tokenizer splits them."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.starts: list[str] = []
        self.ends: list[str] = []
        self.attributes: set[str] = set()
        self.attribute_values: list[str] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.starts.append(tag)
        self.attributes |= {name for name, _ in attrs}
        self.attribute_values += [value or "" for _, value in attrs]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.ends.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.ends.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def hostile_release(engine: Engine, folder: Path) -> None:
    engine.create_schema(SCHEMA)
    source = TableName(TABLE, SCHEMA)
    n = 120
    engine.load_arrow(
        source,
        pa.table(
            {
                NUMERIC_QID: [30] * n,
                CATEGORICAL_QID: [VALUES[i % len(VALUES)] for i in range(n)],
                SENSITIVE: [VALUES[(i * 3 + i // 5) % len(VALUES)] for i in range(n)],
                INSENSITIVE: [VALUES[(i // 3) % 2] for i in range(n)],
            }
        ),
    )
    hierarchy = folder / "hierarchy.csv"
    with hierarchy.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, delimiter=";")
        for i, value in enumerate(VALUES):
            writer.writerow([value, GROUPS[i % 2], "*"])
    spec = {
        "source": source.sql(),
        "output": {"schema": OUTPUT.schema, "name": OUTPUT.name},
        "columns": {
            NUMERIC_QID: {"role": "quasi_identifier", "type": "numeric"},
            CATEGORICAL_QID: {"role": "quasi_identifier", "hierarchy": str(hierarchy)},
            SENSITIVE: {"role": "sensitive"},
            # it splits the classes below k: acknowledged, so the report shows its exposure
            INSENSITIVE: {"role": "insensitive", "acknowledge_linked": True},
        },
        # 24 rows per categorical value and one age: k = 25 publishes the two groups
        "privacy": [
            {"k_anonymity": {"k": 25}},
            {"distinct_l_diversity": {"column": SENSITIVE, "l": 2}},
        ],
    }
    api.run(spec, engine=engine)


def test_hostile_names_and_values_reach_the_report_as_text(tmp_path: Path) -> None:
    with DuckDBEngine() as engine:
        hostile_release(engine, tmp_path)
        html = render_report(engine, OUTPUT)
    page = Page(html)
    # nothing injected: only the report's own elements and attributes, every svg closed once
    assert "script" not in page.starts
    assert set(page.starts) <= ELEMENTS, set(page.starts) - ELEMENTS
    assert page.attributes <= ATTRIBUTES, page.attributes - ATTRIBUTES
    assert page.starts.count("svg") == page.ends.count("svg") >= 10
    assert page.starts.count("section") == page.ends.count("section") == 9
    # no payload appears raw in the file
    for payload in (SCRIPT, QUOTES, CLOSE_SVG, ATTRIBUTE, *GROUPS, SCHEMA, TABLE, SENSITIVE):
        assert payload not in html, payload
    # each one reached the page as text, as it was written (no template evaluated it)
    text = "".join(page.text)
    shown = {
        "schema and table": f"{SCHEMA}.{TABLE}",
        "output": f"{OUTPUT.schema}.{OUTPUT.name}",
        "numeric quasi-identifier": NUMERIC_QID,
        "categorical quasi-identifier": CATEGORICAL_QID,
        "sensitive column": SENSITIVE,
        "insensitive column": INSENSITIVE,
        "hierarchy group": GROUPS[0],
        **{f"value {i}": value for i, value in enumerate(VALUES)},
    }
    for what, expected in shown.items():
        assert expected in text, what
    # chart titles are attribute values too: escaped, they stay one attribute
    assert f"rows by distinct {SENSITIVE} values in class" in page.attribute_values
    # the verdict names the columns published unchanged, as text (the exposure table)
    verdict = text[: text.index("Re-identification risk")]
    assert INSENSITIVE in verdict and SENSITIVE in verdict
