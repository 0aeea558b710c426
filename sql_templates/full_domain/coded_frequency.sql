{# The frequency table of the run's working rows: one row per distinct coded vector (and
   sensitive codes s<j>, kept as the prepare step numbered them), with per quasi-identifier the
   leaf rank r<i>, the path code q<i> (its level-l code is q<i> shifted right), for a numeric one
   its value v<i>, and the row count n. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
{% for d in dims %}
  {{ ('c' ~ d.index) | ident }}.leaf AS {{ ('r' ~ d.index) | ident }},
  {{ ('c' ~ d.index) | ident }}.code AS {{ ('q' ~ d.index) | ident }},
{% if d['values'] %}
  v.{{ d.code | ident }} AS {{ ('v' ~ d.index) | ident }},
{% endif %}
{% endfor %}
{% for s in sensitive %}
  v.{{ s | ident }},
{% endfor %}
  v.n
FROM (
  SELECT {% for d in dims %}r.{{ d.code | ident }}, {% endfor %}{% for s in sensitive %}r.{{ s | ident }}, {% endfor %}COUNT(*) AS n
  FROM {{ rows | qname }} AS r
  GROUP BY {% for d in dims %}r.{{ d.code | ident }}{{ ", " if not loop.last or sensitive }}{% endfor %}{% for s in sensitive %}r.{{ s | ident }}{{ ", " if not loop.last }}{% endfor %}

) AS v
{% for d in dims %}
{% set c = ('c' ~ d.index) | ident %}
{% if d['values'] %}
{% set x = ('x' ~ d.index) | ident %}
JOIN {{ d['values'] | qname }} AS {{ x }} ON {{ x }}.value = v.{{ d.code | ident }}
JOIN {{ d.codes | qname }} AS {{ c }} ON {{ c }}.leaf = {{ x }}.leaf
{% else %}
JOIN {{ d.codes | qname }} AS {{ c }} ON {{ c }}.leaf = v.{{ d.code | ident }}
{% endif %}
{% endfor %}
