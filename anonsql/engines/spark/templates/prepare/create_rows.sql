{# prepare/create_rows.sql for Spark: the shared template's working table (read it there), with
   each sensitive column's code taken from a rank table of its distinct values joined back,
   instead of a DENSE_RANK over every row. A window without PARTITION BY moves every row to one
   Spark partition (one task sorts them all: at 1e7 rows 20-25 s against 12-13 s this way,
   measured on local[2]); the distinct values are few and ranked alone. The codes are the same:
   the rank of the row's value among the distinct values, NULL last. #}
{% from "prepare/_coded.sql" import coded_qids, leaf_joins %}
CREATE {{ working_table }}TABLE {{ rows | qname }} AS
SELECT
  CAST(0 AS BIGINT) AS pid
{{ coded_qids(dims) }}
{% for s in sensitive %}
  , {{ ('r' ~ loop.index0) | ident }}.code AS {{ s.code | ident }}
{% endfor %}
FROM {{ source | qname }} AS src
{{ leaf_joins(dims, leaves) }}
{% for s in sensitive %}
JOIN (
  SELECT d.value, CAST(DENSE_RANK() OVER (ORDER BY d.value ASC NULLS LAST) - 1 AS INTEGER) AS code
  FROM (SELECT DISTINCT {{ s.column | ident }} AS value FROM {{ source | qname }}) AS d
) AS {{ ('r' ~ loop.index0) | ident }}
  ON {{ ('r' ~ loop.index0) | ident }}.value IS NOT DISTINCT FROM src.{{ s.column | ident }}
{% endfor %}
