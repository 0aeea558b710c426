{# The rows of ``source`` with their row key: a hash of every source column and an ordinal
   among identical rows, so duplicates count (docs/releases.md). #}
{% macro keyed(source, columns, key_hash, key_ord) -%}
SELECT s.*, k.h AS {{ key_hash | ident }}, ROW_NUMBER() OVER (PARTITION BY k.h) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
CROSS JOIN LATERAL (SELECT HASH({% for c in columns %}s.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}) AS h) AS k
{%- endmacro %}
