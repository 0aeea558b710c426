"""The frequency table and node evaluation, on both engines, against pandas on the rows."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from fd_helpers import SOURCE, WORK, load, random_qids, random_table, reference

from anonsql.algorithms.full_domain import (
    FullDomainResult,
    Lattice,
    NodeEvaluator,
    build_frequency,
    full_domain_search,
    make_objective,
    memory,
    suppression_budget,
    write_decisions,
)
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.privacy.registry import models_from_entries
from anonsql.sql import TableName


def test_frequency_table_counts_vectors_and_leaves(engine: Engine) -> None:
    rng = np.random.default_rng(1)
    qids = random_qids(rng, 3)
    table = random_table(rng, 500, qids, sensitive=4)
    load(engine, table)
    freq = build_frequency(engine, SOURCE, qids, schema=WORK, sensitive=["sa"])
    df = table.to_pandas()
    assert freq.rows == 500
    assert freq.vectors == len(df.drop_duplicates([q.column for q in qids] + ["sa"]))
    for q, counts in zip(qids, freq.leaf_counts, strict=True):
        expected = df[q.column].map(q.hierarchy.leaf_rank).value_counts()
        assert counts.sum() == 500
        assert {int(r): int(c) for r, c in enumerate(counts) if c} == {
            int(r): int(c) for r, c in expected.items()
        }
    # sensitive codes number the values in ascending order
    assert freq.global_counts[0].tolist() == df["sa"].value_counts().sort_index().tolist()


def test_values_outside_the_hierarchy_are_refused_by_column(engine: Engine) -> None:
    rng = np.random.default_rng(2)
    qids = random_qids(rng, 2)
    table = random_table(rng, 50, qids)
    values = table.column("c1").to_pylist()
    values[3] = "secret-value"
    values[7] = None
    load(engine, table.set_column(1, "c1", pa.array(values, pa.string())))
    with pytest.raises(SpecError, match=r"columns\.c1\.hierarchy: 2 rows of column 'c1'") as err:
        build_frequency(engine, SOURCE, qids, schema=WORK)
    assert "secret" not in str(err.value)


@pytest.mark.parametrize("in_memory", [False, True])
@pytest.mark.parametrize("rollups", [0, 24])
def test_node_statistics_match_the_rows(engine: Engine, rollups: int, in_memory: bool) -> None:
    """Nodes grouped by the engine's statements and in memory, with and without roll-ups."""
    rng = np.random.default_rng(3)
    qids = random_qids(rng, 3, max_leaves=10)
    table = random_table(rng, 600, qids)
    load(engine, table)
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    evaluator = NodeEvaluator(
        freq,
        models_from_entries([{"k_anonymity": {"k": 4}}]),
        budget=0,
        max_rollups=rollups,
        rollup_min_rows=0,
        in_memory_max_vectors=freq.vectors if in_memory else 0,
    )
    assert evaluator.in_memory is in_memory
    lattice = Lattice(tuple(q.height for q in qids))
    # bottom first, so later nodes may be rolled up from earlier ones
    for index in range(lattice.size):
        levels = lattice.node(index)
        stats = evaluator.with_profile(evaluator.evaluate(levels))
        ref = reference(table, qids, levels, k=4)
        assert (stats.classes, stats.suppressed_rows) == (ref["classes"], ref["suppressed_rows"])
        assert stats.rows == 600
        assert float(stats.squares) == ref["dm_star"]
        assert stats.anonymous == (ref["suppressed_rows"] == 0)
        assert stats.profile is not None
        assert sum(int(rows.sum()) for _, rows in stats.profile) == 3 * stats.suppressed_rows
    kept = evaluator.memory_rollups if in_memory else evaluator.rollups
    if rollups:
        assert kept, "some node should have been kept for roll-ups"
    else:
        assert not kept
    assert not (evaluator.rollups if in_memory else evaluator.memory_rollups)


@pytest.mark.parametrize("limit", [0.0, 0.05])
def test_search_in_memory_and_by_statements_agree(engine: Engine, limit: float) -> None:
    """The whole search (batches, summaries, profiles) ends on the same node with the same
    statistics whether nodes are grouped in memory or by the engine."""
    rng = np.random.default_rng(8)
    qids = random_qids(rng, 4, max_leaves=12)
    load(engine, random_table(rng, 700, qids))
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    results = []
    for max_vectors in (0, freq.vectors):
        evaluator = NodeEvaluator(
            freq,
            models_from_entries([{"k_anonymity": {"k": 5}}]),
            budget=suppression_budget(freq.rows, limit),
            rollup_min_rows=0,
            in_memory_max_vectors=max_vectors,
        )
        result = full_domain_search(evaluator, make_objective("loss"), suppression_limit=limit)
        evaluator.drop_rollups()
        results.append((evaluator.statements, result))
    (by_engine, sql), (in_memory, mem) = results
    assert in_memory < by_engine
    assert (mem.levels, mem.value, mem.classes, mem.suppressed_rows) == (
        sql.levels,
        sql.value,
        sql.classes,
        sql.suppressed_rows,
    )
    assert mem.stats.checked == sql.stats.checked


def test_wide_vectors_are_ranked_into_one_key() -> None:
    """Vectors too wide for one packed key are ranked on the way: equal keys exactly when the
    vectors are equal."""
    rng = np.random.default_rng(9)
    columns = [rng.integers(0, 1 << 20, 2000, dtype=np.int64) for _ in range(4)]
    columns[1] = columns[0] & 7  # repeated vectors
    columns[2] = columns[0] & 3
    columns[3] = columns[0] & 1
    columns[0] = columns[0] & 255
    key = memory._key(columns, [20, 20, 20, 20])
    vectors = np.column_stack(columns)
    assert len(np.unique(key)) == len(np.unique(vectors, axis=0))
    for i in rng.integers(0, 2000, 50):
        same = key == key[i]
        assert (vectors[same] == vectors[i]).all()


def test_l_diversity_reads_histograms(engine: Engine) -> None:
    rng = np.random.default_rng(4)
    qids = random_qids(rng, 2, max_leaves=6)
    table = random_table(rng, 300, qids, sensitive=5)
    load(engine, table)
    freq = build_frequency(engine, SOURCE, qids, schema=WORK, sensitive=["sa"])
    models = models_from_entries(
        [{"k_anonymity": {"k": 3}}, {"distinct_l_diversity": {"column": "sa", "l": 3}}]
    )
    evaluator = NodeEvaluator(freq, models, budget=0, rollup_min_rows=0)
    assert evaluator.monotone
    lattice = Lattice(tuple(q.height for q in qids))
    for index in range(lattice.size):
        levels = lattice.node(index)
        stats = evaluator.evaluate(levels)
        ref = reference(table, qids, levels, k=3, l_column="sa", ell=3)
        assert (stats.classes, stats.suppressed_rows) == (ref["classes"], ref["suppressed_rows"])
        assert float(stats.squares_kept) + 300.0 * stats.suppressed_rows == ref["dm"]


def test_entropy_l_diversity_with_suppression_is_only_partially_monotone(engine: Engine) -> None:
    rng = np.random.default_rng(5)
    qids = random_qids(rng, 2, max_leaves=4)
    load(engine, random_table(rng, 100, qids, sensitive=3))
    freq = build_frequency(engine, SOURCE, qids, schema=WORK, sensitive=["sa"])
    models = models_from_entries([{"entropy_l_diversity": {"column": "sa", "l": 2}}])
    assert not NodeEvaluator(freq, models, budget=5).monotone
    assert NodeEvaluator(freq, models, budget=5).monotone_without_suppression
    assert NodeEvaluator(freq, models, budget=0).monotone


def test_models_the_search_cannot_take(engine: Engine) -> None:
    rng = np.random.default_rng(6)
    qids = random_qids(rng, 1)
    load(engine, random_table(rng, 40, qids, sensitive=3))
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    with pytest.raises(SpecError, match="reads column 'sa'"):
        NodeEvaluator(
            freq,
            models_from_entries([{"distinct_l_diversity": {"column": "sa", "l": 2}}]),
            budget=0,
        )
    t_closeness = models_from_entries([{"t_closeness": {"column": "sa", "t": 0.3}}])
    with pytest.raises(SpecError, match="suppression_limit"):
        NodeEvaluator(freq, t_closeness, budget=3)


def test_decisions_for_publishing(engine: Engine) -> None:
    rng = np.random.default_rng(7)
    qids = random_qids(rng, 3)
    table = random_table(rng, 400, qids)
    load(engine, table)
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    limit = 0.05
    evaluator = NodeEvaluator(
        freq,
        models_from_entries([{"k_anonymity": {"k": 5}}]),
        budget=suppression_budget(400, limit),
    )
    result = full_domain_search(evaluator, make_objective("loss"), suppression_limit=limit)
    assert isinstance(result, FullDomainResult)
    parts, vectors = TableName("parts", WORK), TableName("vectors", WORK)
    classes = write_decisions(evaluator, result, parts=parts, vectors=vectors)
    assert classes == result.classes
    rows = engine.query_arrow("select_all", relation=parts).to_pandas()
    assert rows["n"].sum() == 400
    assert (rows.loc[~rows["suppressed"], "n"] >= 5).all()
    assert (rows.loc[rows["suppressed"], "n"] < 5).all()
    assert int(rows.loc[rows["suppressed"], "n"].sum()) == result.suppressed_rows
    # every node id published is the chosen level's node of some leaf
    for i, (q, level) in enumerate(zip(qids, result.levels, strict=True)):
        assert set(rows[f"node{i}"]) <= set(q.level_nodes[:, level].tolist())
    mapping = engine.query_arrow("select_all", relation=vectors).to_pandas()
    df = table.to_pandas()
    coded = {q.column: df[q.column].map(q.hierarchy.leaf_rank) for q in qids}
    keyed = mapping.set_index([f"q{i}" for i in range(len(qids))])["pid"]
    pids = [keyed[tuple(int(coded[q.column][r]) for q in qids)] for r in range(len(df))]
    sizes = rows.set_index("pid")["n"]
    assert (np.bincount(pids, minlength=len(rows) + 1)[1:] == sizes.sort_index().to_numpy()).all()
