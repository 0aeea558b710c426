{# Rows per leaf of every quasi-identifier: the marginals the objectives' per-level terms need. #}
{% for d in dims %}
SELECT {{ d.index | lit }} AS dim, {{ ('r' ~ d.index) | ident }} AS leaf, CAST(SUM(n) AS BIGINT) AS n
FROM {{ freq | qname }}
GROUP BY {{ ('r' ~ d.index) | ident }}
{{ 'UNION ALL' if not loop.last }}
{% endfor %}
