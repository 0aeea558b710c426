{% from "risk/_classes.sql" import class_rows %}
{% from "privacy/_classes.sql" import dbl %}
WITH {{ class_rows(relation, qids) }},
totals AS (
  SELECT {{ dbl("COUNT(*)") }} AS classes, {{ dbl("SUM(n)") }} AS records
{% if smallest is not none %}
    , {{ dbl("SUM(CASE WHEN n < " ~ (smallest | lit) ~ " THEN n ELSE 0 END)") }} AS at_risk
{% endif %}
  FROM class_rows
),
figures AS (
  SELECT 'average_risk' AS statistic, classes / records AS value, {{ dbl(threshold | lit) }} AS bound
  FROM totals
  WHERE records > 0
{% if smallest is not none %}
  UNION ALL
  SELECT 'records_at_risk' AS statistic, at_risk / records AS value, {{ dbl(records_at_risk | lit) }} AS bound
  FROM totals
  WHERE records > 0
{% endif %}
)
SELECT statistic, value, bound
FROM figures
WHERE value > bound + {{ dbl(epsilon | lit) }}
