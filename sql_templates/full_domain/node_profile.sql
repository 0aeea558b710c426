{# One lattice node's suppression profile under k-anonymity: the classes below k, and per
   quasi-identifier their rows by level code. One grouping set per quasi-identifier, so each
   output row has exactly one non-NULL code column (node<i>). #}
{% from "full_domain/_node.sql" import group_expr, group_list %}
SELECT
{% for g in groups %}
  {{ ('g' ~ loop.index0) | ident }} AS {{ ('node' ~ loop.index0) | ident }},
{% endfor %}
  SUM(n) AS n
FROM (
  SELECT
{% for g in groups %}
    {{ group_expr(g) }} AS {{ ('g' ~ loop.index0) | ident }},
{% endfor %}
    CAST(SUM(r.n) AS BIGINT) AS n
  FROM {{ source | qname }} AS r
  GROUP BY {{ group_list(groups) }}
  HAVING SUM(r.n) < {{ below | lit }}
) AS c
GROUP BY GROUPING SETS ({% for g in groups %}({{ ('g' ~ loop.index0) | ident }}){{ ', ' if not loop.last }}{% endfor %})
