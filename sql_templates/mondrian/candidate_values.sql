{# Like candidates.sql, per (partition, dimension, bin, sensitive value code): the individuals
   having the value (n) and their records with it, from the table of (person, code, records)
   of individuals who own several records. #}
{% from "mondrian/_bins.sql" import numeric_bin %}
{% for d in dims %}
{% if not loop.first %}
UNION ALL
{% endif %}
SELECT
  w.pid AS pid,
  {{ d.index | lit }} AS dim,
  {% if d.is_numeric %}{{ numeric_bin(d) }}{% else %}a.node_id{% endif %} AS bin,
  v.code AS sa,
  COUNT(*) AS n,
  CAST(SUM(v.records) AS BIGINT) AS records
FROM {{ work | qname }} AS w
JOIN {{ pstate | qname }} AS p ON p.pid = w.pid
JOIN {{ values | qname }} AS v ON v.person = w.person
{% if not d.is_numeric %}
JOIN {{ ancestors | qname }} AS a
  ON a.dim = {{ d.index | lit }} AND a.leaf_rank = w.{{ d.code | ident }} AND a.depth = p.{{ ('p' ~ d.index) | ident }} + 1
{% endif %}
WHERE p.{{ ('t' ~ d.index) | ident }}
GROUP BY w.pid, {% if d.is_numeric %}{{ numeric_bin(d) }}{% else %}a.node_id{% endif %}, v.code

{% endfor %}
