{#
  Check: each level of a hierarchy table is a function of the one below it.
  One row per violating level with the number of its labels that have more than one parent.
#}
{% from "hierarchies/_levels.sql" import text %}
{% for column in columns[:-1] %}
{{ "UNION ALL" if not loop.first }}
SELECT {{ loop.index0 | lit }} AS level, COUNT(*) AS n
FROM (
  SELECT {{ text(column) }} AS label
  FROM {{ relation | qname }}
  GROUP BY {{ text(column) }}
  HAVING COUNT(DISTINCT {{ text(columns[loop.index]) }}) > 1
) AS {{ ("level" ~ loop.index0) | ident }}
HAVING COUNT(*) > 0
{% endfor %}
