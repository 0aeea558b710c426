{% from "privacy/_classes.sql" import sa_frequencies, class_keys, class_columns, dbl %}
WITH {{ sa_frequencies(relation, qids, column, weight | default(none)) }},
shares AS (
  SELECT {{ class_keys(qids) }}, n,
    {{ dbl('n') }} / {{ dbl('SUM(n) OVER (PARTITION BY ' ~ class_keys(qids) ~ ')') }} AS p
  FROM sa_frequencies
),
class_stats AS (
  SELECT {{ class_keys(qids) }}, CAST(SUM(n) AS BIGINT) AS class_size, -SUM(p * LN(p)) AS entropy
  FROM shares
  GROUP BY {{ class_keys(qids) }}
)
SELECT {{ class_columns(qids) }}, class_size, entropy
FROM class_stats
WHERE entropy < LN({{ dbl(l | lit) }}) - {{ dbl(epsilon | lit) }}
