{# Every distinct coded vector of the source (q<i> = leaf rank) -> the class (pid) the chosen
   node puts it in: the frequency table's node-id columns of that node (``columns``) matched to
   the parts table's node<i>. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT
{% for c in columns %}
  f.{{ ('r' ~ loop.index0) | ident }} AS {{ ('q' ~ loop.index0) | ident }},
{% endfor %}
  p.pid
FROM {{ freq | qname }} AS f
JOIN {{ parts | qname }} AS p
  ON {% for c in columns %}p.{{ ('node' ~ loop.index0) | ident }} = f.{{ c | ident }}{{ ' AND ' if not loop.last }}{% endfor %}

