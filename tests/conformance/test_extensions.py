"""The extension promise: a privacy model and an algorithm added by another package (one module
and an entry point, no edit to anonsql or its tests) are picked up by the registries and held
by the conformance suites; and a model whose SQL and predicate disagree fails them.

The toy package is written to a temporary folder with a ``.dist-info`` carrying its entry
points, put on ``PYTHONPATH``, and the conformance suites run on it in a subprocess.
"""

from __future__ import annotations

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

from anonsql.algorithms import Algorithm, Partitioning
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.parts import parts_table
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
'''

ENTRY_POINTS = """
[anonsql.privacy_models]
toy_min_class = anonsql_toy:ToyMinClass
{extra}
[anonsql.algorithms]
toy_one_class = anonsql_toy:ToyOneClass
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


def run_suites(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
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
    }
    for expected in suites:
        assert any(i.endswith(expected) for i in ids), f"{expected} not collected:\n{listed.stdout}"
    done = run_suites(site, "-k", "toy and not postgres")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


def test_a_model_that_disagrees_with_itself_fails_the_suite(tmp_path: Path) -> None:
    site = install_toy(tmp_path, broken=True)
    done = run_suites(site, "-k", "toy_broken and duckdb and agrees")
    assert done.returncode == 1, done.stdout[-4000:]
    assert "1 failed" in done.stdout
