{# One lattice node's equivalence classes: the level code of every quasi-identifier (node<i>),
   the sensitive code when ``code`` is given (one row per class and code), and the rows. With
   ``below``, only classes of fewer rows (those k-anonymity suppresses). #}
{% from "full_domain/_node.sql" import group_expr, group_list %}
SELECT
{% for g in groups %}
  {{ group_expr(g) }} AS {{ ('node' ~ loop.index0) | ident }},
{% endfor %}
{% if code %}
  r.{{ code | ident }} AS code,
{% endif %}
  CAST(SUM(r.n) AS BIGINT) AS n
FROM {{ source | qname }} AS r
GROUP BY {{ group_list(groups) }}{% if code %}, r.{{ code | ident }}{% endif %}

{% if below is not none %}
HAVING SUM(r.n) < {{ below | lit }}
{% endif %}
