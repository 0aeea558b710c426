{# One lattice node, k-anonymity only: the frequency table rolled up to the node's levels
   (``columns``, one node-id column per quasi-identifier) into equivalence classes, reduced to
   one row: classes, rows, rows and classes below k (suppressed), and the sums of squared class
   sizes over the kept classes and over all classes (discernibility). #}
SELECT
  COUNT(*) AS classes,
  CAST(SUM(n) AS BIGINT) AS class_rows,
  CAST(SUM(CASE WHEN n < {{ k | lit }} THEN n ELSE 0 END) AS BIGINT) AS small_rows,
  CAST(SUM(CASE WHEN n < {{ k | lit }} THEN 1 ELSE 0 END) AS BIGINT) AS small_classes,
  CAST(SUM(CASE WHEN n >= {{ k | lit }} THEN n * n ELSE 0 END) AS BIGINT) AS squares_kept,
  CAST(SUM(n * n) AS BIGINT) AS squares
FROM (
  SELECT CAST(SUM(n) AS BIGINT) AS n
  FROM {{ freq | qname }}
  GROUP BY {% for c in columns %}{{ c | ident }}{{ ', ' if not loop.last }}{% endfor %}

) AS c
