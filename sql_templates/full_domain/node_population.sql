{# One lattice node's population counts: the population's frequency table rolled up to the
   node (``population_groups``: its path codes shifted to the node's levels), kept for the
   classes the sample has at that node (``groups`` over ``source``). #}
{% from "full_domain/_node.sql" import group_expr, group_list %}
WITH sample_classes AS (
  SELECT DISTINCT
{% for g in groups %}
    {{ group_expr(g) }} AS {{ ('node' ~ loop.index0) | ident }}{{ "," if not loop.last }}
{% endfor %}
  FROM {{ source | qname }} AS r
),
population_classes AS (
  SELECT
{% for g in population_groups %}
    {{ group_expr(g) }} AS {{ ('node' ~ loop.index0) | ident }},
{% endfor %}
    CAST(SUM(r.n) AS DOUBLE) AS n
  FROM {{ population | qname }} AS r
  GROUP BY {{ group_list(population_groups) }}
)
SELECT
{% for g in groups %}
  p.{{ ('node' ~ loop.index0) | ident }},
{% endfor %}
  p.n
FROM population_classes AS p
JOIN sample_classes AS s
  ON {% for g in groups %}s.{{ ('node' ~ loop.index0) | ident }} = p.{{ ('node' ~ loop.index0) | ident }}{{ " AND " if not loop.last }}{% endfor %}
