{# The chosen node's population count of every class (pid) of the parts table: the population's
   frequency table shifted to the node's levels (``groups``) matched to the parts' code<i>. #}
{% from "full_domain/_node.sql" import group_expr %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT p.pid, CAST(SUM(r.n) AS DOUBLE) AS n
FROM {{ population | qname }} AS r
JOIN {{ parts | qname }} AS p
  ON {% for g in groups %}p.{{ ('code' ~ loop.index0) | ident }} = {{ group_expr(g) }}{{ ' AND ' if not loop.last }}{% endfor %}

GROUP BY p.pid
