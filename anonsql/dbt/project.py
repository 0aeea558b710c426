"""``anonsql run SPEC --dbt-project DIR [--target T]``: a spec run against a dbt project.

For adapters without Python models (dbt-postgres), anonsql runs as a step beside dbt, as
elementary's ``edr`` does: the spec's ``source`` (and ``join`` tables) may be written
``source('raw', 'patients')`` or ``ref('stg_patients')``, resolved from the project's manifest
(``dbtRunner().invoke(["parse"])``, dbt's documented programmatic entry point); the engine and
connection come from the project's profile, rendered by dbt itself (so ``env_var`` works as in
dbt). A password is only accepted through ``env_var`` (never written in profiles.yml), handed
to the driver as a separate argument and never logged. The release is then declared as a dbt
source and tested with the ``anonsql_dbt`` package by ``dbt build``.
"""

from __future__ import annotations

import ast
import os
import re
from argparse import Namespace
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from anonsql.engines import DuckDBEngine, Engine
from anonsql.engines.base import redact
from anonsql.errors import EngineError, SpecError
from anonsql.sql import TableName

#: Profile fields passed on to libpq as they are.
_LIBPQ_FIELDS = (
    "host",
    "port",
    "user",
    "sslmode",
    "sslcert",
    "sslkey",
    "sslrootcert",
    "connect_timeout",
    "keepalives_idle",
)
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_ENV_VAR = re.compile(r"\{\{.*env_var\s*\(.*\}\}", re.S)


@dataclass(frozen=True)
class DbtTarget:
    """The connection a dbt target describes (the password is kept apart, never shown)."""

    adapter: str
    target: str
    #: DuckDB: the database file; PostgreSQL: libpq parameters without password.
    database: str | None
    params: Mapping[str, str] = field(default_factory=dict)
    #: The database (catalog) relations of this target live in.
    catalog: str | None = None
    #: The target's schema (dbt builds models there).
    schema: str | None = None
    password: str | None = field(default=None, repr=False)

    def connect(self) -> Engine:
        """An engine on this target's database."""
        if self.adapter == "duckdb":
            return DuckDBEngine(self.database or ":memory:")
        import psycopg

        from anonsql.engines.postgres.engine import PostgresEngine

        extra = {"password": self.password} if self.password else {}
        try:
            info = psycopg.conninfo.make_conninfo("", **self.params, **extra)
            connection = psycopg.connect(info, autocommit=True)
        except psycopg.OperationalError as err:
            raise EngineError(
                f"cannot connect to PostgreSQL as profile target {self.target!r} describes: "
                f"{redact(str(err)).strip()}"
            ) from None
        return PostgresEngine(connection=connection)


def profiles_dir(explicit: Path | None) -> Path:
    """Where dbt looks for profiles.yml: ``--profiles-dir``, ``DBT_PROFILES_DIR``, the current
    directory if it holds one, else ``~/.dbt`` (dbt's own order)."""
    if explicit is not None:
        return explicit
    if os.environ.get("DBT_PROFILES_DIR"):
        return Path(os.environ["DBT_PROFILES_DIR"])
    from dbt.cli.resolvers import default_profiles_dir

    return Path(default_profiles_dir())


def _project_profile(project_dir: Path) -> str:
    path = project_dir / "dbt_project.yml"
    if not path.is_file():
        raise SpecError(
            "--dbt-project", f"{project_dir} has no dbt_project.yml", "give a dbt project folder"
        )
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    profile = data.get("profile")
    if not isinstance(profile, str) or not profile:
        raise SpecError(
            "--dbt-project", "dbt_project.yml names no profile", "add profile: <name> to it"
        )
    return profile


def _refuse_written_password(raw: Mapping[str, Any], profile: str, target: str | None) -> None:
    outputs = (raw.get(profile) or {}).get("outputs") or {}
    name = target or (raw.get(profile) or {}).get("target")
    entry = outputs.get(name) if isinstance(outputs, Mapping) else None
    if not isinstance(entry, Mapping):
        return
    for key in ("password", "pass"):
        value = entry.get(key)
        if value is not None and not (isinstance(value, str) and _ENV_VAR.search(value)):
            raise SpecError(
                f"profiles.yml: {profile}.outputs.{name}.{key}",
                "the password is written in the file",
                f"read it from the environment: {key}: \"{{{{ env_var('DBT_ENV_SECRET_PASSWORD') "
                '}}"',
            )


def load_target(
    project_dir: Path, target: str | None = None, profiles: Path | None = None
) -> DbtTarget:
    """The connection of the project's profile (``target`` or the profile's default target),
    rendered by dbt (``env_var``, ``var``) as ``dbt`` itself would."""
    from dbt.adapters.factory import load_plugin
    from dbt.config.profile import Profile, read_profile
    from dbt.config.renderer import ProfileRenderer
    from dbt.flags import set_from_args
    from dbt_common.context import set_invocation_context

    profile_name = _project_profile(project_dir)
    folder = profiles_dir(profiles)
    raw = read_profile(str(folder))
    if not raw:
        raise SpecError(
            "--profiles-dir",
            f"no profiles.yml in {folder}",
            "give --profiles-dir, or set DBT_PROFILES_DIR, as for dbt",
        )
    _refuse_written_password(raw, profile_name, target)
    adapter = ((raw.get(profile_name) or {}).get("outputs") or {}).get(
        target or (raw.get(profile_name) or {}).get("target"), {}
    )
    if isinstance(adapter, Mapping) and adapter.get("type"):
        load_plugin(str(adapter["type"]))
    # dbt's profile code reads its global flags and invocation context, which the dbt CLI
    # sets up first; do the same (dbt's own documented set-up for programmatic use)
    set_from_args(Namespace(PROFILES_DIR=str(folder), PROJECT_DIR=str(project_dir)), None)
    set_invocation_context(dict(os.environ))
    try:
        profile = Profile.from_raw_profiles(raw, profile_name, ProfileRenderer({}), target)
    except Exception as err:  # dbt's own profile errors; their text names the problem
        raise SpecError(
            f"profiles.yml: {profile_name}", str(err).splitlines()[0], "fix the profile"
        ) from None
    credentials: Any = profile.credentials  # the adapter's own Credentials subclass
    kind = str(credentials.type)
    if kind == "duckdb":
        path = str(getattr(credentials, "path", ":memory:"))
        return DbtTarget(
            "duckdb",
            profile.target_name,
            path,
            catalog=str(credentials.database or ""),
            schema=str(credentials.schema or "main"),
        )
    if kind == "postgres":
        params = {"dbname": str(credentials.database)}
        for name in _LIBPQ_FIELDS:
            value = getattr(credentials, name, None)
            # dbt-postgres takes 0 for "not set" (libpq refuses a keepalive idle of 0)
            if value not in (None, "") and not (name == "keepalives_idle" and value == 0):
                params[name] = str(value)
        options = []
        for name in ("search_path", "role"):
            value = getattr(credentials, name, None)
            if value:
                if not _PLAIN_NAME.fullmatch(str(value)):
                    raise SpecError(
                        f"profiles.yml: {profile_name}.{name}",
                        "anonsql passes it to libpq and accepts plain names only",
                        "use a plain name, or leave it out",
                    )
                options.append(f"-c {name}={value}")
        if options:
            params["options"] = " ".join(options)
        return DbtTarget(
            "postgres",
            profile.target_name,
            None,
            params,
            catalog=str(credentials.database),
            schema=str(credentials.schema),
            password=str(credentials.password) if credentials.password else None,
        )
    raise SpecError(
        f"profiles.yml: {profile_name}",
        f"anonsql does not run on dbt's {kind!r} adapter",
        "use a duckdb or postgres target",
    )


@dataclass(frozen=True)
class DbtNames:
    """Relations of the project's manifest: sources by (source, table), nodes by name."""

    sources: Mapping[tuple[str, str], tuple[str, str, str]]
    nodes: Mapping[tuple[str, str], tuple[str, str, str]]

    def resolve(self, text: str, key: str, catalog: str | None) -> str:
        """``source('a', 'b')`` / ``ref('m')`` / ``ref('pkg', 'm')`` -> ``"schema"."table"``;
        anything else is returned unchanged (a plain relation name)."""
        call = _dbt_call(text, key)
        if call is None:
            return text
        function, args = call
        if function == "source":
            found = self.sources.get((args[0], args[1]))
            what = f"source('{args[0]}', '{args[1]}')"
        else:
            name = args[-1]
            matches = [
                where
                for (package, node), where in self.nodes.items()
                if node == name and (len(args) == 1 or package == args[0])
            ]
            if len(matches) > 1:
                raise SpecError(
                    key, f"ref('{name}') matches models of several packages", "ref('pkg', 'name')"
                )
            found = matches[0] if matches else None
            what = f"ref('{name}')"
        if found is None:
            raise SpecError(
                key, f"{what} is not in the dbt project's manifest", "check the name (dbt ls)"
            )
        database, schema, identifier = found
        if catalog and database and database != catalog:
            raise SpecError(
                key,
                f"{what} lives in the database {database!r}, not in the target's {catalog!r}",
                "anonymize relations of the target's database",
            )
        return TableName(identifier, schema).sql()


def _dbt_call(text: str, key: str) -> tuple[str, list[str]] | None:
    stripped = text.strip()
    if stripped.startswith("{{") and stripped.endswith("}}"):
        stripped = stripped[2:-2].strip()
    if not re.match(r"(source|ref)\s*\(", stripped):
        return None
    try:
        node = ast.parse(stripped, mode="eval").body
    except SyntaxError:
        node = None
    ok = (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and not node.keywords
        and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args)
    )
    if not ok:
        raise SpecError(
            key, "not a dbt source() or ref() call", "write source('s', 't') or ref('m')"
        )
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    args = [str(a.value) for a in node.args if isinstance(a, ast.Constant)]
    wanted = {"source": (2,), "ref": (1, 2)}[node.func.id]
    if len(args) not in wanted:
        raise SpecError(key, f"{node.func.id}() takes {wanted} names", "write source('s', 't')")
    return node.func.id, args


def manifest_names(project_dir: Path, target: str | None, profiles: Path | None) -> DbtNames:
    """Parse the project with dbt (``dbt parse``) and index its sources and models."""
    from dbt.cli.main import dbtRunner

    args = ["parse", "--project-dir", str(project_dir), "--quiet"]
    args += ["--profiles-dir", str(profiles_dir(profiles))]
    if target:
        args += ["--target", target]
    result = dbtRunner().invoke(args)
    manifest: Any = result.result  # a dbt Manifest after `parse`
    if not result.success or manifest is None:
        detail = f": {result.exception}" if result.exception else ""
        raise SpecError(
            "--dbt-project", f"dbt could not parse the project{detail}", "run dbt parse"
        )
    sources = {
        (s.source_name, s.name): (str(s.database or ""), str(s.schema), str(s.identifier))
        for s in manifest.sources.values()
    }
    nodes = {
        (n.package_name, n.name): (str(n.database or ""), str(n.schema), str(n.alias))
        for n in manifest.nodes.values()
        if str(n.resource_type) in ("model", "seed", "snapshot")
    }
    return DbtNames(sources, nodes)


def project_spec(spec: Mapping[str, Any], names: DbtNames, catalog: str | None) -> dict[str, Any]:
    """The spec with its ``source()``/``ref()`` names resolved; ``engine`` and ``database``
    must be left to the profile."""
    for key in ("engine", "database"):
        if spec.get(key) is not None:
            raise SpecError(
                key,
                "--dbt-project takes the engine and the connection from the project's profile",
                f"remove {key} from the spec (or run without --dbt-project)",
            )
    resolved = dict(spec)
    if isinstance(resolved.get("source"), str):
        resolved["source"] = names.resolve(resolved["source"], "source", catalog)
    joins = resolved.get("join")
    if isinstance(joins, list):
        resolved["join"] = [
            {**j, "table": names.resolve(j["table"], f"join[{i}].table", catalog)}
            if isinstance(j, Mapping) and isinstance(j.get("table"), str)
            else j
            for i, j in enumerate(joins)
        ]
    return resolved
