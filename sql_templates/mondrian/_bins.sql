{# The bin of a row along one dimension, relative to its partition's parameter row `p`:
   numeric: -1 / 0 / 1 for below / at / above the median; categorical: the child of the
   partition's lowest common ancestor that holds the row's leaf (from the ancestor table `a`). #}
{% macro numeric_bin(d, row='w', params='p') -%}
CASE WHEN {{ row }}.{{ d.code | ident }} < {{ params }}.{{ ('p' ~ d.index) | ident }} THEN -1 WHEN {{ row }}.{{ d.code | ident }} = {{ params }}.{{ ('p' ~ d.index) | ident }} THEN 0 ELSE 1 END
{%- endmacro %}
{# The rows a working-table row stands for: Mondrian runs on distinct (vector, sensitive codes)
   rows weighted by their row count when `weight` names that column (prepare/_coded.sql). #}
{% macro row_count(weight, row='w') -%}
{% if weight %}CAST(SUM({{ row }}.{{ weight | ident }}) AS BIGINT){% else %}COUNT(*){% endif %}
{%- endmacro %}
