{# The recovery query's pieces (linked/recovery.sql): the published columns as the keys `s0`,
   `s1`... of a row, a value as text, and an interval's bound. #}
{% macro key(prefix, columns) %}{% for c in columns %}{{ prefix }}{{ c | ident }} AS {{ ('s' ~ loop.index0) | ident }}, {% endfor %}{% endmacro %}
{% macro keys(columns) %}{% for c in columns %}{{ ('s' ~ loop.index0) | ident }}, {% endfor %}{% endmacro %}
{% macro text(expr) %}CAST({{ expr }} AS VARCHAR){% endmacro %}
{% macro bound(expr, part) %}CAST(SPLIT_PART(SUBSTRING({{ text(expr) }}, 2, LENGTH({{ text(expr) }}) - 2), ', ', {{ part }}) AS DOUBLE){% endmacro %}
