{% from "mondrian/_bins.sql" import numeric_bin, row_count %}
{# Per partition, candidate dimension and bin: the row count and every dimension's min and max
   (leaf ranks for categorical ones), so the information loss of any union of bins is known
   before a split is chosen (loss-aware splits, suppression that must pay). #}
{% for d in dims %}
{% if not loop.first %}
UNION ALL
{% endif %}
SELECT
  w.pid AS pid,
  {{ d.index | lit }} AS dim,
  {% if d.is_numeric %}{{ numeric_bin(d) }}{% else %}a.node_id{% endif %} AS bin,
  {{ row_count(weight) }} AS n
{% for e in dims %}
  , MIN(w.{{ e.code | ident }}) AS {{ ('lo' ~ e.index) | ident }}
  , MAX(w.{{ e.code | ident }}) AS {{ ('hi' ~ e.index) | ident }}
{% endfor %}
FROM {{ work | qname }} AS w
JOIN {{ pstate | qname }} AS p ON p.pid = w.pid
{% if not d.is_numeric %}
JOIN {{ ancestors | qname }} AS a
  ON a.dim = {{ d.index | lit }} AND a.leaf_rank = w.{{ d.code | ident }} AND a.depth = p.{{ ('p' ~ d.index) | ident }} + 1
{% endif %}
WHERE p.{{ ('t' ~ d.index) | ident }}
GROUP BY w.pid, {% if d.is_numeric %}{{ numeric_bin(d) }}{% else %}a.node_id{% endif %}

{% endfor %}
