{# The rows of ``source`` with their row key (PostgreSQL's own row hash). #}
{% macro keyed(source, columns, key_hash, key_ord) -%}
SELECT s.*, k.h AS {{ key_hash | ident }}, ROW_NUMBER() OVER (PARTITION BY k.h) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
CROSS JOIN LATERAL (SELECT HASHTEXTEXTENDED(CAST(ROW({% for c in columns %}s.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}) AS TEXT), 0) AS h) AS k
{%- endmacro %}
