{# The rows analysts read of a live release: the released rows (a private view over the live
   source) minus every class, person or whole release that currently violates a certified model,
   found by the same violation queries `anonsql check` runs. Stages run in order (persons, then
   classes refined by the columns an adversary may know, then classes, then the table-wide
   models), each over what the previous one kept, so nothing a later
   stage sees can be undone by an earlier withholding. A class stage's `columns` key its
   classes. A query, not a statement: publish/guarded
   makes it a view; PostgreSQL fences it first (PostgresEngine.create_guarded). #}
{% set hashed = hashed | default({}) %}
{# v's key column equal to r's, NULL matching NULL: IS NOT DISTINCT FROM, or where the engine
   cannot hash that operator (`hashed` names a NULL stand-in per column) two hashable
   equalities that hold in exactly the same cases. #}
{% macro same(column, alias) -%}
{% if column in hashed %}COALESCE(v.{{ alias | ident }}, {{ hashed[column] | lit }}) = COALESCE(r.{{ column | ident }}, {{ hashed[column] | lit }}) AND (v.{{ alias | ident }} IS NULL) = (r.{{ column | ident }} IS NULL){% else %}v.{{ alias | ident }} IS NOT DISTINCT FROM r.{{ column | ident }}{% endif %}
{%- endmacro %}
WITH {{ 'stage_0' | ident }} AS (
  SELECT * FROM {{ released | qname }}
){% for stage in stages %},
{{ ('stage_' ~ loop.index) | ident }} AS (
  SELECT r.* FROM {{ ('stage_' ~ loop.index0) | ident }} AS r
  WHERE
{% for violations in stage.queries %}
    NOT EXISTS (
      SELECT 1 FROM ({{ violations }}) AS v
{% if stage.key == 'class' %}
      WHERE {% for q in stage.columns | default(qids) %}{{ same(q, q) }}{{ " AND " if not loop.last }}{% endfor %}

{% elif stage.key == 'person' %}
      WHERE {{ same(person, 'person') }}
{% endif %}
    ){{ " AND" if not loop.last }}
{% endfor %}
){% endfor %}

SELECT * FROM {{ ('stage_' ~ stages | length) | ident }}
