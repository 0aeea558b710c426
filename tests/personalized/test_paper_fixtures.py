"""The paper's worked example through the paper_compat profile, on every engine: digest 002
fixtures T1-T12 and T14 (Reddy, Raju, Valli Kumari, IJET 2018, Tables 1-13)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from adversary import frame, raw_confidence, tuple_confidence
from personalized_fixtures import (
    PID_BY_SALARY,
    TABLE_2,
    TABLE_8,
    TABLE_9,
    Released,
    multiset,
    paper_config,
    private_values,
    publish,
    published_frames,
    taxonomies,
)

from anonsql.engines import Engine
from anonsql.metrics.personalized import personalized_metrics

CONSENTING = [row for row in TABLE_2 if row[0]]
PIDS = {row[1] for row in TABLE_2}


def pid_partition(values: pd.DataFrame) -> set[frozenset[str]]:
    pids = values["salary_raw"].map(lambda x: PID_BY_SALARY[int(x)])
    return {frozenset(g) for _, g in pids.groupby(values["group_id"])}


@pytest.fixture
def paper(engine: Engine) -> Released:
    from personalized_fixtures import load_table_2

    load_table_2(engine)
    return publish(engine, paper_config())


def test_t1_consent_filter(engine: Engine, paper: Released) -> None:
    consent = paper.release.consent
    assert (consent.source_rows, consent.consenting_rows, consent.withheld_rows) == (12, 10, 2)
    assert consent.suppression_ratio == pytest.approx(2 / 12)
    published = published_frames(engine, paper)
    cells = set()
    for df in published.values():
        assert not {"pid", "pname", "pd"} & set(df.columns)
        cells |= {str(v) for v in df.to_numpy().ravel()}
    names = {row[2] for row in TABLE_2}
    assert not cells & (PIDS | names)
    # the withheld subjects' QID values appear nowhere (P11: 39, 42123; P12: 31, 41234)
    values = set(published["group_values"]["value"])
    assert not values & {"39", "42123", "31", "41234"}
    assert published["groups"]["group_size"].sum() == 10


def test_t2_vertical_split(engine: Engine, paper: Released) -> None:
    values = private_values(engine, paper)
    expected_q = sorted((r[3], r[4], r[5]) for r in CONSENTING)
    assert sorted(values[["age", "gender", "zipcode"]].itertuples(index=False, name=None)) == (
        expected_q
    )
    expected_n = sorted((r[6], r[7], r[8]) for r in CONSENTING)
    got_n = values[["salary_raw", "bonus_raw", "loan_raw"]].astype(int)
    assert sorted(got_n.itertuples(index=False, name=None)) == expected_n
    expected_c = sorted((r[9], r[10], r[11]) for r in CONSENTING)
    got_c = values[["education", "job", "disease"]]
    assert sorted(got_c.itertuples(index=False, name=None)) == expected_c


def test_t3_qid_clusters(engine: Engine, paper: Released) -> None:
    values = private_values(engine, paper)
    assert pid_partition(values) == {
        frozenset({"P02", "P03"}),
        frozenset({"P01", "P06"}),
        frozenset({"P04", "P05", "P07", "P10"}),
        frozenset({"P08", "P09"}),
    }
    assert values.groupby("group_id").size().min() >= 2


def test_t4_multisets(engine: Engine, paper: Released) -> None:
    groups = published_frames(engine, paper)["groups"]
    got = {
        frozenset(multiset(g["zipcode"])): (
            multiset(g["age"]),
            multiset(g["gender"]),
            g["group_size"],
        )
        for g in groups.to_dict("records")
    }
    assert got == TABLE_8
    # canonical order: ascending values, numbers numerically
    row = groups[groups["group_size"] == 4].iloc[0]
    assert row["age"] == "43:1,47:1,49:1,50:1"
    assert row["zipcode"] == "42344:1,42411:1,42413:1,42512:1"
    assert row["gender"] == "Female:1,Male:3"


def test_t5_t6_fuzzy_terms_in_the_engine(engine: Engine, paper: Released) -> None:
    values = private_values(engine, paper)
    for row in values.to_dict("records"):
        term, weight = TABLE_9[int(row["salary_raw"])]
        assert (row["salary"], row["salary_weight"]) == (term, pytest.approx(weight))
        # T6: BONUS gives SALARY's weights tuple by tuple
        assert (row["bonus"], row["bonus_weight"]) == (term, pytest.approx(weight))
        if int(row["loan_raw"]) == 175000:  # P07: 1.2 x 125000 would be 150000 (digest T6)
            assert (row["loan"], row["loan_weight"]) == ("Low", pytest.approx(0.0417, abs=1e-4))
        else:
            assert (row["loan"], row["loan_weight"]) == (term, pytest.approx(weight))
    salary = published_frames(engine, paper)["salary"]
    got = sorted(zip(salary["term"], salary["weight"].astype(float).round(6), strict=True))
    assert got == sorted(TABLE_9.values())


def test_t7_numeric_buckets(engine: Engine, paper: Released) -> None:
    cells = frame(engine, paper.work.slots)
    for attr, column in enumerate(["salary", "bonus", "loan"], start=3):
        own = cells[cells["attr"] == attr]
        sizes = own.groupby("bucket").size()
        assert sorted(sizes) == [5, 5]
        assert (own.groupby("bucket")["raw"].nunique() == sizes).all(), column
        assert len(published_frames(engine, paper)[column]) == 10


def test_t8_categorical_buckets(engine: Engine, paper: Released) -> None:
    published = published_frames(engine, paper)
    cells = frame(engine, paper.work.slots)
    labels = frame(engine, paper.work.labels)
    stats = {a.attribute: a for a in paper.release.bucketing.attributes}
    generalized = {
        "education": (0, set()),
        "job": (1, {"White-collar"}),
        "disease": (1, {"Any Disease"}),
    }
    for attr, column in enumerate(["education", "job", "disease"]):
        table = published[column]
        assert sorted(table.groupby("bucket").size()) == [3, 3, 4]
        # labels pairwise distinct in every bucket
        assert (table.groupby("bucket")["value"].nunique() == table.groupby("bucket").size()).all()
        count, ancestors = generalized[column]
        assert stats[column].generalized_cells == count
        leaves = set(paper.release.config.categorical[attr].taxonomy.leaves)
        assert set(table["value"]) - leaves == ancestors
        # mapping generalized cells back to their original values gives Table 6's column
        own = labels[labels["attr"] == attr].set_index("node")["label"]
        originals = cells[cells["attr"] == attr]["orig"].map(own)
        expected = sorted(str(r[9 + attr]) for r in CONSENTING)
        assert sorted(originals) == expected


def test_t10_to_t12_metrics(engine: Engine, paper: Released) -> None:
    metrics = personalized_metrics(engine, paper.release.decisions)
    by = {s.attribute: s for s in metrics.sensitive}
    # T10: transformation ratio over the published rows, and over the 12 source rows
    assert [by[c].transformation_ratio for c in ("education", "job", "disease")] == [
        0.0,
        pytest.approx(0.1),
        pytest.approx(0.1),
    ]
    assert by["job"].transformation_ratio_source == pytest.approx(1 / 12)
    assert by["disease"].transformation_ratio_source == pytest.approx(1 / 12)
    # T11: flat disease taxonomy, "Any Disease" is the root: privacy 1, utility 0 for that cell
    assert by["disease"].privacy_gain == pytest.approx(0.10)
    assert by["disease"].utility_gain == pytest.approx(0.90)
    # JOB's 3-level stand-in taxonomy: White-collar has depth 1 of 2 -> utility 0.5
    assert by["job"].utility_gain == pytest.approx((9 + 0.5) / 10)
    # T12: the mean weight of Table 9
    assert by["salary"].utility_gain == pytest.approx(0.627)
    assert by["salary"].privacy_gain == pytest.approx(0.373)
    assert metrics.suppression_ratio == pytest.approx(2 / 12)
    assert metrics.qid_privacy_gain == pytest.approx(1 - 4 / 10)


def test_t14_the_paper_bounds_no_inference(engine: Engine, paper: Released) -> None:
    """The digest's counter-example: with tuple-level links, the adversary who knows Bill's or
    Alice's group learns SALARY = Low for sure, and Adm-clerical for GID3 with 3/4."""
    config = paper.release.config
    values = private_values(engine, paper)
    raw = raw_confidence(values, list(config.sensitive_columns))
    assert raw["job"] == pytest.approx(0.75)
    assert raw["salary"] == pytest.approx(1.0)
    published = published_frames(engine, paper)
    columns = list(config.sensitive_columns)
    tuples = published["tuples"]
    exact = tuple_confidence(tuples, columns, taxonomies(config), covering=False)
    covering = tuple_confidence(tuples, columns, taxonomies(config), covering=True)
    assert exact["salary"] == pytest.approx(1.0)
    assert exact["job"] >= 0.75 - 1e-9
    assert covering["job"] >= exact["job"]
    # the same numbers in SQL
    metrics = personalized_metrics(engine, paper.release.decisions, query_sensitive=())
    sql = {s.attribute: s.confidence_published for s in metrics.sensitive}
    for column in config.sensitive_columns:
        assert sql[column] == pytest.approx(covering[column])
    # far above what the safe profile would declare for l = 2
    assert max(covering.values()) == 1.0 > 1 / config.l


def test_t13_weights_invert_to_values(engine: Engine, paper: Released) -> None:
    """Digest T13: with the configured parameters, the published paper_compat weights give the
    salaries back (the paper's "original values are not published" does not hold)."""
    salary = published_frames(engine, paper)["salary"]
    p = np.asarray(paper.release.config.numeric[0].terms.points, np.float64)
    term = salary["term"].map({"Low": 0, "Medium": 1, "High": 2}).to_numpy()
    w = salary["weight"].astype(float).to_numpy()
    inverted = np.where(
        term == 2, p[2] + w * (p[3] - p[2]), p[term + 1] - w * (p[term + 1] - p[term])
    )
    assert np.allclose(np.sort(inverted), sorted(int(str(r[6])) for r in CONSENTING))
