{# Attribute inference: per group of rows the adversary cannot tell apart (`known`), the count
   of its most frequent value of `column` (their guess for every row of the group), the group's
   rows, and the count of the value most frequent over the whole relation (the baseline's guess)
   and the number of distinct values (the domain a confidence bound may depend on).
   The cells are grouped twice in one pass (GROUPING SETS: per group, and per value, told apart
   by GROUPING(a0)), so they are read once: Spark recomputes a CTE at every reference, and the
   two references cost 10 jobs, 3.5 s at 1e7 rows. #}
{% from "attacks/_groups.sql" import grouped, keys %}
WITH cells AS (
  {{ grouped(relation, known, [column], counted, distinct | default(false)) }}
),
stats AS (
  SELECT GROUPING(a0) AS per_group, SUM(n) AS n, MAX(n) AS top
  FROM cells
  GROUP BY GROUPING SETS (({{ keys(known) }}), (a0))
)
SELECT
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN top END), 0) AS BIGINT) AS correct,
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN n END), 0) AS BIGINT) AS rows,
  COALESCE(MAX(CASE WHEN per_group = 1 THEN CAST(top AS DOUBLE) / CAST(n AS DOUBLE) END), 0.0) AS confidence,
  CAST(COALESCE(MAX(CASE WHEN per_group = 0 THEN n END), 0) AS BIGINT) AS baseline_correct,
  CAST(SUM(CASE WHEN per_group = 0 THEN 1 ELSE 0 END) AS BIGINT) AS domain
FROM stats
