"""No user column can collide with a name anonsql gives its own columns: hypothesis draws the
names of the quasi-identifiers, the sensitive column, a published insensitive column and the
person column from the aliases in anonsql's SQL templates (tests/support/template_names.py),
and every run must either publish a release that an independent pandas check finds k-anonymous
(and l-diverse where certified), with exactly the declared columns, or refuse the name with a
spec error naming its key (only the names anonsql reserves:
``anonsql.spec.output.reserved_name_problem``)."""

from __future__ import annotations

import itertools
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from independent import class_sizes, distinct_sensitive
from template_names import template_names

from anonsql import api
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.spec.output import reserved_name_problem
from anonsql.sql import TableName
from anonsql.sql.quoting import ident

ROWS = 240
ROLES = ("numeric_qid", "text_qid", "sensitive", "insensitive", "person")
#: algorithm settings and models per configuration; the person column is used by `one_to_many`
K4 = [{"k_anonymity": {"k": 4}}]
CONFIGS: dict[str, dict[str, Any]] = {
    "mondrian": {"privacy": K4, "l": "entropy_l_diversity"},
    "hilbert": {"algorithm": "hilbert", "privacy": K4, "l": "distinct_l_diversity"},
    "full_domain": {"algorithm": "full_domain", "suppression_limit": 0.05, "privacy": K4},
    "one_to_many": {"privacy": [{"person_k_anonymity": {"k": 3}}]},
}
_runs = itertools.count()

names = st.sampled_from(template_names())


@st.composite
def role_names(draw: st.DrawFn) -> dict[str, str]:
    """One name per role: most drawn from the templates, the rest plain, all distinct."""
    chosen: dict[str, str] = {}
    for role in ROLES:
        name = draw(st.one_of(names, names, st.just(role)))
        if name.casefold() in {n.casefold() for n in chosen.values()}:
            name = role
        chosen[role] = name
    return chosen


def _table(cols: dict[str, str], person: bool) -> pa.Table:
    def key(i: int) -> int:  # a person's two rows share their quasi-identifiers
        return i // 2 if person else i

    data = {
        cols["numeric_qid"]: [20 + (key(i) * 7) % 50 for i in range(ROWS)],
        cols["text_qid"]: [f"c{key(i) % 6}" for i in range(ROWS)],
        cols["sensitive"]: [f"d{(i * 5 + i // 6) % 5}" for i in range(ROWS)],
        cols["insensitive"]: [i % 2 for i in range(ROWS)],
    }
    if person:
        data[cols["person"]] = [i // 2 for i in range(ROWS)]
    return pa.table(data)


@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(cols=role_names())
# names that collided before they were namespaced (a grouped release's `n`, the recoding map's
# `suppressed` and `pid`), and one a published companion holds (refused)
@example(
    cols={
        "numeric_qid": "n",
        "text_qid": "suppressed",
        "sensitive": "c",
        "insensitive": "p",
        "person": "pid",
    }
)
@example(
    cols={
        "numeric_qid": "pid",
        "text_qid": "v",
        "sensitive": "n",
        "insensitive": "share",
        "person": "persons",
    }
)
@example(
    cols={
        "numeric_qid": "q",
        "text_qid": "label",
        "sensitive": "value",
        "insensitive": "n",
        "person": "safb",
    }
)
@example(
    cols={
        "numeric_qid": "class_size",
        "text_qid": "node",
        "sensitive": "s",
        "insensitive": "g",
        "person": "item",
    }
)
def test_user_columns_named_like_internal_ones(
    engine: Engine, config: str, cols: dict[str, str]
) -> None:
    setup = CONFIGS[config]
    person = config == "one_to_many"
    run = next(_runs)
    source = TableName(f"names_src_{run}", "main" if engine.name != "postgres" else "public")
    engine.load_arrow(source, _table(cols, person))
    qids = [cols["numeric_qid"], cols["text_qid"]]
    sa, ins = cols["sensitive"], cols["insensitive"]
    spec: dict[str, Any] = {
        "source": source.sql(),
        "output": {"schema": "names_out", "name": f"release_{run}"},
        "columns": {
            qids[0]: {"role": "quasi_identifier", "type": "numeric"},
            qids[1]: {"role": "quasi_identifier", "hierarchy": {"builder": "mask", "char": "*"}},
            sa: {"role": "sensitive", "acknowledge_linked": True},
            ins: {"role": "insensitive", "acknowledge_linked": True},
        },
        **{key: value for key, value in setup.items() if key != "l"},
    }
    if "l" in setup:
        spec["privacy"] = [*spec["privacy"], {setup["l"]: {"column": sa, "l": 2}}]
    if person:
        spec["person_id"] = cols["person"]
    declared = [*qids, sa, ins, *([cols["person"]] if person else [])]
    reserved = [name for name in declared if reserved_name_problem(name) is not None]
    if reserved:
        with pytest.raises(SpecError) as refused:
            api.run(spec, engine=engine)
        assert refused.value.key in {f"columns.{reserved[0]}", "person_id"}
        return
    result = api.run(spec, engine=engine)
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    assert sorted(frame.columns) == sorted(declared)
    if person:
        persons = frame.groupby(qids, dropna=False)[cols["person"]].nunique()
        assert persons.min() >= 3
        return
    assert len(frame) >= ROWS * (1 - setup.get("suppression_limit", 0.0))
    assert class_sizes(frame, qids).min() >= 4
    if "l" in setup:
        assert distinct_sensitive(frame, qids, sa).min() >= 2
    assert api.check(engine, result.names.main, qids, [{"k_anonymity": {"k": 4}}]).holds
    if config == "mondrian":
        later_version(engine, spec, source, cols, qids)


def later_version(
    engine: Engine, spec: dict[str, Any], source: TableName, cols: dict[str, str], qids: list[str]
) -> None:
    """A second version over the same names: new rows (their insensitive values unseen, so
    none is a copy) and deletions, through the templates of a later version (its changes, the
    rows classes keep, the kept grouping, the changed classes' groups)."""
    added = _table(cols, False).set_column(
        3, cols["insensitive"], pa.array([2 + i % 2 for i in range(ROWS)])
    )
    extra = TableName(f"{source.name}_more", source.schema)
    engine.load_arrow(extra, added)
    engine.execute(f"INSERT INTO {source.sql()} SELECT * FROM {extra.sql()}")
    engine.execute(f"DELETE FROM {source.sql()} WHERE {ident(cols['numeric_qid'])} < 40")
    result = api.run(spec, engine=engine)
    assert result.certificate["version"] == 2
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    assert class_sizes(frame, qids).min() >= 4
    assert distinct_sensitive(frame, qids, cols["sensitive"]).min() >= 2
    assert api.check(engine, result.names.main, qids, [{"k_anonymity": {"k": 4}}]).holds
