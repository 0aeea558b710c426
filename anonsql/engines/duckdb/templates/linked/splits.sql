{# linked/splits.sql for DuckDB: the shared template's counts (read it there), screened by hash
   as Spark's own is (anonsql/engines/spark/templates/linked/splits.sql, which says how): MIN
   and MAX of text compare strings row by row, of hashes integers (1e7 rows, 8
   quasi-identifiers, P of two values: 0.38 s against 0.13 s). DuckDB hashes NULL to a value:
   a NULL is kept NULL, which MIN and MAX ignore. (The screen's `value` macro is each engine's:
   the dbt package is generated from linked/_splits.sql, whose `value` is a parameter.) #}
{% from "linked/_splits.sql" import splits_query with context %}
{% macro value(q) %}{% if screen and not q.boolean %}CASE WHEN {{ q.column | ident }} IS NULL THEN NULL ELSE HASH({{ q.column | ident }}) END{% else %}{{ q.column | ident }}{% endif %}{% endmacro %}
{{ splits_query(value, 1 if screen else 0) }}
