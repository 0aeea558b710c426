"""A fuzzed bad-input surface: hypothesis draws hostile tables (identifiers and values: quotes,
semicolons, unicode, newlines, NUL, very long strings, SQL keywords, NULLs, NaN, huge integers,
dates) and spec documents mutated from a valid one, on DuckDB and PostgreSQL, and every run must
keep the invariants of the bad-input contract:

* it succeeds, or fails with an anonsql error whose exit code is in the documented set (never
  another exception: that is a bug, reported with its traceback);
* no value of a quasi-identifier or sensitive column appears in the message (every text value
  carries a marker, long numbers are searched for);
* the source is unchanged (compared row by row, independently of anonsql's checksum);
* the previous release is intact after a failure (same certificate, same rows), and a success
  leaves a release that re-checks.

A second test feeds raw documents (invalid YAML, wrong types, not UTF-8) to the CLI.
"""

from __future__ import annotations

import math
import os
import tempfile
import traceback
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from anonsql import api
from anonsql.cli import main
from anonsql.engines import Engine
from anonsql.errors import AnonsqlError
from anonsql.sql import TableName

#: The documented exit codes of a failed run (see ``anonsql.cli``).
FAILURE_CODES = {1, 2, 3, 4, 5}
#: Every text value in a fuzzed table carries this marker: it must never reach a message.
MARK = "\u00a7"

TRICKY = [
    "O'Brien",
    'say "hi"',
    "a;b",
    "x'); DROP TABLE main.t; --",
    "select",
    "NULL",
    "",
    " ",
    "line\nbreak",
    "tab\there",
    "é ü 漢字 🙂",
    "\\",
    "%s %(x)s",
    "{{ x }}{% if %}",
    "--",
    "/* c */",
    "\u202eevil",
    "x" * 3000,
]
hostile_text = st.one_of(
    st.sampled_from(TRICKY), st.text(max_size=20).filter(lambda s: MARK not in s)
)
hostile_ident = (
    st.one_of(
        st.sampled_from(["select", "from", "group", 'a"b', "a'b", "a;b", "My Col", "ünï", "x.y"]),
        st.text(min_size=1, max_size=24),
    )
    .map(lambda s: s.replace("\x00", "").strip())
    .filter(lambda s: len(s) > 0 and MARK not in s)
)
huge_or_odd = st.one_of(
    st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
)
any_scalar = st.one_of(
    hostile_text, st.booleans(), st.none(), st.integers(), st.floats(), huge_or_odd
)
any_value = st.one_of(
    any_scalar,
    st.lists(any_scalar, max_size=3),
    st.dictionaries(hostile_text, any_scalar, max_size=2),
)


@st.composite
def tables(draw: st.DrawFn, engine_name: str) -> dict[str, Any]:
    """A table of 12-40 rows with hostile column names and (optionally) hostile values."""
    names = draw(st.lists(hostile_ident, min_size=5, max_size=5, unique_by=lambda s: s.casefold()))
    n = draw(st.integers(min_value=12, max_value=40))
    hostile_numbers = draw(st.booleans())
    texts = draw(st.lists(hostile_text, min_size=1, max_size=5))
    if engine_name == "postgres":  # PostgreSQL text cannot hold NUL: the engine's rule, not ours
        texts = [t.replace("\x00", "") for t in texts]

    def text(i: int, j: int) -> str | None:
        if (i * 7 + j) % 11 == 0:
            return None
        return f"{texts[(i + j) % len(texts)]}{MARK}{(i * j) % 5}"

    if hostile_numbers:
        kind = draw(
            st.sampled_from(
                [
                    st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.integers(min_value=-(2**53), max_value=2**53),
                    st.floats(allow_nan=False, allow_infinity=False),
                ]
            )
        )
        numbers = draw(st.lists(kind, min_size=n, max_size=n))
    else:
        numbers = [20 + (i * 7) % 30 for i in range(n)]
    return {
        "names": names,
        "columns": {
            names[0]: [f"id{MARK}{i}" for i in range(n)],
            names[1]: numbers,
            names[2]: [text(i, 1) or f"v{MARK}" for i in range(n)],  # a QID: no NULLs
            names[3]: [text(i, 3) for i in range(n)],
            names[4]: [f"2020-01-{1 + i % 3:02d}" for i in range(n)],
        },
    }


MODELS = ["k_anonymity", "distinct_l_diversity", "t_closeness"]


def model_params(model: str, sensitive: str) -> dict[str, Any]:
    if model == "distinct_l_diversity":
        return {model: {"l": 2, "column": sensitive}}
    if model == "t_closeness":
        return {model: {"t": 0.6, "column": sensitive}}
    return {model: {"k": 3}}


def valid_spec(names: list[str], schema: str, model: str) -> dict[str, Any]:
    return {
        "source": f"{schema}.t",
        "output": {"schema": f"{schema}_out", "name": "rel"},
        "columns": {
            names[0]: {"role": "identifier"},
            names[1]: {"role": "quasi_identifier", "type": "numeric"},
            names[2]: {"role": "quasi_identifier", "hierarchy": {"builder": "mask"}},
            names[3]: {"role": "sensitive"},
            names[4]: {"role": "insensitive"},
        },
        "privacy": [model_params(model, names[3])],
    }


PATHS: list[tuple[Any, ...]] = [
    ("source",),
    ("output", "schema"),
    ("output", "name"),
    ("output", "private_schema"),
    ("output", "materialize"),
    ("output", "grants"),
    ("columns", 1, "role"),
    ("columns", 1, "type"),
    ("columns", 2, "hierarchy"),
    ("columns", 2, "hierarchy", "builder"),
    ("columns", 4, "role"),
    ("columns", 4, "acknowledge_linked"),
    ("privacy",),
    ("privacy", 0),
    ("algorithm",),
    ("join",),
    ("unknown_key",),
]


def mutate(spec: dict[str, Any], names: list[str], path: tuple[Any, ...], value: Any) -> None:
    """Set ``path`` (column indexes name the table's columns) to ``value`` in ``spec``."""
    keys = [names[p] if isinstance(p, int) and i == 1 else p for i, p in enumerate(path)]
    node: Any = spec
    for key in keys[:-1]:
        if isinstance(node, dict):
            node = node.setdefault(key, {})
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            return
    last = keys[-1]
    in_list = isinstance(node, list) and isinstance(last, int) and last < len(node)
    if isinstance(node, dict) or in_list:
        node[last] = value


def rows(engine: Engine, relation: TableName) -> list[str]:
    return sorted(repr(r) for r in engine.query("select_all", relation=relation))


def released(engine: Engine, spec: dict[str, Any]) -> Any:
    """The release at the valid spec's output (certificate and rows), or None."""
    out = spec["output"]
    main_rel = TableName(out["name"], out["schema"])
    cert = TableName(f"{out['name']}__certificate", out["schema"])
    if not engine.exists(cert):
        return None
    return rows(engine, cert), rows(engine, main_rel)


def long_numbers(values: list[Any]) -> set[str]:
    found = set()
    for v in values:
        if isinstance(v, float) and not math.isfinite(v):
            continue
        if v is not None and not isinstance(v, str) and len(str(v)) >= 6:
            found.add(str(v))
    return found


_schemas = iter(range(10**6))


def attempt(engine: Engine, spec: dict[str, Any], tmp_path: Path) -> tuple[int, str]:
    """Run ``spec`` (through a YAML file, as users do): (exit code, message)."""
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    try:
        api.run(path, engine=engine)
    except AnonsqlError as exc:
        return exc.exit_code, str(exc)
    except Exception:
        pytest.fail(f"not an anonsql error (a bug):\n{traceback.format_exc()}")
    return 0, ""


#: More examples for a longer hunt: ANONSQL_FUZZ_EXAMPLES=500 pytest tests/pipeline -k fuzz
EXAMPLES = int(os.environ.get("ANONSQL_FUZZ_EXAMPLES", "25"))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_tables_and_specs_keep_the_invariants(
    engine: Engine, tmp_path: Path, data: st.DataObject
) -> None:
    table = data.draw(tables(engine.name))
    names: list[str] = table["names"]
    schema = f"fz{next(_schemas)}"
    engine.create_schema(schema)
    source = TableName("t", schema)
    try:
        engine.load_arrow(source, pa.table(table["columns"]))
    except AnonsqlError:
        assume(False)  # the engine refuses such a table (e.g. a name it cannot hold)
    model = data.draw(st.sampled_from(MODELS))
    spec = valid_spec(names, schema, model)
    attempt(engine, spec, tmp_path)  # the previous release, if the data allow one
    before_source = rows(engine, source)
    before_release = released(engine, spec)

    fuzzed = yaml.safe_load(yaml.safe_dump(spec, allow_unicode=True))
    for _ in range(data.draw(st.integers(min_value=1, max_value=2))):
        mutate(fuzzed, names, data.draw(st.sampled_from(PATHS)), data.draw(any_value))
    code, message = attempt(engine, fuzzed, tmp_path)
    event(f"exit {code}, previous release: {before_release is not None}")

    assert code == 0 or code in FAILURE_CODES, message
    assert MARK not in message, message
    for number in long_numbers(table["columns"][names[1]]):
        assert number not in message, message
    assert rows(engine, source) == before_source
    if code == 0:
        out = fuzzed["output"]
        assert api.check_output(engine, TableName(out["name"], out["schema"])).holds
    else:
        assert released(engine, spec) == before_release


RAW_DOCUMENTS = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda s: s.encode("utf-8")),
    st.sampled_from(
        [
            b"source: 'unbalanced\n",
            b"source: a\nsource: b\n",
            b"- just\n- a list\n",
            b"\xff\xfe\x00source: x",
            b"source: main.t\noutput: {name: r}\ncolumns: {a: {role: quasi_identifier}}\n"
            b"privacy: [{k_anonymity: {k: true}}]\n",
            b"source: main.t\noutput: {name: r}\ncolumns: {}\nprivacy: [{k_anonymity: {k: '5'}}]",
            b"{{{{",
            b"source: !!python/object/apply:os.system ['echo hi']\n",
        ]
    ),
)


@settings(max_examples=60, deadline=None)
@given(document=RAW_DOCUMENTS)
def test_raw_spec_documents_fail_cleanly(document: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        spec = Path(folder) / "spec.yaml"
        spec.write_bytes(document)
        result = CliRunner().invoke(main, ["run", "--quiet", str(spec)])
        created = sorted(p.name for p in Path(folder).iterdir())
    assert result.exit_code in FAILURE_CODES, result.output
    assert created == ["spec.yaml"]  # a refused spec creates no database
    assert "Traceback" not in result.output
    assert "internal error" not in result.output, result.output
