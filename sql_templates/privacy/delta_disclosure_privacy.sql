{# Per class, the largest |log2(p_class / p_table)| over the values it holds. #}
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
    MAX(ABS(LN(p / q) / LN({{ dbl(2 | lit) }}))) AS disclosure
  FROM shares
  GROUP BY {{ class_keys(qids) }}
)
SELECT {{ class_columns(qids) }}, class_size, disclosure
FROM class_stats
WHERE disclosure >= {{ dbl(delta | lit) }} - {{ dbl(epsilon | lit) }}
