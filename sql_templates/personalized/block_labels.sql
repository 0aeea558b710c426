{# Per block, sensitive attribute and label (leaf rank or term): rows. #}
{% for s in sensitive %}
SELECT b.block, {{ s.attr | lit }} AS attr, r.{{ ('r' ~ s.attr) | ident }} AS label, COUNT(*) AS n
FROM {{ blocks | qname }} AS b
JOIN {{ rows | qname }} AS r ON r.rid = b.rid
GROUP BY b.block, r.{{ ('r' ~ s.attr) | ident }}
{{ "UNION ALL" if not loop.last }}
{% endfor %}
