{# Each row's quasi-identifier values as text, one row per (rid, QID number). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{% for q in qids %}
SELECT rid, CAST({{ loop.index0 | lit }} AS INTEGER) AS attr, CAST({{ ('q' ~ loop.index0) | ident }} AS VARCHAR) AS value
FROM {{ rows | qname }}
{{ "UNION ALL" if not loop.last }}
{% endfor %}
