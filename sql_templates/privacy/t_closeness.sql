{% from "privacy/_classes.sql" import sa_frequencies, class_keys, class_columns, dbl %}
{% set keys = class_keys(qids) %}
WITH {{ sa_frequencies(relation, qids, column, weight | default(none)) }},
{% if distance == "equal" %}
{#
  0.5 * sum |p_i - q_i| over the whole domain; a value absent from the class adds q_i, so the sum
  is taken over the class's values only and the absent mass 1 - sum q_i is added. Q comes from a
  window over all classes, so no join is needed.
#}
shares AS (
  SELECT {{ keys }}, n,
    {{ dbl('n') }} / {{ dbl('SUM(n) OVER (PARTITION BY ' ~ keys ~ ')') }} AS p,
    {{ dbl('SUM(n) OVER (PARTITION BY sa)') }} / {{ dbl('SUM(n) OVER ()') }} AS q
  FROM sa_frequencies
),
class_stats AS (
  SELECT {{ keys }}, CAST(SUM(n) AS BIGINT) AS class_size,
    0.5 * (SUM(ABS(p - q)) + 1.0 - SUM(q)) AS emd
  FROM shares
  GROUP BY {{ keys }}
)
{% else %}
{#
  The ordered distance needs the cumulative difference at every value of the domain, including
  values absent from the class, so every class gets one cell per domain value (classes x values).
#}
class_list AS (
  SELECT {{ keys }} FROM sa_frequencies GROUP BY {{ keys }}
),
domain AS (
  SELECT sa, SUM(n) AS global_n FROM sa_frequencies GROUP BY sa
),
cells AS (
  SELECT {{ keys }}, sa, SUM(class_n) AS class_n, SUM(global_n) AS global_n
  FROM (
    SELECT {{ keys }}, sa, n AS class_n, 0 AS global_n FROM sa_frequencies
    UNION ALL
    SELECT {{ keys }}, d.sa, 0 AS class_n, d.global_n
    FROM class_list CROSS JOIN domain AS d
  ) AS u
  GROUP BY {{ keys }}, sa
),
shares AS (
  SELECT {{ keys }}, sa, class_n,
    {{ dbl('class_n') }} / {{ dbl('SUM(class_n) OVER (PARTITION BY ' ~ keys ~ ')') }}
    - {{ dbl('global_n') }} / {{ dbl('SUM(global_n) OVER (PARTITION BY ' ~ keys ~ ')') }} AS diff
  FROM cells
),
steps AS (
  SELECT {{ keys }}, class_n,
    SUM(diff) OVER (
      PARTITION BY {{ keys }} ORDER BY sa ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS cumulative
  FROM shares
),
class_stats AS (
  SELECT {{ keys }}, CAST(SUM(class_n) AS BIGINT) AS class_size,
    CASE WHEN COUNT(*) > 1 THEN SUM(ABS(cumulative)) / {{ dbl('COUNT(*) - 1') }} ELSE 0.0 END AS emd
  FROM steps
  GROUP BY {{ keys }}
)
{% endif %}
SELECT {{ class_columns(qids) }}, class_size, emd
FROM class_stats
WHERE emd > {{ dbl(t | lit) }} + {{ dbl(epsilon | lit) }}
