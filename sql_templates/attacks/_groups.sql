{# The adversary's view of a release: its rows grouped by the columns they know (`known`: the
   published quasi-identifiers and the columns beside them), and by `also` (e.g. a sensitive
   column), `n` rows each. `counted`: the relation is already grouped (publish/refined.sql,
   `__anonsql_rows` rows per group) and is summed; `distinct`: grouped by exactly these
   columns, its groups are read as they are. #}
{% macro grouped(relation, known, also, counted, distinct=false) -%}
SELECT {% for c in known %}{{ c | ident }} AS {{ ('k' ~ loop.index0) | ident }}, {% endfor %}{% for c in also %}{{ c | ident }} AS {{ ('a' ~ loop.index0) | ident }}, {% endfor %}{% if counted and distinct %}CAST({{ '__anonsql_rows' | ident }} AS BIGINT){% elif counted %}CAST(SUM({{ '__anonsql_rows' | ident }}) AS BIGINT){% else %}CAST(COUNT(*) AS BIGINT){% endif %} AS n
FROM {{ relation | qname }} AS r
{% if not (counted and distinct) %}
GROUP BY {% for c in known + also %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
{% endif %}
{%- endmacro %}
{% macro keys(known) -%}
{% for c in known %}{{ ('k' ~ loop.index0) | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
