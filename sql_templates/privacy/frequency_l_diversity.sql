{% from "privacy/_classes.sql" import sa_frequencies, class_keys, class_columns %}
{# Integers on both sides: no value above 1/l of a class is l * top_count <= class_size. #}
WITH {{ sa_frequencies(relation, qids, column, weight | default(none)) }},
class_stats AS (
  SELECT {{ class_keys(qids) }}, CAST(SUM(n) AS BIGINT) AS class_size, CAST(MAX(n) AS BIGINT) AS top_count
  FROM sa_frequencies
  GROUP BY {{ class_keys(qids) }}
)
SELECT {{ class_columns(qids) }}, class_size, top_count
FROM class_stats
WHERE {{ l | lit }} * top_count > class_size
