"""The sqlglot side of :mod:`anonsql.spec.workload`: a query's text into a
:class:`~anonsql.spec.workload.ParsedQuery` (imported only when a spec has a workload)."""

from __future__ import annotations

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from anonsql.errors import SpecError
from anonsql.spec.model import WorkloadQuery
from anonsql.spec.workload import Aggregate, Condition, Operator, ParsedQuery, Value

SHAPE = (
    "write SELECT <group columns>, COUNT(*) | SUM(col) | AVG(col) FROM <release> "
    "[WHERE conditions joined by AND] [GROUP BY <group columns>] (docs/spec.md, workload)"
)
_COMPARISONS: dict[type[exp.Expression], Operator] = {
    exp.LT: "<",
    exp.LTE: "<=",
    exp.GT: ">",
    exp.GTE: ">=",
    exp.EQ: "=",
}
_FLIPPED: dict[Operator, Operator] = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}
#: Clauses a measured query may not have, by sqlglot's argument name.
_REFUSED = {
    "with": "a WITH clause",
    "joins": "a join",
    "having": "HAVING",
    "order": "ORDER BY",
    "limit": "LIMIT",
    "offset": "OFFSET",
    "distinct": "DISTINCT",
    "qualify": "QUALIFY",
    "windows": "a WINDOW clause",
    "laterals": "a lateral view",
}


def parse(query: WorkloadQuery, key: str, release: str, schema: str) -> ParsedQuery:
    """One query as a :class:`ParsedQuery`, or a SpecError keyed ``key`` naming what is not
    supported."""
    try:
        statements = [s for s in sqlglot.parse(query.sql, read="duckdb") if s is not None]
    except SqlglotError:
        raise SpecError(key, "is not valid SQL", SHAPE) from None
    if len(statements) != 1:
        raise SpecError(key, f"holds {len(statements)} statements", "give one SELECT per query")
    select = statements[0]
    if not isinstance(select, exp.Select):
        raise SpecError(key, f"is a {select.key.upper()} statement, not a SELECT", SHAPE)
    for arg, what in _REFUSED.items():
        if select.args.get(arg) or select.args.get(f"{arg}_"):
            raise SpecError(key, f"has {what}, which the measured shape does not take", SHAPE)
    _check_from(select, key, release, schema)
    group_by = _group_by(select, key)
    aggregate, column = _select_list(select, key, group_by)
    where = select.args.get("where")
    conditions = _conditions(where.this, key) if where is not None else ()
    return ParsedQuery(query.name, query.sql, aggregate, column, conditions, group_by)


def _check_from(select: exp.Select, key: str, release: str, schema: str) -> None:
    source = select.args.get("from_") or select.args.get("from")
    table = source.this if source is not None else None
    if not isinstance(table, exp.Table) or table.args.get("catalog"):
        raise SpecError(key, "does not read one table", f"read the release: FROM {release}")
    if table.name != release or table.db not in ("", schema):
        raise SpecError(
            key,
            f"reads {table.sql(dialect='duckdb')}, not the release",
            f"write the query over the release's name: FROM {release}",
        )


def _column(node: exp.Expression, key: str, where: str) -> str:
    if isinstance(node, exp.Column) and not node.table:
        return node.name
    raise SpecError(
        key, f"{where} holds an expression, not a bare column", f"name a column there; {SHAPE}"
    )


def _group_by(select: exp.Select, key: str) -> tuple[str, ...]:
    group = select.args.get("group")
    if group is None:
        return ()
    columns = tuple(_column(e, key, "GROUP BY") for e in group.expressions)
    if len(set(columns)) != len(columns):
        raise SpecError(key, "GROUP BY names a column twice", "name each column once")
    return columns


def _select_list(
    select: exp.Select, key: str, group_by: tuple[str, ...]
) -> tuple[Aggregate, str | None]:
    aggregates: list[tuple[Aggregate, str | None]] = []
    selected: list[str] = []
    for item in select.expressions:
        node = item.this if isinstance(item, exp.Alias) else item
        if isinstance(node, exp.Count):
            if not isinstance(node.this, exp.Star) or node.args.get("distinct"):
                raise SpecError(key, "counts an expression", "count rows: COUNT(*)")
            aggregates.append(("count", None))
        elif isinstance(node, exp.Sum | exp.Avg):
            kind: Aggregate = "sum" if isinstance(node, exp.Sum) else "avg"
            if isinstance(node.this, exp.Distinct):
                raise SpecError(key, "aggregates DISTINCT values", f"write {kind.upper()}(col)")
            aggregates.append((kind, _column(node.this, key, f"{kind.upper()}(...)")))
        elif isinstance(node, exp.Column):
            selected.append(_column(node, key, "SELECT"))
        else:
            raise SpecError(
                key,
                f"selects {node.key.upper()}, which is not COUNT(*), SUM(col), AVG(col) or a "
                "group column",
                SHAPE,
            )
    if len(aggregates) != 1:
        raise SpecError(
            key,
            f"selects {len(aggregates)} aggregates",
            "select exactly one of COUNT(*), SUM(col), AVG(col) (one query per aggregate)",
        )
    if sorted(selected) != sorted(group_by):
        raise SpecError(
            key,
            "the selected columns are not the GROUP BY columns",
            "select each GROUP BY column, and no other column, beside the aggregate",
        )
    return aggregates[0]


def _conditions(node: exp.Expression, key: str) -> tuple[Condition, ...]:
    if isinstance(node, exp.Paren):
        return _conditions(node.this, key)
    if isinstance(node, exp.And):
        return _conditions(node.this, key) + _conditions(node.expression, key)
    return (_condition(node, key),)


def _condition(node: exp.Expression, key: str) -> Condition:
    if isinstance(node, exp.Between):
        column = _column(node.this, key, "BETWEEN")
        return Condition(
            column, "between", (_value(node.args["low"], key), _value(node.args["high"], key))
        )
    if isinstance(node, exp.In):
        if node.args.get("query") is not None or not node.expressions:
            raise SpecError(key, "IN takes a subquery", "list the values: col IN (v1, v2)")
        column = _column(node.this, key, "IN")
        return Condition(column, "in", tuple(_value(v, key) for v in node.expressions))
    op = _COMPARISONS.get(type(node))
    if op is not None:
        left, right = node.this, node.expression
        if isinstance(left, exp.Column):
            return Condition(_column(left, key, "a comparison"), op, (_value(right, key),))
        if isinstance(right, exp.Column):
            return Condition(
                _column(right, key, "a comparison"), _FLIPPED[op], (_value(left, key),)
            )
        raise SpecError(
            key, "a comparison holds an expression, not a bare column", "compare a column"
        )
    raise SpecError(
        key,
        f"has a {node.key.upper()} condition; conditions are BETWEEN, <, <=, >, >=, = and IN "
        "joined by AND",
        "split an OR into several queries; write other conditions in those forms",
    )


def _value(node: exp.Expression, key: str) -> Value:
    negative = False
    while isinstance(node, exp.Neg | exp.Paren):
        negative ^= isinstance(node, exp.Neg)
        node = node.this
    if isinstance(node, exp.Literal):
        if node.is_string:
            if negative:
                raise SpecError(key, "negates a string", "give a number or a string")
            return str(node.this)
        text = str(node.this)
        value: int | float = int(text) if text.isdigit() else float(text)
        return -value if negative else value
    raise SpecError(
        key,
        f"compares with {node.key.upper()}, not a literal",
        "compare columns with literal numbers or strings",
    )


__all__ = ["SHAPE", "parse"]
