{# linked/splits.sql for DuckDB: the shared template's counts (read it there). MIN and MAX of
   text compare strings row by row; with `screen`, each value is compared by its 64-bit hash
   instead (1e7 rows, 8 quasi-identifiers, P of two values: 0.38 s against 0.13 s). Different
   hashes prove different values, so a quasi-identifier found several-valued, or a value of P
   found to split it, is so; where the screen finds one single-valued or not split (equal
   hashes: equal values, or a collision), it says so with `screened` = 1 and the caller asks
   again with `screen` false, for the exact counts. DuckDB hashes NULL to a value: a NULL is
   kept NULL, which MIN and MAX ignore, as they ignore NULL values. #}
{% from "linked/_splits.sql" import splits_query with context %}
{% macro value(q) %}{% if screen and not q.boolean %}CASE WHEN {{ q.column | ident }} IS NULL THEN NULL ELSE HASH({{ q.column | ident }}) END{% else %}{{ q.column | ident }}{% endif %}{% endmacro %}
{{ splits_query(value, 1 if screen else 0) }}
