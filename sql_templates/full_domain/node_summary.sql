{# One lattice node, k-anonymity only: its rows grouped into equivalence classes, reduced to one
   row: the rows of classes below k (suppressed) and the classes; with ``full``, also the rows,
   the classes below k, and the sums of squared class sizes over the kept classes and over all
   classes (discernibility). The search asks for the short form when it can: every statement is
   parsed, and most nodes only need to be classified. #}
{% from "full_domain/_node.sql" import group_list %}
SELECT
  SUM(CASE WHEN n < {{ k | lit }} THEN n ELSE 0 END) AS small_rows,
  COUNT(*) AS classes
{% if full %}
  , SUM(n) AS class_rows
  , SUM(CASE WHEN n < {{ k | lit }} THEN 1 ELSE 0 END) AS small_classes
  , SUM(CASE WHEN n >= {{ k | lit }} THEN n * n ELSE 0 END) AS squares_kept
  , SUM(n * n) AS squares
{% endif %}
FROM (
  SELECT CAST(SUM(r.n) AS BIGINT) AS n
  FROM {{ source | qname }} AS r
  GROUP BY {{ group_list(groups) }}
) AS c
