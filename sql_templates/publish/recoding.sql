{# Distinct quasi-identifier vectors of the source -> their published values. Mondrian's
   partition is a function of the vector, so the published relation can be a view that joins
   the source to this map. The coded vectors are made distinct first (narrow integer keys),
   then joined to their published values. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT
{% for d in dims %}
{% if d.is_numeric %}
  r.{{ d.code | ident }} AS {{ d.column | ident }},
{% else %}
  {{ ('l' ~ d.index) | ident }}.value AS {{ d.column | ident }},
{% endif %}
  g.{{ ('g' ~ d.index) | ident }} AS {{ (d.column ~ suffix) | ident }},
{% endfor %}
  g.suppressed AS suppressed,
  r.pid AS pid
FROM (
  SELECT DISTINCT {% for d in dims %}{{ d.code | ident }}, {% endfor %}pid
  FROM {{ rows | qname }}
) AS r
JOIN {{ generalized | qname }} AS g ON g.pid = r.pid
{% for d in dims if not d.is_numeric %}
JOIN {{ leaves[d.index] | qname }} AS {{ ('l' ~ d.index) | ident }}
  ON {{ ('l' ~ d.index) | ident }}.leaf_rank = r.{{ d.code | ident }}
{% endfor %}
