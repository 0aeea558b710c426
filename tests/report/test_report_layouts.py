"""The report of every release layout (record, person / 1:M, identity-reserved, personalized)
renders and leads with a verdict that says what the release protects, what each check counts,
and what it leaves unprotected, on every engine."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pyarrow as pa
from helpers import CITY_HIERARCHY, load_people, people_spec
from one_to_many_fixtures import example_spec, load_table_1a

from anonsql import api
from anonsql.engines import Engine
from anonsql.privacy import PRIVACY_MODELS
from anonsql.report.html import Report, Table, gather, render_report
from anonsql.report.verdict import model_words
from anonsql.sql import TableName

DISEASES = "flu;resp;*\ncold;resp;*\nasthma;resp;*\ndiabetes;chronic;*\nulcer;chronic;*\n"


def table(report: Report, first_header: str) -> Table:
    found = [
        block
        for block in report.sections[0].body
        if isinstance(block, Table) and block.header[0] == first_header
    ]
    assert len(found) == 1, first_header
    return found[0]


def claims(report: Report) -> dict[str, tuple[str, str, str]]:
    rows = table(report, "certified check").rows
    return {row[0].text: (row[1].text, row[2].text, row[3].text) for row in rows}


def rendered(engine: Engine, output: TableName) -> Report:
    page = render_report(engine, output)
    report = gather(engine, output)
    assert f'<p class="verdict {report.verdict.level}">' in page
    assert "<h2>Sensitive-value diversity</h2>" in page
    return report


def test_record_layout_names_what_it_leaves_unprotected(engine: Engine, tmp_path: Path) -> None:
    """k-anonymity only, with a sensitive column declared: the column is "not protected" (no
    model reads it), by name; the badge is not green."""
    load_people(engine)
    api.run(people_spec(tmp_path, k=5), engine=engine)
    report = rendered(engine, TableName("people", "anon"))
    verdict = report.verdict
    assert claims(report) == {
        "k_anonymity (k = 5)": (
            "Every class of rows sharing the same quasi-identifier values has at least k rows.",
            "rows",
            "0",
        )
    }
    assert verdict.unprotected_sensitive == ("disease",)
    gaps = table(report, "not protected").column(0)
    assert "disease (declared sensitive; no model reads it: published as it is)" in gaps
    assert verdict.level == "warn" and "not protected: disease" in verdict.badge
    assert verdict.badge.startswith("verified: k_anonymity (k = 5) holds on every class")
    assert verdict.counting.unit == "rows" and "no person column" in verdict.counting.text
    diversity = next(s for s in report.sections if s.title == "Sensitive-value diversity")
    assert diversity.intro.startswith("not measured: no model of this release reads")


def test_person_layout_counts_persons(engine: Engine, tmp_path: Path) -> None:
    load_table_1a(engine)
    api.run(example_spec(tmp_path), engine=engine)
    report = rendered(engine, TableName("visits", "anon"))
    verdict = report.verdict
    found = claims(report)
    words = model_words(PRIVACY_MODELS.get("kl_diversity"))
    assert found["kl_diversity (column = disease, k = 2, l = 3)"] == (words, "persons", "0")
    assert found["person_consistency()"][1:] == ("persons", "0")
    assert verdict.counting.unit == "persons"
    assert verdict.counting.text.startswith("persons: classes count distinct persons")
    assert "(person column pid; 6 persons in 10 source rows)" in verdict.counting.text
    # the sensitive items are the fingerprints the model reads: protected, nothing found
    assert verdict.unprotected_sensitive == () and verdict.not_protected == ()
    assert verdict.level == "ok"
    assert (
        verdict.badge
        == "verified: kl_diversity (column = disease, k = 2, l = 3) holds on the published rows"
    )
    classes = next(s for s in report.sections if s.title == "Equivalence classes")
    assert "persons by the size of the class" in classes.intro


def visits(persons: int = 60, seed: int = 3) -> pa.Table:
    rng = random.Random(seed)
    cities = [line.split(";")[0] for line in CITY_HIERARCHY.splitlines()]
    rows: dict[str, list[Any]] = {"patient": [], "age": [], "city": [], "disease": []}
    for p in range(persons):
        age, city = rng.randint(20, 60), rng.choice(cities)
        for _ in range(rng.randint(1, 3)):
            rows["patient"].append(f"p{p:03d}")
            rows["age"].append(age)
            rows["city"].append(city)
            rows["disease"].append(rng.choice(["flu", "cold", "asthma", "ulcer", "gout"]))
    return pa.table(rows)


def test_identity_reserved_layout(engine: Engine, tmp_path: Path) -> None:
    engine.load_arrow(TableName("visits", "main"), visits())
    (tmp_path / "city.csv").write_text(CITY_HIERARCHY, encoding="utf-8")
    spec = {
        "source": "main.visits",
        "person_id": "patient",
        "output": {"schema": "anon", "name": "ir"},
        "columns": {
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": str(tmp_path / "city.csv")},
            # on this small table a disease narrows some published ages to one value (the
            # linkage gate): published acknowledged, so the verdict names what it exposes
            "disease": {"role": "sensitive", "acknowledge_linked": True},
        },
        "privacy": [{"ir_kl_anonymity": {"column": "disease", "k": 3, "l": 2}}],
        "algorithm": "danonyir",
    }
    api.run(spec, engine=engine)
    report = rendered(engine, TableName("ir", "anon"))
    verdict = report.verdict
    check = "ir_kl_anonymity (column = disease, record_counts = published, k = 3, l = 2)"
    words, counts, violations = claims(report)[check]
    assert words.startswith("IR (k,l)-anonymity") and "at least k individuals" in words
    assert (counts, violations) == ("persons", "0")
    # the model reads disease: it is protected, though the certificate lists no sensitive column
    assert verdict.unprotected_sensitive == ()
    assert verdict.counting.unit == "persons" and "person column patient" in verdict.counting.text
    assert verdict.badge.startswith(f"verified: {check} holds")
    assert verdict.level == "warn" and "disease" in verdict.badge


def test_personalized_layout(engine: Engine, tmp_path: Path) -> None:
    """The personalized layout publishes its sensitive columns in buckets, checked by the
    layout's own checks: the report lists those checks and renders without a class table
    counting sensitive values."""
    load_people(engine)
    (tmp_path / "disease.csv").write_text(DISEASES, encoding="utf-8")
    spec = people_spec(tmp_path, k=5)
    spec["columns"]["disease"] = {"role": "sensitive", "hierarchy": str(tmp_path / "disease.csv")}
    del spec["columns"]["note"]  # left out (its values repeat: not a person identifier)
    spec["algorithm"] = {
        "personalized": {
            "profile": "safe",
            "sensitive": {"disease": {"l": 2}},
            "cluster_key": [{"column": "city", "prefix": 1}],
        }
    }
    api.run(spec, engine=engine)
    report = rendered(engine, TableName("people", "anon"))
    verdict = report.verdict
    found = claims(report)
    assert found["k_anonymity (k = 5)"][1:] == ("rows", "0")
    assert found["group_diversity"] == ("no value or term above 1/l of a QID group", "rows", "0")
    assert "published confidence" in found
    assert all(violations == "0" for _, _, violations in found.values())
    assert verdict.unprotected_sensitive == () and verdict.level == "ok"
    diversity = next(s for s in report.sections if s.title == "Sensitive-value diversity")
    assert diversity.intro.startswith("not measured: the class table of this personalized")
    assert diversity.body == ()
