{# Per sensitive attribute: distinct labels (leaves or terms) and the largest label count. #}
{% for s in sensitive %}
SELECT {{ s.attr | lit }} AS attr, COUNT(*) AS distinct_labels, MAX(n) AS max_count
FROM (
  SELECT {{ ('r' ~ s.attr) | ident }} AS label, COUNT(*) AS n
  FROM {{ rows | qname }}
  GROUP BY {{ ('r' ~ s.attr) | ident }}
) AS {{ ('f' ~ s.attr) | ident }}
{{ "UNION ALL" if not loop.last }}
{% endfor %}
ORDER BY attr
