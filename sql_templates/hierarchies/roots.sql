{#
  Check: the last column of a hierarchy table holds exactly one label, the root.
  One row (the root level and its number of distinct labels) when it does not.
#}
{% from "hierarchies/_levels.sql" import text %}
SELECT {{ (columns | length - 1) | lit }} AS level, COUNT(DISTINCT {{ text(columns[-1]) }}) AS n
FROM {{ relation | qname }}
HAVING COUNT(DISTINCT {{ text(columns[-1]) }}) <> 1
