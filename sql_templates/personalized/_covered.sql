{#
  Per sensitive attribute, unit (a QID group, or a bucket) and leaf: the unit's cells whose
  published label covers the leaf (a taxonomy node covers the leaves below it; a term only
  itself), as CTEs cell_counts, unit_sizes and covered. A generalized label counts for every
  leaf under it: an adversary may read it as any of them (digest G8).
#}
{% macro covered(cells, members, labels, by_group) -%}
cell_counts AS (
  SELECT c.attr, {% if by_group %}m.group_id{% else %}c.bucket{% endif %} AS unit, c.node, COUNT(*) AS n
  FROM {{ cells | qname }} AS c
{% if by_group %}
  JOIN {{ members | qname }} AS m ON m.rid = c.rid
{% endif %}
  GROUP BY c.attr, {% if by_group %}m.group_id{% else %}c.bucket{% endif %}, c.node
),
unit_sizes AS (
  SELECT attr, unit, SUM(n) AS size FROM cell_counts GROUP BY attr, unit
),
covered AS (
  SELECT cc.attr, cc.unit, leaf.first_leaf AS leaf, SUM(cc.n) AS n
  FROM cell_counts AS cc
  JOIN {{ labels | qname }} AS lab ON lab.attr = cc.attr AND lab.node = cc.node
  JOIN {{ labels | qname }} AS leaf
    ON leaf.attr = cc.attr AND leaf.is_leaf
    AND leaf.first_leaf BETWEEN lab.first_leaf AND lab.last_leaf
  GROUP BY cc.attr, cc.unit, leaf.first_leaf
)
{%- endmacro %}
