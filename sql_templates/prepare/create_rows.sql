{# The narrow working table: partition id, coded quasi-identifiers, coded sensitive values.
   A sensitive column's code is the rank of the row's value among the column's distinct values
   (NULL last), taken from a rank table of those values joined back by IS NOT DISTINCT FROM
   (which DuckDB and Spark hash), not from a DENSE_RANK over every row: that window has no
   PARTITION BY, so it sorts every row in one piece (on Spark one task; at 1e7 rows 20-25 s
   against 12-13 s, on DuckDB 2.6-3.5 s against 0.8-1.1 s). PostgreSQL, which cannot hash
   IS NOT DISTINCT FROM, has its own form (engines/postgres/templates).
   ``counted`` (weighted only): ``source`` is the source's counted rows (anonsql.sql.CountedRows)
   and ``counted`` their count column. #}
{% from "prepare/_coded.sql" import coded_qids, leaf_joins, weighted_open, weighted_close %}
{% set counted = counted | default(none) %}
CREATE {{ working_table }}TABLE {{ rows | qname }} AS
{{ weighted_open(dims, sensitive, weight, counted) }}
SELECT
  CAST(0 AS BIGINT) AS pid
{{ coded_qids(dims) }}
{% for s in sensitive %}
  , {{ ('r' ~ loop.index0) | ident }}.code AS {{ s.code | ident }}
{% endfor %}
{% if counted %}
  , src.{{ counted | ident }} AS __anonsql_n
{% endif %}
FROM {{ source | qname }} AS src
{{ leaf_joins(dims, leaves) }}
{% for s in sensitive %}
JOIN (
  SELECT d.value, CAST(DENSE_RANK() OVER (ORDER BY d.value ASC NULLS LAST) - 1 AS INTEGER) AS code
  FROM (SELECT DISTINCT {{ s.column | ident }} AS value FROM {{ source | qname }}) AS d
) AS {{ ('r' ~ loop.index0) | ident }}
  ON {{ ('r' ~ loop.index0) | ident }}.value IS NOT DISTINCT FROM src.{{ s.column | ident }}
{% endfor %}
{{ weighted_close(dims, sensitive, weight) }}
