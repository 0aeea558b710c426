{# Per quasi-identifier, the source rows whose value (as text) is not a leaf of its hierarchy
   (NULL included); zero everywhere means every row can be generalized. Counts only, no values. #}
SELECT
{% for d in dims %}
  CAST(SUM(CASE WHEN {{ ('t' ~ d.index) | ident }}.{{ 'value' | ident }} IS NULL THEN r.n ELSE 0 END) AS BIGINT) AS {{ ('u' ~ d.index) | ident }},
{% endfor %}
  COUNT(*) AS vectors,
  CAST(SUM(r.n) AS BIGINT) AS source_rows
FROM {{ raw | qname }} AS r
{% for d in dims %}
LEFT JOIN {{ d.table | qname }} AS {{ ('t' ~ d.index) | ident }}
  ON {{ ('t' ~ d.index) | ident }}.{{ 'value' | ident }} = r.{{ ('v' ~ d.index) | ident }}
{% endfor %}
