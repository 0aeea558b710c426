"""Generate the dbt package's privacy tests from anonsql's own violation queries.

The dbt package (``integrations/dbt/anonsql_dbt``) must not drift from ``anonsql check``, so its
SQL is not written twice: every template of ``sql_templates/privacy`` is translated token by
token (Jinja's own lexer) into a dbt macro whose text is the template's:

* the ``ident``, ``qname`` and ``lit`` filters become calls of the package's dispatched quoting
  macros (``x | ident`` -> ``anonsql_dbt.ident(x)``);
* the shared macros of ``_classes.sql`` and ``_persons.sql`` become package macros
  (``class_keys`` -> ``anonsql_dbt.privacy__class_keys``), and ``{% from ... import %}`` goes;
* the engine-specific words of the templates' SQL (:data:`SQL_WORDS`: the ``DOUBLE`` of a
  cast, an ordered ``ARRAY_AGG``, a row number without order) become dispatched macros
  (``anonsql_dbt.type_double()``: DuckDB and Spark ``DOUBLE``, PostgreSQL ``double
  precision``);
* each model's query is a dispatched macro ``<model>_violations`` with a ``default__``
  implementation, so an adapter can override it (``<adapter>__<model>_violations``);
* a template's ``{% include %}`` of a shared file is replaced by that file's text, and a shared
  file that defines no macro (an included body) becomes no macro file: dbt reads every file of
  ``macros/`` as macro definitions and warns about anything else
  (``UnexpectedJinjaBlockDeprecation``).

Quoting is per adapter (``macros/quoting.sql``): the package runs on the adapters it is tested
on (duckdb, postgres, spark), and every generated test first calls
``anonsql_dbt.require_tested_adapter()``, which stops compilation on any other adapter, where a
double-quoted name may be a string literal and the test would count something else.

The generic tests (``{% test k_anonymity(model, qids, k) %}``) are generated from the privacy
model registry: a test per built-in model, taking the model's parameters (plus ``qids``, and
``person`` for the person-level models). Which template a model renders and with which values
is recorded by calling the model's own ``violations_sql`` on a recording renderer, so a model
that passes a constant (``epsilon``) or a derived value (``l = 1`` for a model without ``l``)
passes the same in dbt. Parameter rules (``k >= 1`` ...) are in :data:`PARAM_RULES`, which the
tests hold against each model's own validation.

Run ``python -m anonsql.dbt.generate`` after changing a privacy template or model;
``--check`` exits 1 when the package is out of date (the tests do the same).
"""

from __future__ import annotations

import argparse
import re
import sys
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import meta

from anonsql.dbt.package import PACKAGE_NAME
from anonsql.dbt.python_model import RELEASE_SCHEMA_SUFFIX
from anonsql.privacy import PRIVACY_MODELS, PrivacyModel
from anonsql.resources import resource_dir
from anonsql.spec.output import OutputNames
from anonsql.sql import Relation, SqlRenderer, TableName

#: The dbt package's name (``name:`` of its dbt_project.yml), which qualifies every call.
PACKAGE = PACKAGE_NAME
#: Where the package lives in a source checkout.
PACKAGE_DIR = Path(__file__).resolve().parents[2] / "integrations" / "dbt" / PACKAGE
#: Generated files, relative to the package.
GENERATED = Path("macros") / "generated"
#: The template folders whose shared files (``_classes.sql``, ...) become package macros, named
#: ``<folder>__<macro>`` (``privacy__class_keys``): the privacy tests' and the attacks test's.
HELPER_FOLDERS = ("privacy", "attacks", "linked", "risk")
#: The attack queries the ``attacks`` test (``macros/attacks.sql``) runs, each a dispatched
#: macro named after its template (``attacks/groups`` -> ``attacks_groups``): singling out and
#: linkability, attribute inference, and linkage (the recovery measure).
ATTACK_QUERIES = ("attacks/groups", "attacks/inference", "linked/recovery")
FILTERS = {"ident": "ident", "qname": "qname", "lit": "lit"}
#: Jinja's built-in filters the templates use, which dbt's Jinja has too: left as they are.
BUILTIN_FILTERS = frozenset({"default", "join", "length"})
#: Plain SQL of the templates that differs between engines (pattern -> a dispatched macro of
#: ``macros/quoting.sql``): what anonsql's engine dialects rewrite (``anonsql.engines.spark.
#: dialect``), written once per adapter there.
SQL_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r" AS DOUBLE\)"), " AS {{ anonsql_dbt.type_double() }})"),
    # Spark's aggregate has no order: equal sets of items would compare unequal
    (re.compile(r"ARRAY_AGG\((\w+) ORDER BY \1\)"), "{{ anonsql_dbt.sorted_array_agg('\\1') }}"),
    # Spark refuses a row number without an order (a row id here)
    (re.compile(r"ROW_NUMBER\(\) OVER \(\)"), "{{ anonsql_dbt.row_id() }}"),
)
#: Template parameters that are not a model parameter: the relation and its columns.
RELATION_PARAMS = ("relation", "qids", "person", "column")

#: Bounds of numeric parameters, checked by the generated tests at compile time; each is held
#: against the models' own validation by the tests (value at the bound accepted, beyond refused).
PARAM_RULES: dict[str, tuple[tuple[str, float], ...]] = {
    "k": ((">=", 1),),
    "l": ((">=", 1),),
    "c": ((">", 0),),
    "t": ((">=", 0), ("<=", 1)),
    "alpha": ((">", 0), ("<=", 1)),
    "beta": ((">", 0),),
    "delta": ((">", 0),),
    "threshold": ((">=", 0), ("<=", 1)),
}
HEADER = "{{# Generated by `python -m anonsql.dbt.generate` from {source}; do not edit. #}}\n"


class GenerateError(RuntimeError):
    """A template or model uses something the translation does not know (a bug to fix here)."""


def _lexer() -> jinja2.Environment:
    env = jinja2.Environment()
    env.filters.update({name: str for name in FILTERS})
    return env


def _tokens(source: str) -> list[tuple[str, str]]:
    return [(kind, value) for _, kind, value in _lexer().lex(source)]


def _significant(tokens: Sequence[tuple[str, str]], index: int, step: int) -> int:
    while 0 <= index < len(tokens) and tokens[index][0] == "whitespace":
        index += step
    return index


_CLOSE = {")": "(", "]": "["}
_KEYWORDS = {"not", "and", "or", "in", "is", "if", "else"}


def _opener(tokens: Sequence[tuple[str, str]], close: int) -> int:
    depth = 0
    for i in range(close, -1, -1):
        kind, value = tokens[i]
        if kind == "operator" and value in _CLOSE:
            depth += 1
        elif kind == "operator" and value in _CLOSE.values():
            depth -= 1
            if depth == 0:
                return i
    raise GenerateError("unbalanced brackets before a filter")


def _operand_start(tokens: Sequence[tuple[str, str]], end: int) -> int:
    """Index of the first token of the postfix expression ending at ``end`` (a filter's
    operand: a name, a literal or a bracketed group, with attribute, item and call suffixes)."""
    i = end
    while True:
        kind, value = tokens[i]
        if kind == "operator" and value in _CLOSE:
            i = _opener(tokens, i)
            before = _significant(tokens, i - 1, -1)
            if before >= 0 and (
                (tokens[before][0] == "name" and tokens[before][1] not in _KEYWORDS)
                or tokens[before] in (("operator", ")"), ("operator", "]"))
            ):
                i = before  # a call f(...) or an item x[...]
                continue
            return i
        if kind not in ("name", "string", "integer", "float") or value in _KEYWORDS:
            raise GenerateError(f"cannot translate a filter applied to {value!r}")
        before = _significant(tokens, i - 1, -1)
        if before >= 0 and tokens[before] == ("operator", "."):
            i = _significant(tokens, before - 1, -1)
            continue
        return i


def translate(source: str, helpers: Mapping[str, str], *, name: str) -> str:
    """One template's text as dbt macro text (see the module docstring); ``helpers``: the
    shared macros it defines or calls, by their package names."""
    tokens = _tokens(source)
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        if kind == "block_begin":
            first = _significant(tokens, i + 1, 1)
            if tokens[first] == ("name", "from"):
                # {% from "privacy/_x.sql" import a, b %}: the package's macros are global
                while tokens[i][0] != "block_end":
                    i += 1
                i += 1
                continue
        if kind == "operator" and value == "|":
            target = _significant(tokens, i + 1, 1)
            filter_name = tokens[target][1]
            if filter_name in BUILTIN_FILTERS:
                out.append((kind, value))
                i += 1
                continue
            if filter_name not in FILTERS:
                raise GenerateError(f"{name}: unknown filter {filter_name!r}")
            after = _significant(tokens, target + 1, 1)
            if tokens[after] == ("operator", "("):
                raise GenerateError(f"{name}: filter arguments are not supported")
            end = len(out) - 1
            while out[end][0] == "whitespace":
                end -= 1
            start = _operand_start(out, end)
            operand = "".join(v for _, v in out[start : end + 1])
            del out[start:]
            out.append(("call", f"{PACKAGE}.{FILTERS[filter_name]}({operand})"))
            i = target + 1
            continue
        if kind == "name" and value in helpers:
            nxt = _significant(tokens, i + 1, 1)
            before = _significant(out, len(out) - 1, -1)
            defining = before >= 0 and out[before] == ("name", "macro")
            if tokens[nxt] == ("operator", "("):
                if defining:
                    out.append(("name", helpers[value]))
                else:
                    out.append(("name", f"{PACKAGE}.{helpers[value]}"))
                i += 1
                continue
        if kind == "data":
            for pattern, replacement in SQL_WORDS:
                value = pattern.sub(replacement, value)
        out.append((kind, value))
        i += 1
    text = "".join(v for _, v in out)
    for word in ("DOUBLE", "REAL", "FLOAT"):
        leftover = [v for k, v in _tokens(text) if k == "data" and f" {word}" in v.upper()]
        if any(f" AS {word}" in v.upper() for v in leftover):
            raise GenerateError(f"{name}: a cast to {word} is not translated; add it to SQL_WORDS")
    return text


def _helper_names(folder: str, sources: Mapping[str, str]) -> dict[str, str]:
    """The macros the shared files of ``folder`` define, by their package names."""
    names: dict[str, str] = {}
    for source in sources.values():
        for node in _lexer().parse(source).find_all(jinja2.nodes.Macro):
            names[node.name] = f"{folder}__{node.name}"
    return names


_FROM_IMPORT = re.compile(
    r"""\{%-?\s*from\s+["'](\w+)/_\w+\.sql["']\s+import\s+([\w\s,]+?)\s*-?%\}"""
)


def _with_imports(source: str, helpers: Mapping[str, str]) -> dict[str, str]:
    """``helpers`` plus the shared macros ``source`` imports from other folders
    (``{% from "risk/_classes.sql" import class_rows %}`` -> ``risk__class_rows``)."""
    found = dict(helpers)
    for folder, names in _FROM_IMPORT.findall(source):
        for name in names.split(","):
            found[name.strip()] = f"{folder}__{name.strip()}"
    return found


def _shared_sources(folder: str) -> dict[str, str]:
    """The shared files (``_*.sql``) of a template folder, by stem."""
    path = resource_dir("sql_templates") / folder
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(path.glob("_*.sql"))}


@dataclass(frozen=True)
class TestSpec:
    """What a model's generic test takes and passes to its template."""

    model: str
    template: str
    #: The model's parameters, in declaration order: (name, kind, choices, required, default).
    params: tuple[tuple[str, str, tuple[str, ...], bool, Any], ...]
    #: Template parameter -> the test argument it comes from, or a constant (``("const", v)``).
    bindings: tuple[tuple[str, tuple[str, Any]], ...]
    person: str  # "none" (record-level), "optional" or "required"


class _Recorder(SqlRenderer):
    def __init__(self) -> None:
        super().__init__("duckdb")
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def render(self, name: str, /, **params: Any) -> str:
        self.calls.append((name, params))
        return "SELECT 1"


def _kind(annotation: Any) -> tuple[str, tuple[str, ...]]:
    optional = [a for a in typing.get_args(annotation) if a is not type(None)]
    if type(None) in typing.get_args(annotation) and len(optional) == 1:
        return _kind(optional[0])  # an optional parameter: its default is None
    if typing.get_origin(annotation) is typing.Literal:
        return "choice", tuple(str(a) for a in typing.get_args(annotation))
    kinds = {int: "integer", float: "number", str: "string", bool: "boolean"}
    if annotation in kinds:
        return kinds[annotation], ()
    raise GenerateError(f"no dbt check for a parameter of type {annotation!r}")


def _record(model: PrivacyModel, person: str | None) -> tuple[str, dict[str, Any]]:
    recorder = _Recorder()
    relation: Relation = TableName("relation")
    model.violations_sql(recorder, relation, ["q"], person=person)
    if len(recorder.calls) != 1:
        raise GenerateError(
            f"{model.name}: violations_sql rendered {len(recorder.calls)} templates"
        )
    return recorder.calls[0]


def test_spec(cls: type[PrivacyModel]) -> TestSpec:
    """The generic test of a registered model, from its parameter schema and from what its
    ``violations_sql`` passes to its template for each of its examples."""
    fields = cls.Params.model_fields
    params = []
    for field_name, info in fields.items():
        kind, choices = _kind(info.annotation)
        params.append((field_name, kind, choices, info.is_required(), info.get_default()))
    if not cls.examples:
        raise GenerateError(f"{cls.name} declares no examples to record its template from")
    person_mode = "required" if cls.needs_person else "optional" if cls.counts_persons else "none"
    template = ""
    bindings: dict[str, tuple[str, Any]] = {}
    for example in cls.examples:
        raw = {**example, "column": "sa"} if cls.needs_sensitive else dict(example)
        model = cls.from_spec(raw, key=cls.name)
        given = model.parameters()
        name, passed = _record(model, "person" if person_mode != "none" else None)
        template = template or name
        if name != template:
            raise GenerateError(f"{cls.name}: renders {name} and {template} depending on params")
        for key, value in passed.items():
            if key in ("relation", "qids", "person"):
                continue
            if key in given and value == given[key]:
                binding: tuple[str, Any] = ("arg", key)
            else:
                binding = ("const", value)
            if bindings.setdefault(key, binding) != binding:
                raise GenerateError(
                    f"{cls.name}: template parameter {key!r} is neither a model parameter nor "
                    "constant across the examples; teach the generator how to derive it"
                )
    if not template.startswith("privacy/"):
        raise GenerateError(f"{cls.name}: renders {template}, outside sql_templates/privacy")
    return TestSpec(
        model=cls.name,
        template=template.removeprefix("privacy/"),
        params=tuple(params),
        bindings=tuple(sorted(bindings.items())),
        person=person_mode,
    )


def _jinja_literal(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    raise GenerateError(f"no Jinja literal for {value!r}")


def _check(spec: TestSpec, name: str, kind: str, choices: tuple[str, ...], required: bool) -> str:
    test = f"{PACKAGE}.{spec.model}"
    lines = []
    if required:
        lines.append(
            f"{{% if {name} is none %}}{{{{ exceptions.raise_compiler_error("
            f"'{test}: give the argument {name} under arguments:') }}}}{{% endif %}}"
        )
    bad = {
        "integer": f"{name} is not number or {name} is sameas true or {name} is sameas false"
        f" or {name} != {name} | int",
        "number": f"{name} is not number or {name} is sameas true or {name} is sameas false",
        "string": f"{name} is not string or {name} | length == 0",
        "choice": f"{name} not in {list(choices)!r}",
        "boolean": f"{name} is not sameas true and {name} is not sameas false",
    }[kind]
    wanted = {
        "integer": "an integer",
        "number": "a number",
        "string": "a column name",
        "choice": "one of " + ", ".join(choices),
        "boolean": "true or false",
    }[kind]
    lines.append(
        f"{{% if {name} is not none and ({bad}) %}}{{{{ exceptions.raise_compiler_error("
        f"'{test}: the argument {name} must be {wanted}') }}}}{{% endif %}}"
    )
    for op, bound in PARAM_RULES.get(name, ()):
        if kind not in ("integer", "number"):
            continue
        lines.append(
            f"{{% if {name} is not none and not ({name} {op} {bound!r}) %}}{{{{ "
            f"exceptions.raise_compiler_error('{test}: {name} = ' ~ {name} ~ ' breaks the rule "
            f"{name} {op} {bound!r}; use {name} {op} {bound!r}') }}}}{{% endif %}}"
        )
    return "\n".join(lines)


def _under_column(spec: TestSpec) -> str:
    """A test declared under a column (dbt passes ``column_name``): the column fills the
    argument the test would otherwise need, the sensitive ``column`` of a model that reads one,
    else ``qids``."""
    target = "column" if any(name == "column" for name, *_ in spec.params) else "qids"
    value = "column_name" if target == "column" else "[column_name]"
    return (
        f"{{% if {target} is none and column_name is not none %}}"
        f"{{% set {target} = {value} %}}{{% endif %}}"
    )


def generic_test(spec: TestSpec) -> str:
    """The ``{% test %}`` block of one model."""
    signature = ["model", "qids"]
    for name, _, _, required, default in spec.params:
        signature.append(name if required else f"{name}={_jinja_literal(default)}")
    if spec.person != "none":
        signature.append("person=none")
    # declared under `columns:`, dbt passes the column as column_name
    signature.append("column_name=none")
    # dbt passes arguments by keyword; required ones still need a value
    signature = [s if "=" in s or s == "model" else f"{s}=none" for s in signature]
    test = f"{PACKAGE}.{spec.model}"
    body = [
        f"{{% test {spec.model}({', '.join(signature)}) %}}",
        "{#- arguments are checked when the test runs (dbt parses tests with execute false) -#}",
        "{% if execute %}",
        f"{{{{ {PACKAGE}.require_tested_adapter() }}}}",
        _under_column(spec),
        "{% if qids is string or qids is not iterable or qids | length == 0 %}"
        f"{{{{ exceptions.raise_compiler_error('{test}: give qids, the list of "
        "quasi-identifier columns, under arguments:') }}{% endif %}",
        "{% for q in qids %}{% if q is not string or q | length == 0 %}"
        f"{{{{ exceptions.raise_compiler_error('{test}: every entry of qids must be a column "
        "name') }}{% endif %}{% endfor %}",
    ]
    for name, kind, choices, required, _ in spec.params:
        body.append(_check(spec, name, kind, choices, required))
    if spec.person == "required":
        body.append(
            f"{{% if person is none %}}{{{{ exceptions.raise_compiler_error('{test}: give person, "
            "the column linking the rows of one person, under arguments:') }}{% endif %}"
        )
    if spec.person != "none":
        body.append(
            f"{{% if person is not none and (person is not string or person | length == 0) %}}"
            f"{{{{ exceptions.raise_compiler_error('{test}: the argument person must be a column "
            "name') }}{% endif %}"
        )
    used = _template_variables(spec.template)
    args = ["relation=model", "qids=qids"]
    for key, (how, value) in spec.bindings:
        if key in used:
            args.append(f"{key}={value if how == 'arg' else _jinja_literal(value)}")
    if "person" in used:
        args.append("person=person" if spec.person != "none" else "person=none")
    body.append(f"{{{{ {PACKAGE}.{spec.model}_violations({', '.join(args)}) }}}}")
    body.append("{% endif %}")
    body.append("{% endtest %}")
    return "\n".join(body) + "\n"


_INCLUDE = re.compile(r"""\{%-?\s*include\s+["']privacy/(\w+)\.sql["']\s*-?%\}""")


def _template_source(name: str) -> str:
    """A privacy template's text, with the shared files it includes inlined."""
    source = (resource_dir("sql_templates") / "privacy" / f"{name}.sql").read_text(encoding="utf-8")
    return _INCLUDE.sub(lambda m: _template_source(m.group(1)).rstrip("\n"), source)


def _template_variables(name: str) -> list[str]:
    ast = _lexer().parse(_template_source(name))
    return sorted(meta.find_undeclared_variables(ast))


def _ordered(variables: Sequence[str]) -> list[str]:
    first = [v for v in RELATION_PARAMS if v in variables]
    return first + sorted(v for v in variables if v not in RELATION_PARAMS)


def violations_macro(spec: TestSpec, helpers: Mapping[str, str]) -> str:
    """The dispatched ``<model>_violations`` macro and its default, the template's text."""
    variables = _ordered(_template_variables(spec.template))
    source = _template_source(spec.template)
    body = translate(source, _with_imports(source, helpers), name=f"privacy/{spec.template}")
    return dispatched_macro(f"{spec.model}_violations", variables, body)


def dispatched_macro(dispatch: str, variables: Sequence[str], body: str) -> str:
    """A macro dispatched on the adapter, whose ``default__`` implementation is ``body``."""
    signature = ", ".join(variables)
    return (
        f"{{% macro {dispatch}({signature}) -%}}\n"
        f"  {{{{ return(adapter.dispatch('{dispatch}', '{PACKAGE}')({signature})) }}}}\n"
        "{%- endmacro %}\n\n"
        f"{{% macro default__{dispatch}({signature}) -%}}\n"
        f"{body.rstrip()}\n"
        "{%- endmacro %}\n"
    )


def attack_query_macros(helpers: Mapping[str, Mapping[str, str]]) -> str:
    """The attack queries (:data:`ATTACK_QUERIES`) as dispatched macros, their templates' text:
    the ``attacks`` test runs the very SQL ``anonsql attack`` runs."""
    parts = []
    for template in ATTACK_QUERIES:
        folder, stem = template.split("/")
        source = (resource_dir("sql_templates") / f"{template}.sql").read_text(encoding="utf-8")
        variables = _ordered(sorted(meta.find_undeclared_variables(_lexer().parse(source))))
        body = translate(source, _with_imports(source, helpers[folder]), name=template)
        parts.append(dispatched_macro(f"{folder}_{stem}", variables, body))
    return "\n".join(parts)


def companion_macro() -> str:
    """``companion_identifier(identifier, kind)``, the name of a release's companion, derived
    from :class:`~anonsql.spec.output.OutputNames` (the one place the convention lives)."""
    probe = "X"
    name = OutputNames(TableName(probe)).certificate.name
    prefix, _, rest = name.partition(probe)
    separator = rest.removesuffix("certificate")
    if prefix or separator + "certificate" != rest:
        raise GenerateError(f"unexpected companion naming {name!r}; update companion_macro")
    return (
        "{% macro companion_identifier(identifier, kind) -%}\n"
        f"{{{{ return(identifier ~ {separator!r} ~ kind) }}}}\n"
        "{%- endmacro %}\n\n"
        "{# Where anonsql.dbt.model publishes a model's release unless its spec names an "
        "output. #}\n"
        "{% macro default_release_schema(schema) -%}\n"
        f"{{{{ return(schema ~ {RELEASE_SCHEMA_SUFFIX!r}) }}}}\n"
        "{%- endmacro %}\n"
    )


def status_macro() -> str:
    """``release_checksum(relation, columns)``: the checksum ``anonsql status`` compares with
    the checksum a release's last version recorded (privately, in ``__versions``), from the
    same templates (the shared
    ``status/checksum.sql`` as the default, an engine's own ``status/checksum.sql`` in its home
    as that adapter's implementation)."""
    engines = Path(__file__).resolve().parent.parent / "engines"
    templates = {"": resource_dir("sql_templates") / "status" / "checksum.sql"}
    for own in sorted(engines.glob("*/templates/status/checksum.sql")):
        templates[own.parents[2].name] = own
    dispatch = "release_checksum"
    signature = "relation, columns"
    parts = [
        f"{{% macro {dispatch}({signature}) -%}}\n"
        f"  {{{{ return(adapter.dispatch('{dispatch}', '{PACKAGE}')({signature})) }}}}\n"
        "{%- endmacro %}\n"
    ]
    for engine, path in templates.items():
        name = f"{engine or 'shared'} status/checksum.sql"
        source = path.read_text(encoding="utf-8")
        variables = sorted(meta.find_undeclared_variables(_lexer().parse(source)))
        if variables != ["columns", "relation"]:
            raise GenerateError(f"{name}: unexpected variables {variables}")
        body = translate(source, {}, name=name)
        parts.append(
            f"\n{{% macro {engine or 'default'}__{dispatch}({signature}) -%}}\n"
            f"{body.rstrip()}\n"
            "{%- endmacro %}\n"
        )
    return "".join(parts)


def builtin_models() -> list[type[PrivacyModel]]:
    """The registered models that anonsql ships (entry-point models of other packages have
    templates the package cannot see)."""
    return [
        cls
        for _, cls in PRIVACY_MODELS.items()
        if cls.__module__.startswith("anonsql.") and cls.dbt_test
    ]


def generate() -> dict[Path, str]:
    """Every generated file of the package, by path relative to the package."""
    files: dict[Path, str] = {}
    helpers: dict[str, dict[str, str]] = {}
    for folder in HELPER_FOLDERS:
        shared = _shared_sources(folder)
        helpers[folder] = _helper_names(folder, shared)
        for stem, source in shared.items():
            if not any(_lexer().parse(source).find_all(jinja2.nodes.Macro)):
                continue  # a body other templates include (inlined there by _template_source)
            text = translate(
                source, _with_imports(source, helpers[folder]), name=f"{folder}/{stem}.sql"
            )
            header = HEADER.format(source=f"sql_templates/{folder}/{stem}.sql")
            files[GENERATED / f"{folder}_{stem.lstrip('_')}.sql"] = header + text.rstrip() + "\n"
    for cls in builtin_models():
        spec = test_spec(cls)
        source = f"sql_templates/privacy/{spec.template}.sql and anonsql.privacy ({cls.__name__})"
        files[GENERATED / f"{spec.model}.sql"] = (
            HEADER.format(source=source)
            + violations_macro(spec, helpers["privacy"])
            + "\n"
            + generic_test(spec)
        )
    files[GENERATED / "attack_queries.sql"] = HEADER.format(
        source=", ".join(f"sql_templates/{t}.sql" for t in ATTACK_QUERIES)
    ) + attack_query_macros(helpers)
    files[GENERATED / "status_checksum.sql"] = (
        HEADER.format(source="status/checksum.sql, shared and each engine's own") + status_macro()
    )
    files[GENERATED / "names.sql"] = (
        HEADER.format(source="anonsql.spec.output and anonsql.dbt.python_model") + companion_macro()
    )
    return files


def stale_files(package: Path = PACKAGE_DIR) -> list[Path]:
    """Generated files that are missing, differ, or should no longer exist."""
    wanted = generate()
    stale = [p for p, text in wanted.items() if not (package / p).is_file()]
    stale += [
        p
        for p, text in wanted.items()
        if (package / p).is_file() and (package / p).read_text(encoding="utf-8") != text
    ]
    existing = {p.relative_to(package) for p in (package / GENERATED).glob("*.sql")}
    stale += sorted(existing - set(wanted))
    return stale


def write(package: Path = PACKAGE_DIR) -> list[Path]:
    """Write the generated files (and remove generated files no longer wanted)."""
    wanted = generate()
    (package / GENERATED).mkdir(parents=True, exist_ok=True)
    for path in (package / GENERATED).glob("*.sql"):
        if path.relative_to(package) not in wanted:
            path.unlink()
    for path, text in wanted.items():
        (package / path).write_text(text, encoding="utf-8")
    return sorted(wanted)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m anonsql.dbt.generate", description=__doc__)
    parser.add_argument("--package", type=Path, default=PACKAGE_DIR)
    parser.add_argument("--check", action="store_true", help="exit 1 if anything is stale")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.package)
        for path in stale:
            print(f"stale: {path}", file=sys.stderr)
        return 1 if stale else 0
    for path in write(args.package):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
