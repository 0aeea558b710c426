{# Average re-identification risk (a table-level model): one row, the table's statistics, when
   it violates the thresholds; none when it holds (or the table is empty). #}
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
  SELECT classes / records AS average_risk,
{% if smallest is not none %}
    at_risk / records AS records_at_risk
{% else %}
    {{ dbl("NULL") }} AS records_at_risk
{% endif %}
  FROM totals
  WHERE records > 0
)
SELECT average_risk, {{ dbl(threshold | lit) }} AS threshold, records_at_risk
FROM figures
WHERE average_risk > {{ dbl(threshold | lit) }} + {{ dbl(epsilon | lit) }}
{% if smallest is not none %}
  OR records_at_risk > {{ dbl(records_at_risk | lit) }} + {{ dbl(epsilon | lit) }}
{% endif %}
