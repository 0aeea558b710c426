{# linked/splits.sql for PostgreSQL: the shared template's counts (read it there). MIN and MAX
   of each quasi-identifier over every source row cost 3.4-4.7 s at 1e7 rows (sixteen
   aggregates per row). With `screen`, the same counts over the source's first `screen_rows`
   rows (any rows will do: a quasi-identifier several-valued, or split by a value of P, in
   some of the rows is so in all of them): where they find one single-valued or not split,
   `screened` = 1 and the caller asks again with `screen` false, for the counts over every
   row (resolve/linked.py). A column that determines nothing, the usual case, is decided by
   the screen alone. #}
{% from "linked/_splits.sql" import splits_query with context %}
{% macro value(q) %}{{ q.column | ident }}{% endmacro %}
{{ splits_query(value, 1 if screen else 0, screen_rows if screen else none) }}
