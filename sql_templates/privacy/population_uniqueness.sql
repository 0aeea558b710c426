{#
  Population uniqueness (a table-level model). The estimate is computed in Python from the class
  sizes the model was prepared with (``histogram``); this query recomputes the class sizes and
  returns one row when the estimate violates the threshold, or when the class sizes are no
  longer those estimated from (``changed_sizes`` > 0: the estimate does not describe the relation).
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
SELECT {{ estimator | lit }} AS estimator, {{ dbl(value | lit) }} AS population_uniqueness,
  {{ dbl(threshold | lit) }} AS threshold, CAST(sizes AS BIGINT) AS changed_sizes
FROM changed
WHERE sizes > 0 OR {{ violated | lit }}
