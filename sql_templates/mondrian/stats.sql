{% from "mondrian/_bins.sql" import row_count %}
{% set weight = weight | default(none) %}
{% set numeric = dims | selectattr("is_numeric") | list %}
{% set lo, hi = window[0] | lit, window[1] | lit %}
{# Per partition of the window: rows, every dimension's min and max, and each numeric
   dimension's median (PERCENTILE_DISC(0.5): the smallest value whose cumulative share of the
   partition's rows reaches one half). Over a weighted table (rows standing for `weight` rows
   each) the median is that definition computed from cumulative weights. #}
{% if weight and numeric %}
WITH
{% for d in numeric %}
{{ ('med' ~ d.index) | ident }} AS (
  SELECT pid, MIN(v) AS med
  FROM (
    SELECT pid, v, SUM(c) OVER (PARTITION BY pid ORDER BY v) AS below, SUM(c) OVER (PARTITION BY pid) AS total
    FROM (
      SELECT pid, {{ d.code | ident }} AS v, SUM({{ weight | ident }}) AS c
      FROM {{ work | qname }}
      WHERE pid >= {{ lo }} AND pid < {{ hi }}
      GROUP BY pid, {{ d.code | ident }}
    ) AS vc
  ) AS cum
  WHERE 2 * below >= total
  GROUP BY pid
){{ "," if not loop.last }}
{% endfor %}
{% endif %}
SELECT
  w.pid AS pid,
  {{ row_count(weight) }} AS n
{% for d in dims %}
  , MIN(w.{{ d.code | ident }}) AS {{ ('min' ~ d.index) | ident }}
  , MAX(w.{{ d.code | ident }}) AS {{ ('max' ~ d.index) | ident }}
{% if d.is_numeric %}
{% if weight %}
  , MIN({{ ('med' ~ d.index) | ident }}.med) AS {{ ('med' ~ d.index) | ident }}
{% else %}
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w.{{ d.code | ident }}) AS {{ ('med' ~ d.index) | ident }}
{% endif %}
{% endif %}
{% endfor %}
FROM {{ work | qname }} AS w
{% if weight %}
{% for d in numeric %}
JOIN {{ ('med' ~ d.index) | ident }} ON {{ ('med' ~ d.index) | ident }}.pid = w.pid
{% endfor %}
{% endif %}
WHERE w.pid >= {{ lo }} AND w.pid < {{ hi }}
GROUP BY w.pid
ORDER BY w.pid
