{# prepare/create_rows.sql for PostgreSQL: the shared template's working table and codes (read
   it there), with each rank table joined by plain equality, which PostgreSQL hashes (it cannot
   hash IS NOT DISTINCT FROM, and would compare every row with every distinct value). A NULL
   value matches no rank row; its code is the highest, since NULL ranks last. #}
{% from "prepare/_coded.sql" import coded_qids, leaf_joins, weighted_open, weighted_close %}
CREATE {{ working_table }}TABLE {{ rows | qname }} AS
{% for s in sensitive %}
{{ "WITH" if loop.first }} {{ ('ranks' ~ loop.index0) | ident }} AS (
  SELECT d.value, CAST(DENSE_RANK() OVER (ORDER BY d.value ASC NULLS LAST) - 1 AS INTEGER) AS code
  FROM (SELECT DISTINCT {{ s.column | ident }} AS value FROM {{ source | qname }}) AS d
){{ "," if not loop.last }}
{% endfor %}
{{ weighted_open(dims, sensitive, weight) }}
SELECT
  CAST(0 AS BIGINT) AS pid
{{ coded_qids(dims) }}
{% for s in sensitive %}
  , COALESCE({{ ('r' ~ loop.index0) | ident }}.code, (SELECT MAX(code) FROM {{ ('ranks' ~ loop.index0) | ident }})) AS {{ s.code | ident }}
{% endfor %}
FROM {{ source | qname }} AS src
{{ leaf_joins(dims, leaves) }}
{% for s in sensitive %}
LEFT JOIN {{ ('ranks' ~ loop.index0) | ident }} AS {{ ('r' ~ loop.index0) | ident }}
  ON {{ ('r' ~ loop.index0) | ident }}.value = src.{{ s.column | ident }}
{% endfor %}
{{ weighted_close(dims, sensitive, weight) }}
