{% from "risk/_classes.sql" import class_rows %}
{% from "privacy/_classes.sql" import dbl %}
WITH {{ class_rows(relation, qids) }},
totals AS (
  SELECT {{ dbl("SUM(CASE WHEN n = 1 THEN 1 ELSE 0 END)") }} AS uniques, {{ dbl("SUM(n)") }} AS records
  FROM class_rows
),
figures AS (
  SELECT 'sample_uniqueness' AS statistic, uniques / records AS value, {{ dbl(threshold | lit) }} AS bound
  FROM totals
  WHERE records > 0
)
SELECT statistic, value, bound
FROM figures
WHERE value > bound + {{ dbl(epsilon | lit) }}
