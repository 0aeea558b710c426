{# The splits query of linked/splits.sql (read it there), shared with engines' own versions:
   `value(q)` is what is compared per quasi-identifier (its column, or an engine's screen of
   it), `screened` the flag the query returns. #}
{% macro low(q, expr) %}{{ 'BOOL_AND' if q.boolean else 'MIN' }}({{ expr }}){% endmacro %}
{% macro high(q, expr) %}{{ 'BOOL_OR' if q.boolean else 'MAX' }}({{ expr }}){% endmacro %}
{% macro splits_query(value, screened, rows=none) -%}
WITH determines AS (
  SELECT {{ column | ident }} AS p
{% for q in qids %}
    , {{ low(q, value(q)) }} AS {{ ('lo' ~ loop.index0) | ident }}
    , {{ high(q, value(q)) }} AS {{ ('hi' ~ loop.index0) | ident }}
{% endfor %}
  FROM {% if rows is none %}{{ source | qname }}{% else %}(SELECT * FROM {{ source | qname }} AS l LIMIT {{ rows | lit }}){% endif %} AS s
  GROUP BY {{ column | ident }}
)
SELECT
{% for q in qids %}
  CASE WHEN {{ low(q, ('lo' ~ loop.index0) | ident) }} <> {{ high(q, ('hi' ~ loop.index0) | ident) }} THEN 1 ELSE 0 END AS {{ ('several' ~ loop.index0) | ident }},
  SUM(CASE WHEN {{ ('lo' ~ loop.index0) | ident }} <> {{ ('hi' ~ loop.index0) | ident }} THEN 1 ELSE 0 END) AS {{ ('split' ~ loop.index0) | ident }},
{% endfor %}
  {{ screened }} AS screened
FROM determines
{%- endmacro %}
