{# The frequency table: one row per distinct coded vector (and sensitive codes), with per
   quasi-identifier the leaf rank r<i> and the path code q<i> (its level-l code is q<i> shifted
   right), and the row count n. Sensitive codes number the distinct values in ascending order,
   NULL last. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
{% for d in dims %}
{% set t = ('t' ~ d.index) | ident %}
  {{ t }}.leaf AS {{ ('r' ~ d.index) | ident }},
  {{ t }}.code AS {{ ('q' ~ d.index) | ident }},
{% endfor %}
{% for s in sensitive %}
{% set code = ('s' ~ loop.index0) | ident %}
  CAST(DENSE_RANK() OVER (ORDER BY r.{{ code }} ASC NULLS LAST) - 1 AS INTEGER) AS {{ code }},
{% endfor %}
  r.n
FROM {{ raw | qname }} AS r
{% for d in dims %}
JOIN {{ d.table | qname }} AS {{ ('t' ~ d.index) | ident }}
  ON {{ ('t' ~ d.index) | ident }}.{{ 'value' | ident }} = r.{{ ('v' ~ d.index) | ident }}
{% endfor %}
