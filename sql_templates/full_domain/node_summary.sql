{# One lattice node, k-anonymity only: its rows grouped into equivalence classes, reduced to one
   row: classes, rows, rows and classes below k (suppressed), and the sums of squared class
   sizes over the kept classes and over all classes (discernibility). #}
{% from "full_domain/_node.sql" import group_list %}
SELECT
  COUNT(*) AS classes,
  SUM(n) AS class_rows,
  SUM(CASE WHEN n < {{ k | lit }} THEN n ELSE 0 END) AS small_rows,
  SUM(CASE WHEN n < {{ k | lit }} THEN 1 ELSE 0 END) AS small_classes,
  SUM(CASE WHEN n >= {{ k | lit }} THEN n * n ELSE 0 END) AS squares_kept,
  SUM(n * n) AS squares
FROM (
  SELECT CAST(SUM(r.n) AS BIGINT) AS n
  FROM {{ source | qname }} AS r
  GROUP BY {{ group_list(groups) }}
) AS c
