"""The worked example of Gong et al., "Anonymizing 1:M microdata with high utility" (KBS 2017),
as fixtures (digest 000 §6): Table 1(a) -> Table 2(a) -> Fig. 3(c) -> Table 2(b), on every
engine, plus the person-level checks that Table 1(b) fails."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from click.testing import CliRunner
from one_to_many_fixtures import (
    INTERMEDIATE_K2,
    PERSON_NAMES,
    TABLE_1A,
    TABLE_2B,
    example_spec,
    load_table_1a,
    load_table_1b,
)

from anonsql import api
from anonsql.cli import main
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import InfeasibleError, SpecError
from anonsql.hierarchies import load_hierarchies
from anonsql.prepare import prepared
from anonsql.resolve import resolve
from anonsql.spec import spec_from_mapping
from anonsql.sql import TableName

OUT = TableName("visits", "anon")
QIDS = ["age", "gender", "zip"]


def by_person(engine: Engine) -> list[tuple[Any, ...]]:
    rows = engine.query(
        "select_all", relation=TableName("visits__by_person", "anon")
    )  # pid, age, gender, zip, disease (a list)
    return [(r[1], r[2], r[3], tuple(r[4])) for r in rows]


def fingerprints_by_name(engine: Engine) -> dict[str, list[str]]:
    """Each source person's generalized fingerprint, read from the private person map."""
    mapping = {
        int(r[0]): int(r[3])
        for r in engine.query(
            "select_all", relation=TableName("visits__person_map", "anon_private")
        )
    }
    labels: dict[int, list[tuple[int, str]]] = {}
    for row in engine.query("select_all", relation=TableName("visits__fingerprints", "anon")):
        labels.setdefault(int(row[0]), []).append((int(row[3]), str(row[1])))
    return {
        PERSON_NAMES[pid]: [label for _, label in sorted(labels[safb])]
        for pid, safb in mapping.items()
    }


def test_transformation_one_row_per_person(engine: Engine, tmp_path: Path) -> None:
    """Test case 1: T (10 rows) -> T' (6 persons) with set-valued fingerprints."""
    load_table_1a(engine)
    spec = spec_from_mapping(example_spec(tmp_path))
    resolved = resolve(spec, engine)
    hierarchies = load_hierarchies(engine, spec, resolved.source, resolved.hierarchy_columns)
    with prepared(resolved, hierarchies, engine) as job:
        persons = engine.fetchall(engine.sql.render("select_all", relation=job.work("persons")))
        items = engine.query("select_all", relation=job.work("items"))
        assert job.person is not None and job.person.persons == 6 and job.rows == 10
        assert job.person.hierarchy is not None
        leaves = job.person.hierarchy.leaves
        number_to_pid = {int(p[0]): int(p[1]) for p in persons}
        fingerprints: dict[str, set[str]] = {}
        for person, leaf, node in items:
            fingerprints.setdefault(PERSON_NAMES[number_to_pid[int(person)]], set()).add(
                leaves[int(leaf)]
            )
            assert int(node) == 0  # every item starts at the root
        assert fingerprints == {
            "Bob": {"a_1", "a_2", "b_2"},
            "David": {"b_1"},
            "Tom": {"b_2"},
            "Simon": {"c_2"},
            "Daisy": {"a_2", "b_2"},
            "Alice": {"c_1", "c_2"},
        }
        assert sorted(int(p[-1]) for p in persons) == [1, 1, 1, 2, 2, 3]  # rows per person


def test_partition_and_mondrian_reproduce_table_2b(engine: Engine, tmp_path: Path) -> None:
    """Test cases 4, 6, 7, 11, 12: the intermediate table for k = 2 and Table 2(b) for l = 3."""
    load_table_1a(engine)
    result = api.run(example_spec(tmp_path, k=2, l=3), engine=engine)
    assert result.certificate["verified"]
    assert fingerprints_by_name(engine) == INTERMEDIATE_K2
    assert Counter(by_person(engine)) == Counter(TABLE_2B)
    # QID-NCP by Eqs. (2)-(3) with |Age| = 100 and |Zip| = 20000 (the paper prints 26.67 %,
    # dropping the /d and taking |Zip| = 30000); SA-NCP per original item (the authors' code;
    # the paper's arithmetic prints 20 %)
    assert result.metric("ncp") == pytest.approx(35 / 3)
    assert result.metric("ncp", "age") == pytest.approx(10.0)
    assert result.metric("ncp", "gender") == pytest.approx(0.0)
    assert result.metric("ncp", "zip") == pytest.approx(25.0)
    assert result.metric("sa_ncp") == pytest.approx(80 / 3)
    assert result.metric("classes") == 2
    person = json.loads(result.certificate["person_level"])
    assert person["persons"] == 6 and person["fingerprint_buckets"] == 3
    recomputed = {(m.name, m.attribute): m.value for m in api.recompute_metrics(engine, OUT)}
    # the run sums per class, the recomputation per row: equal up to float rounding
    assert recomputed == pytest.approx({(m.name, m.attribute): m.value for m in result.metrics})
    with pytest.raises(SpecError, match="1:M release"):
        api.query_accuracy(engine, OUT)
    # the row-level view: every source row, its item generalized within the person's bucket
    rows = engine.query("select_all", relation=OUT)
    assert len(rows) == len(TABLE_1A)
    per_person: dict[int, list[str]] = {}
    for row in rows:
        per_person.setdefault(int(row[0]), []).append(row[4])
    assert sorted(sorted(v) for v in per_person.values()) == sorted(
        [["A", "A", "b_2"], ["B"], ["B"], ["C"], ["A", "b_2"], ["C", "C"]]
    )


def test_validator_accepts_2_3_and_rejects_stronger(engine: Engine, tmp_path: Path) -> None:
    """Test case 7: T* is (2, 3)-diverse, not (3, .) nor (., 4)."""
    load_table_1a(engine)
    api.run(example_spec(tmp_path, k=2, l=3), engine=engine)
    for rel, person in ((OUT, "pid"), (TableName("visits__by_person", "anon"), None)):

        def violations(model: dict[str, Any], rel: TableName = rel, p: Any = person) -> int:
            return sum(api.check(engine, rel, QIDS, [model], person=p).violations.values())

        assert violations({"kl_diversity": {"column": "disease", "k": 2, "l": 3}}) == 0
        assert violations({"kl_diversity": {"column": "disease", "k": 3, "l": 3}}) == 3
        assert violations({"fingerprint_k_anonymity": {"column": "disease", "k": 3}}) == 3
        assert violations({"kl_diversity": {"column": "disease", "k": 2, "l": 4}}) == 2
        assert violations({"fingerprint_l_diversity": {"column": "disease", "l": 4}}) == 2
        assert violations({"person_k_anonymity": {"k": 3}}) == 0
        assert violations({"person_k_anonymity": {"k": 4}}) == 2


def test_adversary_candidates_on_table_2b(engine: Engine, tmp_path: Path) -> None:
    """Test case 8: a person is a candidate for known items when every item has an
    ancestor-or-self in the person's published fingerprint."""
    load_table_1a(engine)
    api.run(example_spec(tmp_path, k=2, l=3), engine=engine)
    parent = {"a_1": "A", "a_2": "A", "b_1": "B", "b_2": "B", "c_1": "C", "c_2": "C"}
    published = by_person(engine)

    def candidates(known: set[str]) -> int:
        return sum(all(item in fp or parent[item] in fp for item in known) for *_, fp in published)

    assert candidates({"a_1", "b_2"}) == 2
    assert candidates({"b_2"}) == 4
    assert candidates({"c_1"}) == 2
    assert sum(1 for age, gender, z, _ in published if (age, gender) == ("[11,20]", "M")) == 3


def test_record_level_k_anonymity_is_false_privacy(engine: Engine, tmp_path: Path) -> None:
    """Test case 3: Table 1(b) is 2-anonymous by rows but breaks every person-level check."""
    load_table_1b(engine)
    rel = "main.published"
    assert api.check(engine, rel, QIDS, [{"k_anonymity": {"k": 2}}]).holds
    person_checks = {
        "person_k_anonymity(k=2)": 3,  # classes {1,2} (Bob), {7,8} (Daisy), {9,10} (Alice)
        "person_consistency()": 1,  # Bob is published under two QID vectors
        "fingerprint_k_anonymity(column=disease, k=2)": 6,  # every fingerprint is unique
    }
    models: list[dict[str, dict[str, Any]]] = [
        {"person_k_anonymity": {"k": 2}},
        {"person_consistency": {}},
        {"fingerprint_k_anonymity": {"column": "disease", "k": 2}},
    ]
    result = api.check(engine, rel, QIDS, models, person="pid")
    assert result.violations == person_checks
    with pytest.raises(SpecError, match="--person"):
        api.check(engine, rel, QIDS, [{"person_consistency": {}}])


def test_check_cli_catches_table_1b(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    with DuckDBEngine(db) as engine:
        load_table_1b(engine)
    base = ["check", "--database", str(db), "--relation", "main.published"]
    base += [arg for q in QIDS for arg in ("--qid", q)]
    runner = CliRunner()
    ok = runner.invoke(main, [*base, "--model", "k_anonymity:k=2"])
    assert ok.exit_code == 0, ok.output
    caught = runner.invoke(main, [*base, "--person", "pid", "--model", "person_k_anonymity:k=2"])
    assert caught.exit_code == 4, caught.output
    assert "VIOLATED" in caught.output


def test_k3_collapses_to_the_root_and_l2_is_infeasible(engine: Engine, tmp_path: Path) -> None:
    """Test case 13: with k = 3 every fingerprint becomes the root (SA-NCP 100 %), after which
    no class can be 2-diverse: the run stops instead of publishing a violating class."""
    load_table_1a(engine)
    result = api.run(example_spec(tmp_path, k=3, l=1), engine=engine)
    assert set(by_person(engine)) >= {("[1,100]", "*", "[10001,30000]", ("*",))} or all(
        fp == ("*",) for *_, fp in by_person(engine)
    )
    assert result.metric("sa_ncp") == pytest.approx(100.0)
    before = by_person(engine)
    with pytest.raises(InfeasibleError, match="l <= 1"):
        api.run(example_spec(tmp_path, k=3, l=2), engine=engine)
    assert by_person(engine) == before  # the previous output is intact


def test_sa_ncp_and_buckets_do_not_depend_on_l(engine: Engine, tmp_path: Path) -> None:
    """Test case 14: Mondrian never touches fingerprints: the buckets and SA-NCP are the same
    for every l at fixed k, and QID-NCP does not decrease with l here."""
    load_table_1a(engine)
    seen = []
    for ell in (1, 2, 3):
        result = api.run(example_spec(tmp_path, k=2, l=ell), engine=engine)
        seen.append((fingerprints_by_name(engine), result.metric("sa_ncp"), result.metric("ncp")))
    assert all(s[0] == seen[0][0] and s[1] == pytest.approx(seen[0][1]) for s in seen)
    assert [s[2] for s in seen] == sorted(s[2] for s in seen)


def test_diversity_is_checked_on_fingerprints_not_values(engine: Engine) -> None:
    """Test cases 9 and 15: three persons sharing {a_1, b_1, c_1} are 3-diverse in values but
    not in fingerprints; {b_1}, {b_2}, {c_2} generalized to {B}, {B}, {C} are not 3-diverse."""
    rows = [(p, "x", item) for p in (1, 2, 3) for item in ("a_1", "b_1", "c_1")]
    rows += [(4, "y", "B"), (5, "y", "B"), (6, "y", "C")]
    engine.load_arrow(
        TableName("t", "main"),
        pa.table(
            {
                "pid": [r[0] for r in rows],
                "q": [r[1] for r in rows],
                "disease": [r[2] for r in rows],
            }
        ),
    )
    values = api.check(
        engine, "main.t", ["q"], [{"distinct_l_diversity": {"column": "disease", "l": 2}}]
    )
    assert values.violations == {"distinct_l_diversity(column=disease, l=2)": 0}
    fingerprints = api.check(
        engine,
        "main.t",
        ["q"],
        [{"fingerprint_l_diversity": {"column": "disease", "l": 2}}],
        person="pid",
    )
    # class x: one fingerprint for all three; class y: {B} holds 2 of 3 > 1/2
    assert fingerprints.violations == {"fingerprint_l_diversity(column=disease, l=2)": 2}


def test_varying_qids_refused_or_resolved(engine: Engine, tmp_path: Path) -> None:
    """Test case 2: a person whose rows disagree on a QID is refused by default (counted, no
    values shown); with most_frequent, the person's majority vector stands for all rows."""
    mutated = [list(r) for r in TABLE_1A]
    mutated[2][2] = 19  # Bob's third row
    load_table_1a(engine, rows=[tuple(r) for r in mutated])
    with pytest.raises(SpecError, match="1 persons have rows with different") as err:
        api.run(example_spec(tmp_path), engine=engine)
    assert "19" not in str(err.value) and "18" not in str(err.value)
    result = api.run(example_spec(tmp_path, varying_qids="most_frequent"), engine=engine)
    assert json.loads(result.certificate["person_level"])["persons_with_varying_qids"] == 1
    assert Counter(by_person(engine)) == Counter(TABLE_2B)
    assert api.check_output(engine, OUT).holds


def test_persons_counted_without_fingerprints(engine: Engine, tmp_path: Path) -> None:
    """person_k_anonymity alone: classes of k persons, the sensitive column published as it
    is (no model protects it), the person-level view without a fingerprint list."""
    load_table_1a(engine)
    spec = example_spec(tmp_path, privacy=[{"person_k_anonymity": {"k": 3}}])
    spec["columns"]["disease"] = {"role": "sensitive", "acknowledge_linked": True}
    result = api.run(spec, engine=engine)
    rows = engine.query("select_all", relation=OUT)
    assert sorted(r[4] for r in rows) == sorted(r[5] for r in TABLE_1A)
    persons = engine.query("select_all", relation=TableName("visits__by_person", "anon"))
    assert len(persons) == 6 and len(persons[0]) == 4
    assert min(Counter((p[1], p[2], p[3]) for p in persons).values()) >= 3
    assert result.metric("classes") == 2
    assert not [m for m in result.metrics if m.name == "sa_ncp"]
    assert api.check_output(engine, OUT).holds
