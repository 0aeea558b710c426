{% from "privacy/_classes.sql" import sa_frequencies, class_keys, class_columns %}
WITH {{ sa_frequencies(relation, qids, column, weight | default(none)) }},
class_stats AS (
  SELECT {{ class_keys(qids) }}, CAST(SUM(n) AS BIGINT) AS class_size, COUNT(*) AS distinct_values
  FROM sa_frequencies
  GROUP BY {{ class_keys(qids) }}
)
SELECT {{ class_columns(qids) }}, class_size, distinct_values
FROM class_stats
WHERE distinct_values < {{ l | lit }}
