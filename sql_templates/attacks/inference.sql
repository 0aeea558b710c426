{# Attribute inference: per group of rows the adversary cannot tell apart (`known`), the count
   of its most frequent value of `column` (their guess for every row of the group), the group's
   rows, and the count of the value most frequent over the whole relation (the baseline's guess)
   and the number of distinct values (the domain a confidence bound may depend on). #}
{% from "attacks/_groups.sql" import grouped, keys %}
WITH cells AS (
  {{ grouped(relation, known, [column], counted) }}
),
per_group AS (
  SELECT {{ keys(known) }}, SUM(n) AS n, MAX(n) AS top
  FROM cells
  GROUP BY {{ keys(known) }}
),
per_value AS (
  SELECT a0, SUM(n) AS n FROM cells GROUP BY a0
)
SELECT
  CAST(COALESCE(SUM(top), 0) AS BIGINT) AS correct,
  CAST(COALESCE(SUM(n), 0) AS BIGINT) AS rows,
  COALESCE(MAX(CAST(top AS DOUBLE) / CAST(n AS DOUBLE)), 0.0) AS confidence,
  (SELECT CAST(COALESCE(MAX(n), 0) AS BIGINT) FROM per_value) AS baseline_correct,
  (SELECT CAST(COUNT(*) AS BIGINT) FROM per_value) AS domain
FROM per_group
