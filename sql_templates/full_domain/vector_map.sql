{# Every distinct coded vector of the source (q<i> = leaf rank) -> the class (pid) the chosen
   node puts it in: the frequency table's codes shifted to the node's levels (``groups``) matched
   to the parts table's code<i>. #}
{% from "full_domain/_node.sql" import group_expr %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT
{% for g in groups %}
  r.{{ ('r' ~ loop.index0) | ident }} AS {{ ('q' ~ loop.index0) | ident }},
{% endfor %}
  p.pid
FROM {{ source | qname }} AS r
JOIN {{ parts | qname }} AS p
  ON {% for g in groups %}p.{{ ('code' ~ loop.index0) | ident }} = {{ group_expr(g) }}{{ ' AND ' if not loop.last }}{% endfor %}

