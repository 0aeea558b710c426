{% from "privacy/_classes.sql" import sa_frequencies, class_keys, class_columns, dbl %}
{# Ties in the ranking do not matter: the tail sum r_l + ... + r_m is the same either way. #}
WITH {{ sa_frequencies(relation, qids, column, weight | default(none)) }},
ranked AS (
  SELECT {{ class_keys(qids) }}, n,
    ROW_NUMBER() OVER (PARTITION BY {{ class_keys(qids) }} ORDER BY n DESC) AS value_rank
  FROM sa_frequencies
),
class_stats AS (
  SELECT {{ class_keys(qids) }},
    CAST(SUM(n) AS BIGINT) AS class_size,
    COUNT(*) AS distinct_values,
    CAST(MAX(n) AS BIGINT) AS top_count,
    CAST(SUM(CASE WHEN value_rank >= {{ l | lit }} THEN n ELSE 0 END) AS BIGINT) AS tail_count
  FROM ranked
  GROUP BY {{ class_keys(qids) }}
)
SELECT {{ class_columns(qids) }}, class_size, distinct_values, top_count, tail_count
FROM class_stats
WHERE distinct_values < {{ l | lit }}
  OR {{ dbl('top_count') }} >= ({{ dbl(c | lit) }} - {{ dbl(epsilon | lit) }}) * {{ dbl('tail_count') }}
