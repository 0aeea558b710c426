{#
  Coverage of several columns by their hierarchies' leaves in one scan of the source: per column
  (`checks`: column, leaves), the rows whose text is not a leaf (NULL is never a leaf). A leaves
  table holds each value once (hierarchies/tables.py `materialize`), so a row joins at most one
  leaf per column and is counted once.
#}
SELECT
{% for c in checks %}
  {% if not loop.first %}, {% endif %}COALESCE(SUM(CASE WHEN {{ ('l' ~ loop.index0) | ident }}.value IS NULL THEN 1 ELSE 0 END), 0) AS {{ ('uncovered' ~ loop.index0) | ident }}
{% endfor %}
FROM {{ source | qname }} AS s
{% for c in checks %}
LEFT JOIN {{ c.leaves | qname }} AS {{ ('l' ~ loop.index0) | ident }}
  ON {{ ('l' ~ loop.index0) | ident }}.value = CAST(s.{{ c.column | ident }} AS VARCHAR)
{% endfor %}
