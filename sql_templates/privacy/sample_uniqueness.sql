{# Sample uniqueness (a table-level model): one row when the share of records unique in the
   table exceeds the threshold; none when it holds (or the table is empty). #}
{% from "risk/_classes.sql" import class_rows %}
{% from "privacy/_classes.sql" import dbl %}
WITH {{ class_rows(relation, qids) }},
totals AS (
  SELECT {{ dbl("SUM(CASE WHEN n = 1 THEN 1 ELSE 0 END)") }} AS uniques, {{ dbl("SUM(n)") }} AS records
  FROM class_rows
)
SELECT uniques / records AS sample_uniqueness, {{ dbl(threshold | lit) }} AS threshold
FROM totals
WHERE records > 0 AND uniques / records > {{ dbl(threshold | lit) }} + {{ dbl(epsilon | lit) }}
