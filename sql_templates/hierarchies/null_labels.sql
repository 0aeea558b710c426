{#
  Check: no label of a hierarchy table is NULL.
  One row per violating level (column position, 0 = leaf) with the number of NULL rows.
#}
{% for column in columns %}
{{ "UNION ALL" if not loop.first }}
SELECT {{ loop.index0 | lit }} AS level, COUNT(*) AS n
FROM {{ relation | qname }}
WHERE {{ column | ident }} IS NULL
HAVING COUNT(*) > 0
{% endfor %}
