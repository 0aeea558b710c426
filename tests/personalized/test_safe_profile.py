"""The safe profile on the paper's example and on random tables, on every engine: the declared
bound (1/l per attribute) holds for an independent adversary over the published relations and
for one who knows every row's original value; the paper_compat release of the same example
breaks it; the violation queries find what they should."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from adversary import frame, mapping_confidence, raw_confidence
from personalized_fixtures import (
    JOB,
    TABLE_2,
    Released,
    load_table_2,
    paper_config,
    private_values,
    publish,
    published_frames,
    safe_config,
    table_2,
    taxonomies,
)

from anonsql.algorithms.personalized.clustering import frequency_l_holds
from anonsql.algorithms.personalized.config import (
    CategoricalSA,
    FuzzyTerms,
    NumericSA,
    PersonalizedConfig,
)
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine
from anonsql.errors import InfeasibleError, SpecError, VerificationError
from anonsql.hierarchies import Hierarchy
from anonsql.layouts.personalized.checks import BUCKET_DIVERSITY, GROUP_DIVERSITY, run_checks
from anonsql.metrics.personalized import personalized_metrics
from anonsql.sql import TableName


def assert_bound_holds(engine: Engine, released: Released) -> dict[str, float]:
    config = released.release.config
    published = published_frames(engine, released)
    # no cell is published per tuple: only the groups' generalized quasi-identifiers
    assert list(published["tuples"].columns) == ["group_id"]
    buckets = {c: published[c] for c in config.sensitive_columns}
    mapped = mapping_confidence(published["group_buckets"], buckets, taxonomies(config))
    raw = raw_confidence(private_values(engine, released), list(config.sensitive_columns))
    for attr, column in enumerate(config.sensitive_columns):
        bound = config.bound(attr)
        assert mapped[column] <= bound + 1e-9, column
        assert raw[column] <= bound + 1e-9, column
    return mapped


def test_safe_profile_bounds_the_paper_example(engine: Engine) -> None:
    load_table_2(engine)
    released = publish(engine, safe_config())
    assert not any(released.release.violations.values())
    mapped = assert_bound_holds(engine, released)
    # the SQL metric agrees with the independent computation
    metrics = personalized_metrics(engine, released.release.decisions, queries=40)
    for s in metrics.sensitive:
        assert s.confidence_published == pytest.approx(mapped[s.attribute])
        assert s.confidence_links <= s.bound + 1e-9
        assert s.bound == 0.5
    assert {q.sensitive for q in metrics.query_error} == {1, 2}


def test_paper_release_fails_the_safe_checks(engine: Engine) -> None:
    """The same example under paper_compat: its groups and buckets violate the safe checks
    (GID1 is all Low in SALARY, GID3 is 3/4 Adm-clerical, SB1 is five Lows)."""
    load_table_2(engine)
    released = publish(engine, paper_config())
    config = released.release.config
    found = run_checks(engine, config, released.work, (GROUP_DIVERSITY, BUCKET_DIVERSITY))
    assert found["group_diversity"] >= 2
    assert found["bucket_diversity"] >= 1
    rows = engine.fetchall(GROUP_DIVERSITY.violations_sql(engine.sql, config, released.work))
    assert {r[0] for r in rows} >= {"job", "salary"}
    # buckets of 5 force repeated JOB labels up the taxonomy: a bucket then covers one leaf
    # with more than half its cells, and the safe profile refuses to publish
    with pytest.raises(VerificationError, match="bucket_diversity"):
        publish(engine, safe_config(bucket_k=5), name="refused")
    assert not engine.exists(TableName("refused", "anon"))


def test_safe_buckets_are_shuffled_per_attribute(engine: Engine) -> None:
    """BONUS is SALARY / 10, so the two attributes' terms agree row by row; the paper's tables
    keep the rows aligned (slot i of SB and BB is one tuple), the safe profile's do not."""
    load_table_2(engine)
    for config, aligned in ((paper_config(), True), (safe_config(), False)):
        released = publish(engine, config, name=config.profile)
        slots = frame(engine, released.work.slots)
        salary = slots[slots["attr"] == 3].set_index(["bucket", "slot"])["rid"]
        bonus = slots[slots["attr"] == 4].set_index(["bucket", "slot"])["rid"]
        same = (salary.sort_index() == bonus.reindex(salary.sort_index().index)).all()
        assert bool(same) is aligned


def test_weights_are_rounded(engine: Engine) -> None:
    load_table_2(engine)
    released = publish(engine, safe_config())
    for column in ("salary", "bonus", "loan"):
        weights = published_frames(engine, released)[column]["weight"].astype(float)
        assert np.allclose(weights * 4, np.round(weights * 4))
    values = private_values(engine, released)
    # several distinct salaries share one published (term, weight): no exact inversion
    assert values.groupby(["salary"])["salary_raw"].nunique().max() > 1


def test_same_seed_same_release_on_both_engines(pg_database: str) -> None:
    releases = []
    for engine in (DuckDBEngine(":memory:"), PostgresEngine(pg_database)):
        with engine:
            load_table_2(engine)
            released = publish(engine, safe_config())
            published = published_frames(engine, released)
            releases.append(
                {
                    k: sorted(map(str, df.astype(str).itertuples(index=False, name=None)))
                    for k, df in published.items()
                }
            )
    assert releases[0] == releases[1]


def test_degenerate_inputs(engine: Engine) -> None:
    """Digest T15: nobody consents (an empty release), fewer consenting rows than k, and a
    numeric attribute with one value (no term diversity)."""
    nobody = table_2().set_column(0, "pd", pa.array([False] * 12))
    empty = TableName("nobody", "main")
    engine.load_arrow(empty, nobody)
    released = publish(engine, safe_config(), name="empty", source=empty)
    assert released.release.consent.suppression_ratio == 1.0
    assert all(len(df) == 0 for df in published_frames(engine, released).values())
    load_table_2(engine)
    with pytest.raises(InfeasibleError, match="k = 11"):
        publish(engine, safe_config(k=11), name="k11")
    flat = FuzzyTerms(("Low", "High"), (0, 1000000))
    with pytest.raises(InfeasibleError, match="'salary'"):
        publish(
            engine,
            safe_config(numeric=(NumericSA("salary", flat),)),
            name="flat",
        )
    with pytest.raises(InfeasibleError, match="'job'"):
        publish(engine, safe_config(categorical=(CategoricalSA("job", JOB, l=3),)), name="l3")


def test_unusable_values_are_named_without_data(engine: Engine) -> None:
    load_table_2(engine)
    # P12 writes "HS-Grad", which is no leaf of the taxonomy: harmless while P12 withholds
    consent = pa.array([True] * 12)
    engine.load_arrow(TableName("all_consent", "main"), table_2().set_column(0, "pd", consent))
    with pytest.raises(SpecError) as info:
        publish(engine, safe_config(), name="all", source=TableName("all_consent", "main"))
    message = str(info.value)
    assert "'education'" in message and "taxonomy" in message and "Fix:" in message
    assert "HS-Grad" not in message


COLORS = Hierarchy(
    [
        [c, "warm" if c in ("red", "orange", "yellow") else "cold", "*"]
        for c in ("red", "orange", "yellow", "green", "blue", "violet")
    ],
    name="color",
)


def random_table(seed: int, n: int) -> pa.Table:
    rng = np.random.default_rng(seed)
    colors = np.array(COLORS.leaves)
    return pa.table(
        {
            "consent": rng.random(n) < 0.85,
            "age": rng.integers(20, 60, n),
            "zip": rng.integers(100, 110, n),
            "color": colors[rng.choice(6, n, p=[0.3, 0.2, 0.2, 0.1, 0.1, 0.1])],
            "score": np.round(rng.gamma(2.0, 20.0, n), 1),
        }
    )


def random_config(profile: str, l: int) -> PersonalizedConfig:
    return PersonalizedConfig(
        quasi_identifiers=("zip", "age"),
        consent_column="consent",
        categorical=(CategoricalSA("color", COLORS),),
        numeric=(NumericSA("score", FuzzyTerms(("low", "mid", "high"), (10, 40, 80))),),
        profile=profile,  # type: ignore[arg-type]
        k=4,
        l=l,
        bucket_k=3 if profile == "paper_compat" else None,
        seed=11,
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_random_tables(engine: Engine, seed: int) -> None:
    """On random tables: the safe release keeps its bound; and the group_diversity query agrees
    with the predicate the grouping search uses, on the paper release's groups."""
    source = TableName(f"random{seed}", "main")
    engine.load_arrow(source, random_table(seed, 150))
    safe = publish(engine, random_config("safe", 2), name=f"safe{seed}", source=source)
    assert_bound_holds(engine, safe)
    paper = publish(engine, random_config("paper_compat", 2), name=f"paper{seed}", source=source)
    config = random_config("safe", 3)
    sql = engine.fetchall(GROUP_DIVERSITY.violations_sql(engine.sql, config, paper.work))
    flagged = {(r[0], int(r[1])) for r in sql}
    # the predicate over covering counts of every group's published labels
    cells = frame(engine, paper.work.slots).merge(frame(engine, paper.work.members), on="rid")
    labels = frame(engine, paper.work.labels)
    leaves = labels[labels["is_leaf"]]
    expected = set()
    for attr, column in enumerate(config.sensitive_columns):
        own = cells[cells["attr"] == attr].merge(
            labels[labels["attr"] == attr][["node", "first_leaf", "last_leaf"]], on="node"
        )
        own_leaves = leaves[leaves["attr"] == attr]["first_leaf"].to_numpy()
        covers = (own["first_leaf"].to_numpy()[:, None] <= own_leaves[None, :]) & (
            own_leaves[None, :] <= own["last_leaf"].to_numpy()[:, None]
        )
        per_group = pd.DataFrame(covers.astype(np.int64)).groupby(own["group_id"].to_numpy()).sum()
        sizes = np.asarray(own.groupby("group_id").size().reindex(per_group.index), np.int64)
        holds = frequency_l_holds(
            per_group.to_numpy(), sizes, np.full(per_group.shape[1], config.l_of(attr))
        )
        expected |= {(column, int(g)) for g in per_group.index[~holds]}
    assert flagged == expected
    assert expected  # the paper's grouping is not 3-diverse on these tables


def test_consent_values_other_than_booleans(engine: Engine) -> None:
    table = table_2().set_column(0, "pd", pa.array(["T" if r[0] else "F" for r in TABLE_2]))
    source = TableName("text_consent", "main")
    engine.load_arrow(source, table)
    released = publish(engine, safe_config(consent_values=("T",)), name="text", source=source)
    assert released.release.consent.consenting_rows == 10
