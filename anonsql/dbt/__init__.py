"""anonsql invoked from dbt.

* :func:`model`: a dbt-duckdb Python model that anonymizes its ``ref()``/``source()`` and
  publishes through anonsql on dbt's connection (:mod:`anonsql.dbt.python_model`);
* :mod:`anonsql.dbt.build`: ``anonsql dbt build``, anonsql models published then built by dbt
  on every adapter;
* :func:`run_in_project`: ``anonsql run SPEC --dbt-project DIR``, a spec file run beside a
  project: names from the project's manifest, the connection from its profile
  (:mod:`anonsql.dbt.project`);
* the dbt package of privacy tests (``integrations/dbt/anonsql_dbt``), generated from the
  privacy templates by :mod:`anonsql.dbt.generate`.

dbt itself (the ``anonsql[dbt]`` extra) is imported only by :func:`run_in_project`,
:mod:`anonsql.dbt.build`, and by the Python model inside dbt's own process.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from anonsql import api
from anonsql.algorithms import ProgressCallback
from anonsql.dbt.python_model import RELEASE_SCHEMA_SUFFIX, model
from anonsql.errors import SpecError
from anonsql.report import RunResult
from anonsql.spec import load_spec, spec_from_mapping


def require_dbt() -> None:
    """Refuse clearly when the ``anonsql[dbt]`` extra is not installed."""
    if importlib.util.find_spec("dbt") is None or importlib.util.find_spec("dbt.cli") is None:
        raise SpecError(
            "--dbt-project",
            "dbt is not installed",
            "pip install 'anonsql[dbt]' (dbt-core, dbt-duckdb and dbt-postgres 1.11)",
        )


def run_in_project(
    spec_path: str | Path,
    project_dir: str | Path,
    *,
    target: str | None = None,
    profiles_dir: str | Path | None = None,
    progress: ProgressCallback | None = None,
) -> RunResult:
    """Run the spec at ``spec_path`` on the connection of a dbt project's profile, with its
    ``source('s', 't')`` / ``ref('m')`` names resolved from the project's manifest."""
    from anonsql.dbt import project

    require_dbt()
    spec = load_spec(spec_path)
    for key in ("engine", "database"):
        if key in spec.model_fields_set:
            raise SpecError(
                key,
                "--dbt-project takes the engine and the connection from the project's profile",
                f"remove {key} from the spec (or run without --dbt-project)",
                source=str(spec_path),
            )
    folder = Path(project_dir)
    profiles = Path(profiles_dir) if profiles_dir is not None else None
    connection = project.load_target(folder, target, profiles)
    names = project.manifest_names(folder, connection.target, profiles)
    declared = spec.model_dump(mode="json", by_alias=True, exclude_unset=True)
    resolved = project.project_spec(declared, names, connection.catalog)
    resolved["engine"] = connection.adapter
    output = dict(resolved.get("output") or {})
    if "schema" not in output and connection.schema:
        # beside the target's schema, as anonsql.dbt.model does: never in the analysts' one
        output["schema"] = connection.schema + RELEASE_SCHEMA_SUFFIX
    resolved["output"] = output
    final = spec_from_mapping(resolved, source=str(spec_path), base_dir=spec.base_dir)
    engine = connection.connect()
    try:
        return api.run(final, engine=engine, progress=progress)
    finally:
        engine.close()


__all__ = ["model", "run_in_project"]
