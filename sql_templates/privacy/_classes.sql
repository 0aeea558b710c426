{# Shared macros of the privacy violation queries. #}
{% macro qid_list(qids, prefix='') -%}
{% for q in qids %}{{ prefix }}{{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
{#
  The sensitive-attribute models work on internal names so that no user column name can collide
  with a name of the query: class keys are q0, q1, ... and the sensitive value is sa.
#}
{% macro class_keys(qids) -%}
{% for q in qids %}{{ ('q' ~ loop.index0) | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
{% macro class_columns(qids) -%}
{% for q in qids %}{{ ('q' ~ loop.index0) | ident }} AS {{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
{#
  The rows a group of ``relation`` stands for: one each, or with ``weight`` (the column of a
  grouping of the rows, publish/refined.sql) its sum, so a violation query reads the grouping
  instead of the rows (PrivacyModel.weighted).
#}
{% macro row_count(weight) -%}
{% if weight %}CAST(SUM({{ weight | ident }}) AS BIGINT){% else %}COUNT(*){% endif %}
{%- endmacro %}
{#
  Two CTEs: sa_rows (class keys, sensitive value and rows of every row or group) and
  sa_frequencies (one row per class and sensitive value, with its count n). Grouping by the value
  makes NULL one value of its own, as it is one code on the Python side.
#}
{% macro sa_frequencies(relation, qids, column, weight=none) -%}
sa_rows AS (
  SELECT {% for q in qids %}{{ q | ident }} AS {{ ('q' ~ loop.index0) | ident }}, {% endfor %}{{ column | ident }} AS sa{{ (', ' ~ (weight | ident) ~ ' AS w') if weight else '' }}
  FROM {{ relation | qname }}
),
sa_frequencies AS (
  SELECT {{ class_keys(qids) }}, sa, {{ row_count('w' if weight else none) }} AS n
  FROM sa_rows
  GROUP BY {{ class_keys(qids) }}, sa
)
{%- endmacro %}
{% macro dbl(expression) -%}
CAST({{ expression }} AS DOUBLE)
{%- endmacro %}
