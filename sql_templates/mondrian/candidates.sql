{% from "mondrian/_bins.sql" import numeric_bin, row_count %}
{% for d in dims %}
{% if not loop.first %}
UNION ALL
{% endif %}
SELECT
  w.pid AS pid,
  {{ d.index | lit }} AS dim,
  {% if d.is_numeric %}{{ numeric_bin(d) }}{% else %}a.node_id{% endif %} AS bin,
  {% if sa %}w.{{ sa | ident }} AS sa,{% endif %}
  {{ row_count(weight) }} AS n
{% if records is defined and records %}
  , CAST(SUM(w.records) AS BIGINT) AS records
  , MAX(w.records) AS max_records
{% endif %}
FROM {{ work | qname }} AS w
JOIN {{ pstate | qname }} AS p ON p.pid = w.pid
{% if not d.is_numeric %}
JOIN {{ ancestors | qname }} AS a
  ON a.dim = {{ d.index | lit }} AND a.leaf_rank = w.{{ d.code | ident }} AND a.depth = p.{{ ('p' ~ d.index) | ident }} + 1
{% endif %}
WHERE p.{{ ('t' ~ d.index) | ident }}
GROUP BY w.pid, {% if d.is_numeric %}{{ numeric_bin(d) }}{% else %}a.node_id{% endif %}{% if sa %}, w.{{ sa | ident }}{% endif %}

{% endfor %}
