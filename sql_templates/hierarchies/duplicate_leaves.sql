{#
  Check: each leaf (first column) of a hierarchy table appears on one row only.
  One row (level 0 and the number of repeated leaves) when some repeat.
#}
{% from "hierarchies/_levels.sql" import text %}
SELECT 0 AS level, COUNT(*) AS n
FROM (
  SELECT {{ text(columns[0]) }} AS leaf
  FROM {{ relation | qname }}
  GROUP BY {{ text(columns[0]) }}
  HAVING COUNT(*) > 1
) AS repeated
HAVING COUNT(*) > 0
