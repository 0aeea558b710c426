{# For one published column P of the source: per quasi-identifier, whether it holds more than
   one value (`several`), and the values of P whose rows hold more than one of them (`split`;
   none: P functionally determines the quasi-identifier).
   "More than one value" is MIN <> MAX, which holds exactly when COUNT(DISTINCT) > 1 (both
   ignore NULLs; equality and order agree for every ordered type) and costs a comparison per
   row where a distinct count keeps a set per group (2.4x faster at 1e6 rows, 6x on Adult).
   Booleans have no MIN on PostgreSQL: BOOL_AND and BOOL_OR are their MIN and MAX.
   `screened` is 0: these counts are exact (an engine's own version may screen, 1, and be
   asked again with `screen` false where the screen cannot decide: resolve/linked.py). #}
{% from "linked/_splits.sql" import splits_query with context %}
{% macro value(q) %}{{ q.column | ident }}{% endmacro %}
{{ splits_query(value, 0) }}
