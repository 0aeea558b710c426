"""What a DuckDB run does without sqlglot, held to sqlglot itself.

A run on DuckDB never imports sqlglot (issue 17: ~0.12 s of a small run's start): identifiers
and literals are quoted by ``anonsql.sql.quoting``, statements split by
``anonsql.sql.statements``, plain table names read by one regular expression and DuckDB's type
names classified from a table. Each is compared here with what sqlglot says of the same input.
"""

from __future__ import annotations

import string

import duckdb
import pytest
import sqlglot
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from paths import SNAPSHOTS
from sqlglot import exp

from anonsql.engines.types import _DUCKDB, _classify_with_sqlglot, classify
from anonsql.sql.quoting import TEMPLATE_DIALECT, TableName, ident, literal
from anonsql.sql.statements import UnterminatedError, split_statements

#: Text without NUL, which neither helper accepts; surrogates included.
TEXT = st.text(st.characters(exclude_characters="\x00"), min_size=1)
#: Text that leans on what quoting and splitting must get right.
NASTY = st.text(st.sampled_from(list("'\";-/*\\\n $eE ab.")), min_size=1)


@given(st.one_of(TEXT, NASTY))
@example('a"b')
@example("it's")
@example("a\\")
def test_identifiers_and_strings_are_quoted_as_sqlglot_quotes_them(value: str) -> None:
    assert ident(value) == exp.to_identifier(value, quoted=True).sql(dialect=TEMPLATE_DIALECT)
    assert literal(value) == exp.Literal.string(value).sql(dialect=TEMPLATE_DIALECT)


@given(st.one_of(st.integers(), st.floats(min_value=0.0, allow_infinity=False)))
@example(0.0)
@example(5e-324)
@example(2**70)
@example(-(2**70))
def test_numbers_are_written_as_sqlglot_writes_them(value: float) -> None:
    expected = exp.Literal.number(repr(value) if isinstance(value, float) else value)
    assert literal(value) == expected.sql(dialect=TEMPLATE_DIALECT)


@given(st.floats(allow_nan=False, allow_infinity=False))
@example(-1e16)
@example(-1e-05)
@example(-0.0)
def test_floats_read_back_exactly(value: float) -> None:
    """sqlglot wrote a negative float through its parser (``-1e-05`` as ``-0.00001``, a
    DECIMAL in DuckDB); every float is now written as Python writes it, read back as the same
    DOUBLE."""
    assert literal(value) == ("-" if str(value)[0] == "-" else "") + literal(abs(value))
    (back,) = duckdb.execute(f"SELECT CAST({literal(value)} AS DOUBLE)").fetchone() or (None,)
    assert back == value  # -0.0 reads back as 0.0, as it did before


def sqlglot_split(text: str) -> tuple[str, ...]:
    """The splitter this module's scanner replaced: statements between sqlglot's ``;`` tokens."""
    statements: list[str] = []
    start, tokens = 0, 0
    for token in sqlglot.tokenize(text, read=TEMPLATE_DIALECT):
        if token.token_type != sqlglot.TokenType.SEMICOLON:
            tokens += 1
            continue
        if tokens:
            statements.append(text[start : token.start].strip())
        start, tokens = token.end + 1, 0
    if tokens:
        statements.append(text[start:].strip())
    return tuple(statements)


FRAGMENT = st.one_of(
    st.sampled_from(
        ["SELECT 1", "x", " ", "\n", ";", "-- a ; comment\n", "/* ; */", "/* a /* ; */ b */", "*"]
    ),
    TEXT.map(ident),
    TEXT.map(literal),
    NASTY.map(literal),
    st.integers().map(literal),
)


@settings(max_examples=500)
@given(st.lists(FRAGMENT, max_size=12).map(" ".join))
@example("SELECT ';' AS \"a;b\"; SELECT 2")
@example("-- only a comment; here\n;  ; SELECT 1;")
def test_statements_split_where_sqlglots_tokenizer_splits(text: str) -> None:
    assert split_statements(text) == sqlglot_split(text)


def test_every_snapshot_statement_splits_as_sqlglot_splits_it() -> None:
    """The recorded runs' statements (comments, strings and names included), joined by ``;``."""
    texts = sorted((SNAPSHOTS / "duckdb").glob("*.sql"))
    assert texts
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert split_statements(text) == sqlglot_split(text), path.name


@pytest.mark.parametrize("text", ["SELECT 'open", 'SELECT "open', "SELECT 1 /* open"])
def test_an_unterminated_part_is_refused_by_both(text: str) -> None:
    with pytest.raises(UnterminatedError):
        split_statements(text)
    with pytest.raises(sqlglot.errors.TokenError):
        sqlglot.tokenize(text, read=TEMPLATE_DIALECT)


def sqlglot_table_name(text: str) -> TableName:
    return TableName._parse_with_sqlglot(text)


NAME_PART = st.one_of(
    st.text(string.ascii_letters + "_", min_size=1, max_size=1).flatmap(
        lambda first: st.text(string.ascii_letters + string.digits + "_", max_size=8).map(
            lambda rest: first + rest
        )
    ),
    st.text(st.characters(exclude_characters="\x00"), min_size=1, max_size=8).map(ident),
)


@settings(max_examples=300)
@given(st.lists(NAME_PART, min_size=1, max_size=2).map(".".join))
@example('"my schema"."t.1"')
@example('"a""b".c')
@example("main.adult")
def test_table_names_read_as_sqlglot_reads_them(text: str) -> None:
    try:
        expected = sqlglot_table_name(text)
    except ValueError:
        # sqlglot refuses a reserved word as a bare name; it is read as a name here, and
        # every name is quoted on use
        bare = [part for part in text.split(".") if not part.startswith('"')]
        assume(bare)
        keywords = sqlglot.Dialect.get_or_raise(TEMPLATE_DIALECT).tokenizer_class.KEYWORDS
        assert any(part.upper() in keywords for part in bare), text
        return
    assert TableName.parse(text) == expected


@pytest.mark.parametrize(
    "text", ["a.b.c", "a b", "a;b", "", " a", '"unclosed', "1a", "a.", "a..b", "cat.db.t"]
)
def test_other_spellings_go_to_sqlglot(text: str) -> None:
    try:
        expected: TableName | str = sqlglot_table_name(text)
    except ValueError as err:
        expected = str(err)
    try:
        got: TableName | str = TableName.parse(text)
    except ValueError as err:
        got = str(err)
    assert got == expected


def test_duckdbs_common_types_are_classified_as_sqlglot_classifies_them() -> None:
    con = duckdb.connect()
    declared = (
        "a TINYINT, b SMALLINT, c INTEGER, d BIGINT, e HUGEINT, f UTINYINT, g USMALLINT, "
        "h UINTEGER, i UBIGINT, j UHUGEINT, k FLOAT, l DOUBLE, m DECIMAL(10,2), "
        "n DECIMAL(38,10), o DECIMAL(4,0), p VARCHAR, q DATE, r TIME, s TIMESTAMP, "
        "t TIMESTAMPTZ, u TIMESTAMP_S, v TIMESTAMP_MS, w TIMESTAMP_NS, x BOOLEAN, "
        "y INTERVAL, z BLOB, aa UUID, ab TIMETZ, ac BIT, ad INTEGER[], ae JSON"
    )
    con.execute(f"CREATE TABLE t ({declared})")
    reported = [row[1] for row in con.execute("DESCRIBE t").fetchall()]
    assert set(_DUCKDB) <= set(reported), "a table entry DuckDB no longer reports"
    for name in reported:
        assert classify(name, "duckdb") == _classify_with_sqlglot(name, "duckdb"), name
