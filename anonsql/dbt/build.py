"""``anonsql dbt build [dbt args]``: one command that publishes every anonsql model of a dbt
project and builds it, on every adapter anonsql runs on (dbt-duckdb and dbt-postgres).

An anonsql model is a SQL model materialized as ``anonsql`` (the ``anonsql_dbt`` package),
whose code is ``{{ anonsql_dbt.release(ref('patients')) }}`` and whose YAML config holds the
spec under ``anonsql:`` (as the dbt-duckdb Python model's): its one ``ref()``/``source()`` is
its parent in dbt's graph and the relation anonymized. dbt cannot run Python in a SQL model, so
the build runs in three steps through dbt's programmatic entry point (``dbtRunner``), on one
parsed manifest:

1. ``dbt build`` of what the selected anonsql models read (their ancestors in the selection,
   and the tests of those), so the source is current;
2. anonsql publishes each selected anonsql model's release by the normal path (certified
   versions, ``<model schema>_anonsql.<model>`` unless ``output`` says otherwise) on the
   connection of the project's profile (:func:`anonsql.dbt.project.load_target`);
3. ``dbt build`` of the rest of the selection: the anonsql models (a table of their release's
   certified rows, whose log line carries the certificate's findings) and everything
   downstream.

``run_results.json`` then holds the results of steps 1 and 3 together. With ``--empty`` dbt
reads no rows, so nothing is published (one line says so), and the package's ``certified``
and ``attacks`` tests are left out (an empty model never holds the rows certified).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonsql import api
from anonsql.dbt import project
from anonsql.dbt.python_model import CONFIG_KEY, findings, model_spec
from anonsql.errors import SpecError
from anonsql.report import RunResult
from anonsql.sql import TableName

#: The materialization of an anonsql model (integrations/dbt/anonsql_dbt/macros).
MATERIALIZATION = "anonsql"

#: The package's tests of a release (not of the rows): left out of an ``--empty`` build.
RELEASE_TESTS = ("certified", "attacks")
#: dbt options that change what the project parses to or where it connects: given to every
#: step. ``--x=value`` is accepted as well.
_PROJECT_OPTIONS = ("--project-dir", "--profiles-dir", "--profile", "--target", "-t", "--vars")
#: Selection options (each takes one or more values): the user's, listed (``dbt ls``) to
#: choose the models and step 1's nodes, and given to step 3 with step 1's nodes excluded
#: (with ``--selector`` dbt ignores ``--exclude``: step 3 then builds step 1's nodes again).
_SELECT_OPTIONS = ("--select", "-s", "--models", "-m", "--exclude", "--selector")


@dataclass(frozen=True)
class BuildArgs:
    """The dbt arguments of ``anonsql dbt build``, split by what each step needs."""

    project: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    rest: tuple[str, ...] = ()
    values: Mapping[str, str] = field(default_factory=dict)

    @property
    def project_dir(self) -> Path:
        return Path(self.values.get("--project-dir", "."))

    @property
    def profiles_dir(self) -> Path | None:
        found = self.values.get("--profiles-dir")
        return Path(found) if found else None

    @property
    def target(self) -> str | None:
        return self.values.get("--target") or self.values.get("-t")

    @property
    def empty(self) -> bool:
        return "--empty" in self.rest


def split_args(args: Sequence[str]) -> BuildArgs:
    """Sort ``dbt build`` arguments into project options, selection and the rest."""
    project_args: list[str] = []
    select: list[str] = []
    rest: list[str] = []
    values: dict[str, str] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, inline = arg.partition("=")
        if name in _PROJECT_OPTIONS:
            value = inline if eq else (args[i + 1] if i + 1 < len(args) else None)
            if value is None:
                raise SpecError(name, "needs a value", f"write {name} VALUE")
            values[name] = value
            project_args += [name, value]
            i += 1 if eq else 2
        elif name in _SELECT_OPTIONS:
            select.append(arg)
            i += 1
            while not eq and i < len(args) and not args[i].startswith("-"):
                select.append(args[i])
                i += 1
        else:
            rest.append(arg)
            i += 1
    return BuildArgs(tuple(project_args), tuple(select), tuple(rest), values)


@dataclass(frozen=True)
class Published:
    """One anonsql model's release, published by step 2."""

    model: str
    result: RunResult

    def line(self) -> str:
        """The findings, as the model's dbt log line shows them (and the warnings in full)."""
        line = findings(self.result).removeprefix("anonsql: ")
        lines = [f"anonsql: {self.model} -> {self.result.names.main}: {line}"]
        lines += [f"anonsql: {self.model}: {w}" for w in self.result.warnings()]
        return "\n".join(lines)


def _invoke(manifest: Any, args: Sequence[str]) -> Any:
    from dbt.cli.main import dbtRunner

    return dbtRunner(manifest=manifest).invoke(list(args))


def parse(args: BuildArgs) -> Any:
    """The project's manifest (``dbt parse``)."""
    from dbt.cli.main import dbtRunner

    result = dbtRunner().invoke(["parse", *args.project])
    if not result.success or result.result is None:
        detail = f": {result.exception}" if result.exception else ""
        raise SpecError(
            "--project-dir", f"dbt could not parse the project{detail}", "run dbt parse"
        )
    return result.result


def anonsql_models(manifest: Any) -> dict[str, Any]:
    """The project's anonsql models by unique id."""
    return {
        uid: node
        for uid, node in manifest.nodes.items()
        if str(node.resource_type) == "model" and node.config.materialized == MATERIALIZATION
    }


def selected(manifest: Any, args: BuildArgs) -> set[str]:
    """The unique ids the user's selection picks (``dbt ls``), everything without one."""
    if not args.select:
        return set(manifest.nodes)
    listing = ["ls", *args.project, *args.select, "--output", "json"]
    # dbt prints a listing even with --quiet; its result is what is wanted here
    listing += ["--output-keys", "unique_id", "--log-level", "none"]
    result = _invoke(manifest, listing)
    if not result.success:
        raise SpecError("--select", "dbt could not list the selection", "check it with dbt ls")
    return {json.loads(line)["unique_id"] for line in result.result or ()}


def _parents(manifest: Any, uid: str) -> list[str]:
    node = manifest.nodes.get(uid)
    # a seed depends on macros only (no ``nodes``); a source on nothing
    return list(getattr(node.depends_on, "nodes", ())) if node is not None else []


def ancestors(manifest: Any, roots: Sequence[str]) -> set[str]:
    """Every node the ``roots`` read, directly or not (sources included)."""
    found: set[str] = set()
    todo = [p for r in roots for p in _parents(manifest, r)]
    while todo:
        uid = todo.pop()
        if uid in found:
            continue
        found.add(uid)
        todo.extend(_parents(manifest, uid))
    return found


def upstream(manifest: Any, models: Sequence[str], chosen: set[str]) -> list[str]:
    """Step 1: the chosen nodes the models read, and the chosen tests of those only."""
    above = ancestors(manifest, models)
    nodes = []
    for uid in sorted(chosen & set(manifest.nodes)):
        parents = set(_parents(manifest, uid))
        test = str(manifest.nodes[uid].resource_type) in ("test", "unit_test")
        if uid in above or (test and parents and parents <= above):
            nodes.append(uid)
    return nodes


def _fqn(manifest: Any, uid: str) -> str:
    return "fqn:" + ".".join(manifest.nodes[uid].fqn)


def _relation(manifest: Any, uid: str, key: str, catalog: str | None) -> TableName:
    found = manifest.nodes.get(uid) or manifest.sources.get(uid)
    identifier = getattr(found, "alias", None) or getattr(found, "identifier", None)
    database = str(getattr(found, "database", "") or "")
    if catalog and database and database != catalog:
        raise SpecError(
            key,
            f"{uid} lives in the database {database!r}, not in the target's {catalog!r}",
            "anonymize relations of the target's database",
        )
    return TableName(str(identifier), str(found.schema))


def model_source(
    manifest: Any, uid: str, models: Mapping[str, Any], catalog: str | None
) -> TableName:
    """The one relation an anonsql model reads (its ``ref()``/``source()``), as a name."""
    node = models[uid]
    key = f"models.{node.name}"
    parents = list(node.depends_on.nodes)
    if len(parents) != 1:
        raise SpecError(
            key,
            f"an anonsql model reads exactly one ref() or source(), this one {len(parents)}",
            "write the model as {{ anonsql_dbt.release(ref('<table>')) }} (join in an "
            "upstream model)",
        )
    if parents[0] in models or ancestors(manifest, parents) & set(models):
        raise SpecError(
            key,
            "it reads another anonsql model's release",
            "anonymize the source once, in one anonsql model",
        )
    return _relation(manifest, parents[0], key, catalog)


def publish(
    manifest: Any,
    connection: project.DbtTarget,
    models: Sequence[str],
    all_models: Mapping[str, Any],
    base_dir: Path,
) -> list[Published]:
    """Step 2: publish each model's release on the connection of the project's profile."""
    from anonsql.spec import spec_from_mapping

    specs = []
    for uid in models:
        node = all_models[uid]
        this = _relation(manifest, uid, f"models.{node.name}", connection.catalog)
        source = model_source(manifest, uid, all_models, connection.catalog)
        declared = model_spec(node.config.get(CONFIG_KEY), source, this, materialize=None)
        declared["engine"] = connection.adapter
        specs.append((node.name, spec_from_mapping(declared, base_dir=base_dir)))
    engine = connection.connect()
    try:
        return [Published(name, api.run(spec, engine=engine)) for name, spec in specs]
    finally:
        engine.close()


def merge_results(folder: Path, earlier: Mapping[str, Any] | None) -> None:
    """One run_results.json for the whole command: step 1's results, then step 3's."""
    path = folder / "run_results.json"
    if earlier is None or not path.is_file():
        return
    later = json.loads(path.read_text(encoding="utf-8"))
    later["results"] = [*earlier["results"], *later["results"]]
    later["elapsed_time"] = float(earlier["elapsed_time"]) + float(later["elapsed_time"])
    path.write_text(json.dumps(later), encoding="utf-8")


def build(args: Sequence[str], echo: Callable[[str], None] = print) -> int:
    """``anonsql dbt build ARGS``; returns dbt's exit code (0 success, 1 a node failed, 2 dbt
    stopped), after anonsql's errors were raised (the previous releases stay as they were)."""
    from anonsql.dbt import require_dbt

    require_dbt()
    split = split_args(args)
    manifest = parse(split)
    everything = anonsql_models(manifest)
    chosen = selected(manifest, split)
    models = sorted(uid for uid in everything if uid in chosen)
    first = upstream(manifest, models, chosen) if models else []
    # the profile first: a password written in profiles.yml is refused before dbt runs
    connection = None
    if models and not split.empty:
        connection = project.load_target(split.project_dir, split.target, split.profiles_dir)
    target_folder = split.project_dir / "target"
    earlier = None
    if first:
        done = _invoke(
            manifest,
            ["build", *split.project, "--select", *(_fqn(manifest, u) for u in first), *split.rest],
        )
        if not done.success:
            echo("anonsql: what the anonymized models read did not build: nothing published")
            return 2 if done.exception else 1
        earlier = json.loads((target_folder / "run_results.json").read_text(encoding="utf-8"))
    if models and split.empty:
        echo(
            "anonsql: dbt build --empty reads no rows: no release published (and the "
            "certified and attacks tests, which check a release, are left out)"
        )
    elif connection is not None:
        for published in publish(manifest, connection, models, everything, split.project_dir):
            echo(published.line())
    # dbt takes --exclude more than once: the user's exclusions and step 1's together
    rest = [*split.select, *(["--exclude", *(_fqn(manifest, u) for u in first)] if first else [])]
    if split.empty:
        # an empty model never holds the rows its certificate counted
        rest += ["--exclude", *(f"test_name:{t}" for t in RELEASE_TESTS)]
    done = _invoke(manifest, ["build", *split.project, *rest, *split.rest])
    merge_results(target_folder, earlier)
    if done.success:
        return 0
    return 2 if done.exception else 1
