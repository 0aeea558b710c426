{% from "privacy/_classes.sql" import sa_frequencies, class_keys, class_columns, dbl %}
WITH {{ sa_frequencies(relation, qids, column, weight | default(none)) }},
class_stats AS (
  SELECT {{ class_keys(qids) }}, CAST(SUM(n) AS BIGINT) AS class_size, CAST(MAX(n) AS BIGINT) AS top_count
  FROM sa_frequencies
  GROUP BY {{ class_keys(qids) }}
)
SELECT {{ class_columns(qids) }}, class_size, {{ dbl('top_count') }} / {{ dbl('class_size') }} AS top_share
FROM class_stats
WHERE class_size < {{ k | lit }}
  OR {{ dbl('top_count') }} / {{ dbl('class_size') }} > {{ dbl(alpha | lit) }} + {{ dbl(epsilon | lit) }}
