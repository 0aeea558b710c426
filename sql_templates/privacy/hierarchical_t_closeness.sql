{#
  Hierarchical EMD per class: 1 / (2H) * sum over levels l < H of sum over the level-l groups g
  of |P_g - Q_g|. Groups absent from a class add Q_g, which sum to 1 - (the present groups' Q),
  so only present groups are visited: per level, sum (|P_g - Q_g| - Q_g) + 1. ``groups`` inlines
  (value, level, label) of the hierarchy; a value it lacks (NULL too) is a group of its own at
  every level (``unknown``).
#}
{% from "privacy/_classes.sql" import sa_frequencies, class_keys, class_columns, dbl %}
{% set keys = class_keys(qids) %}
WITH {{ sa_frequencies(relation, qids, column, weight | default(none)) }},
hierarchy AS (
  SELECT h.leaf, h.level, h.label
  FROM (VALUES {% for leaf, level, label in groups %}({{ leaf | lit }}, {{ level | lit }}, {{ label | lit }}){{ ", " if not loop.last }}{% endfor %}) AS h(leaf, level, label)
),
levels AS (
  SELECT l.level FROM (VALUES {% for level in range(height) %}({{ level | lit }}){{ ", " if not loop.last }}{% endfor %}) AS l(level)
),
mapped AS (
  SELECT {% for q in qids %}f.{{ ('q' ~ loop.index0) | ident }}, {% endfor %}v.level,
    CASE WHEN h.label IS NULL THEN 1 ELSE 0 END AS unknown,
    COALESCE(h.label, CAST(f.sa AS VARCHAR)) AS label,
    f.n
  FROM sa_frequencies AS f
  CROSS JOIN levels AS v
  LEFT JOIN hierarchy AS h ON h.level = v.level AND h.leaf = CAST(f.sa AS VARCHAR)
),
grouped AS (
  SELECT {{ keys }}, level, unknown, label, SUM(n) AS n
  FROM mapped
  GROUP BY {{ keys }}, level, unknown, label
),
shares AS (
  SELECT {{ keys }}, level, n,
    {{ dbl('n') }} / {{ dbl('SUM(n) OVER (PARTITION BY ' ~ keys ~ ', level)') }} AS p,
    {{ dbl('SUM(n) OVER (PARTITION BY level, unknown, label)') }} / {{ dbl('SUM(n) OVER (PARTITION BY level)') }} AS q
  FROM grouped
),
class_stats AS (
  SELECT {{ keys }}, CAST(SUM(CASE WHEN level = 0 THEN n ELSE 0 END) AS BIGINT) AS class_size,
    (SUM(ABS(p - q) - q) + {{ dbl(height | lit) }}) / {{ dbl((2 * height) | lit) }} AS emd
  FROM shares
  GROUP BY {{ keys }}
)
SELECT {{ class_columns(qids) }}, class_size, emd
FROM class_stats
WHERE emd > {{ dbl(t | lit) }} + {{ dbl(epsilon | lit) }}
