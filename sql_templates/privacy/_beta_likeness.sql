{# Per class, the largest excess of a value's relative gain (p_class - p_table) / p_table over
   its bound: beta, or with ``enhanced`` min(beta, -ln p_table). #}
{% from "privacy/_classes.sql" import sa_frequencies, class_keys, class_columns, dbl %}
WITH {{ sa_frequencies(relation, qids, column, weight | default(none)) }},
shares AS (
  SELECT {{ class_keys(qids) }}, n,
    {{ dbl('n') }} / {{ dbl('SUM(n) OVER (PARTITION BY ' ~ class_keys(qids) ~ ')') }} AS p,
    {{ dbl('SUM(n) OVER (PARTITION BY sa)') }} / {{ dbl('SUM(n) OVER ()') }} AS q
  FROM sa_frequencies
),
class_stats AS (
  SELECT {{ class_keys(qids) }}, CAST(SUM(n) AS BIGINT) AS class_size,
{% if enhanced %}
    MAX((p - q) / q - LEAST({{ dbl(beta | lit) }}, -LN(q))) AS excess
{% else %}
    MAX((p - q) / q - {{ dbl(beta | lit) }}) AS excess
{% endif %}
  FROM shares
  GROUP BY {{ class_keys(qids) }}
)
SELECT {{ class_columns(qids) }}, class_size, excess
FROM class_stats
WHERE excess > {{ dbl(epsilon | lit) }}
