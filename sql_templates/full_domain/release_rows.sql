{# Every distinct vector of the source, coded as the working rows hold it (q<i>: leaf rank, or
   the value of a numeric quasi-identifier), with the class (pid) the chosen node puts it in:
   the frequency table's codes shifted to the node's levels (``groups``) matched to the parts
   table's code<i>. #}
{% from "full_domain/_node.sql" import group_expr %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT
  p.pid
{% for d in dims %}
  , r.{{ (('v' if d.numeric else 'r') ~ loop.index0) | ident }} AS {{ ('q' ~ d.index) | ident }}
{% endfor %}
FROM {{ freq | qname }} AS r
JOIN {{ parts | qname }} AS p
  ON {% for g in groups %}p.{{ ('code' ~ loop.index0) | ident }} = {{ group_expr(g) }}{{ ' AND ' if not loop.last }}{% endfor %}

