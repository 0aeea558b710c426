{#
  The estimate is computed in Python from the class sizes it was given (histogram); this query
  recomputes the class sizes and returns the violation when they are the same, or one row saying
  how many sizes changed when they are not (the estimate no longer describes the relation).
#}
{% from "risk/_classes.sql" import class_rows %}
{% from "privacy/_classes.sql" import dbl %}
WITH {{ class_rows(relation, qids) }},
observed AS (
  SELECT n AS class_size, CAST(COUNT(*) AS BIGINT) AS classes
  FROM class_rows
  GROUP BY n
),
estimated AS (
{% if histogram %}
  SELECT CAST(e.class_size AS BIGINT) AS class_size, CAST(e.classes AS BIGINT) AS classes
  FROM (VALUES {% for size, count in histogram %}({{ size | lit }}, {{ count | lit }}){{ ", " if not loop.last }}{% endfor %}) AS e(class_size, classes)
{% else %}
  SELECT CAST(NULL AS BIGINT) AS class_size, CAST(NULL AS BIGINT) AS classes
  WHERE FALSE
{% endif %}
),
changed AS (
  SELECT COUNT(*) AS sizes
  FROM observed
  FULL OUTER JOIN estimated ON observed.class_size = estimated.class_size
  WHERE observed.classes IS DISTINCT FROM estimated.classes
)
SELECT statistic, value, bound
FROM (
  SELECT {{ statistic | lit }} AS statistic, {{ dbl(value | lit) }} AS value, {{ dbl(threshold | lit) }} AS bound
  FROM changed
  WHERE sizes = 0 AND {{ violated | lit }}
  UNION ALL
  SELECT 'class sizes changed since the estimate' AS statistic, {{ dbl("sizes") }} AS value, {{ dbl(0 | lit) }} AS bound
  FROM changed
  WHERE sizes > 0
) AS v
