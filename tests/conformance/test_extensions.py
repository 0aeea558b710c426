"""The extension promise: a privacy model, an algorithm and metrics added by another package
(one module and an entry point, no edit to anonsql or its tests) are picked up by the registries
and held by the conformance suites, and the metrics recorded by a real run's ``__metrics`` (and
recomputed by ``anonsql metrics``); and a model whose SQL and predicate disagree fails them.

The toy package is written to a temporary folder with a ``.dist-info`` carrying its entry
points, put on ``PYTHONPATH``, and the conformance suites run on it in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from paths import ROOT

TOY_MODULE = '''
"""Toy extensions: one module, registered by entry points only."""

import numpy as np
import pyarrow as pa
import sqlglot
from pydantic import Field
from sqlglot import exp

from dataclasses import dataclass

from anonsql.algorithms import Algorithm, Partitioning
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.parts import parts_table
from anonsql.metrics import Metric, MetricInput, MetricValue
from anonsql.privacy.base import Bound, Params, PrivacyModel


class ToyParams(Params):
    m: int = Field(ge=1)


class ToyMinClass(PrivacyModel):
    """Every class holds at least ``m`` rows (k-anonymity under another name)."""

    name = "toy_min_class"
    Params = ToyParams
    reference = "a toy model of the extension test"
    examples = ({"m": 1}, {"m": 3})

    @property
    def m(self):
        return self.params.m

    def min_rows(self):
        return self.m

    def bounds(self):
        return (Bound("class_size", self.m),)

    def holds(self, parts):
        return parts.counts >= self.m

    def violations_sql(self, renderer, relation, qids, *, person=None):
        table = sqlglot.parse_one(relation.sql(), into=exp.Table, read="duckdb")
        columns = [exp.column(q, quoted=True) for q in qids]
        count = exp.Count(this=exp.Star())
        query = (
            exp.select(*columns, count.as_("n"))
            .from_(table)
            .group_by(*columns)
            .having(exp.LT(this=count.copy(), expression=exp.Literal.number(self.m)))
        )
        return renderer.generate(query)


class ToyBroken(ToyMinClass):
    """A model whose predicate disagrees with its SQL: the suites must catch it."""

    name = "toy_broken"

    def holds(self, parts):
        return np.ones(len(parts), dtype=bool)


class ToyOneClass(Algorithm):
    """Publishes the whole table as one class."""

    name = "toy_one_class"
    reference = "a toy algorithm of the extension test"

    def partition(self, workspace, progress):
        e = workspace.engine
        stats = e.query_arrow(
            "mondrian/stats", work=workspace.work("rows"), dims=workspace.dimensions,
            window=(0, 2**62),
        )
        dims = workspace.dimensions
        arrays = {d.index: HierarchyArrays(d.hierarchy) for d in dims if d.hierarchy}
        table = parts_table(stats, dims, arrays, np.zeros(stats.num_rows, bool))
        e.load_arrow(workspace.work("parts"), table)
        return Partitioning(
            partitions=stats.num_rows, suppressed_rows=0, suppressed_partitions=0, rounds=1,
            statements=2, statements_per_round=(2,),
        )


class ToySuppressedShare(Metric):
    """Individuals left out of the measured relation, in percent (from the context alone)."""

    name = "toy_suppressed_share"
    reference = "a toy metric of the extension test"
    zero_when_exact = ("toy_suppressed_share",)

    def compute(self, ctx):
        published = ctx.engine.count_rows(ctx.relation)
        share = 100.0 * (ctx.source_rows - published) / ctx.source_rows
        return [MetricValue(self.name, None, share)]


@dataclass(frozen=True)
class ToySourceRecords(MetricInput):
    """An input of the toy's own: the source's records, found where each release has them."""

    records: int

    @classmethod
    def at_publish(cls, release):
        return cls(release.staged.resolved.rows)

    @classmethod
    def of_release(cls, engine, release):
        return cls(release.source_rows)


class ToyRecordsPerIndividual(Metric):
    """Source records per individual (1 but for 1:M data), from an input of its own."""

    name = "toy_records_per_individual"
    reference = "a toy metric of the extension test"
    reads = (ToySourceRecords,)

    def compute(self, ctx):
        records = ctx.get(ToySourceRecords).records
        return [MetricValue(self.name, None, records / ctx.source_rows)]
'''

ENTRY_POINTS = """
[anonsql.privacy_models]
toy_min_class = anonsql_toy:ToyMinClass
{extra}
[anonsql.algorithms]
toy_one_class = anonsql_toy:ToyOneClass

[anonsql.metrics]
toy_suppressed_share = anonsql_toy:ToySuppressedShare
toy_records_per_individual = anonsql_toy:ToyRecordsPerIndividual
"""

#: A real run with the toy metrics installed: what its ``__metrics`` holds of them, and what
#: ``anonsql metrics`` recomputes on the release read back.
REAL_RUN = """
import json
import pyarrow as pa
from anonsql import api
from anonsql.engines import DuckDBEngine
from anonsql.sql import TableName

engine = DuckDBEngine(":memory:")
ages = [20, 21, 22, 90]
engine.load_arrow(TableName("t", "main"), pa.table({"age": ages, "disease": ["flu"] * 4}))
spec = {
    "source": "main.t",
    "output": {"schema": "anon", "name": "t"},
    "columns": {"age": {"role": "quasi_identifier", "type": "numeric"},
                "disease": {"role": "sensitive", "acknowledge_linked": True}},
    "privacy": [{"k_anonymity": {"k": 3}}],
    "suppression_limit": 0.25,
    "algorithm": "mondrian",
}
result = api.run(spec, engine=engine)
rows = engine.query_arrow("select_all", relation=result.names.metrics).to_pylist()
recomputed = api.recompute_metrics(engine, result.names.main)
print(json.dumps({
    "recorded": {r["metric"]: r["value"] for r in rows if r["metric"].startswith("toy_")},
    "recomputed": {m.name: m.value for m in recomputed if m.name.startswith("toy_")},
}))
"""


def install_toy(folder: Path, *, broken: bool = False) -> Path:
    site = folder / "site"
    info = site / "anonsql_toy-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "anonsql_toy.py").write_text(TOY_MODULE, encoding="utf-8")
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: anonsql-toy\nVersion: 0.1\n", encoding="utf-8"
    )
    extra = "toy_broken = anonsql_toy:ToyBroken" if broken else ""
    (info / "entry_points.txt").write_text(ENTRY_POINTS.format(extra=extra), encoding="utf-8")
    return site


def toy_env(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}


def run_suites(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = toy_env(site)
    suites = ROOT / "tests" / "conformance"
    command = [sys.executable, "-m", "pytest", str(suites), "-q", "-p", "no:cacheprovider"]
    command += [f"--ignore={suites / 'test_extensions.py'}", *args]
    return subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=ROOT, start_new_session=True
    )


def test_toy_extensions_are_held_by_the_suites(tmp_path: Path) -> None:
    site = install_toy(tmp_path)
    listed = run_suites(site, "--collect-only", "-k", "toy")
    ids = [line for line in listed.stdout.splitlines() if "::" in line]
    suites = {
        "test_model_conformance.py::test_sql_query_agrees_with_predicate[duckdb-toy_min_class]",
        "test_model_conformance.py::test_declarations[toy_min_class]",
        "test_algorithm_conformance.py::test_release_satisfies_the_model[duckdb-mondrian-toy_min_class]",
        "test_algorithm_conformance.py::test_release_satisfies_the_model[duckdb-toy_one_class-k_anonymity]",
        "test_algorithm_conformance.py::test_same_release_twice_and_on_every_engine[toy_one_class]",
        "test_metric_conformance.py::test_metric_declarations[toy_records_per_individual]",
        "test_metric_conformance.py::test_hand_computed_fixture[duckdb-4-toy_suppressed_share]",
        "test_metric_conformance.py::test_hand_computed_fixture[duckdb-5-toy_suppressed_share]",
        "test_metric_conformance.py::test_hand_computed_fixture[duckdb-4-toy_records_per_individual]",
    }
    for expected in suites:
        assert any(i.endswith(expected) for i in ids), f"{expected} not collected:\n{listed.stdout}"
    # the metric suite's real runs iterate the registry: the toy metrics are among them
    done = run_suites(site, "-k", "(toy or exact_release) and not postgres")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


def test_toy_metrics_are_recorded_by_a_real_run(tmp_path: Path) -> None:
    """Registered by entry points only, the toy metrics are in a run's ``__metrics`` (the
    outlier of 4 rows suppressed; one record per individual) and recomputed alike on the
    release read back, the input of their own found both at publish and on the release."""
    site = install_toy(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", REAL_RUN],
        capture_output=True,
        text=True,
        env=toy_env(site),
        cwd=tmp_path,
        start_new_session=True,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    expected = {"toy_suppressed_share": 25.0, "toy_records_per_individual": 1.0}
    assert found["recorded"] == expected
    assert found["recomputed"] == expected


def test_a_model_that_disagrees_with_itself_fails_the_suite(tmp_path: Path) -> None:
    site = install_toy(tmp_path, broken=True)
    done = run_suites(site, "-k", "toy_broken and duckdb and agrees")
    assert done.returncode == 1, done.stdout[-4000:]
    assert "1 failed" in done.stdout
