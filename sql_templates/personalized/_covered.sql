{#
  Per sensitive attribute, unit (a QID group, or a bucket) and leaf: the unit's cells whose
  published label covers the leaf (a taxonomy node covers the leaves below it; a term only
  itself), as CTEs unit_sizes and covered, read from the cell_leaves working table (one row per
  cell and leaf its label covers). A generalized label counts for every leaf under it: an
  adversary may read it as any of them (digest G8).
#}
{% macro unit(by_group) -%}
{% if by_group %}m.group_id{% else %}c.bucket{% endif %}
{%- endmacro %}
{% macro covered(cells, cell_leaves, members, by_group) -%}
unit_sizes AS (
  SELECT c.attr, {{ unit(by_group) }} AS unit, COUNT(*) AS size
  FROM {{ cells | qname }} AS c
{% if by_group %}
  JOIN {{ members | qname }} AS m ON m.rid = c.rid
{% endif %}
  GROUP BY c.attr, {{ unit(by_group) }}
),
covered AS (
  SELECT c.attr, {{ unit(by_group) }} AS unit, c.leaf, COUNT(*) AS n
  FROM {{ cell_leaves | qname }} AS c
{% if by_group %}
  JOIN {{ members | qname }} AS m ON m.rid = c.rid
{% endif %}
  GROUP BY c.attr, {{ unit(by_group) }}, c.leaf
)
{%- endmacro %}
