{# The row key of a source row: a hash of every source column (``row_hash``), and an ordinal
   among identical rows, so duplicates count (docs/releases.md). #}
{% macro row_hash(prefix, columns) -%}
HASH({% for c in columns %}{{ prefix }}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %})
{%- endmacro %}
{% macro keyed(source, columns, key_hash, key_ord) -%}
SELECT s.*, k.h AS {{ key_hash | ident }}, ROW_NUMBER() OVER (PARTITION BY k.h) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
CROSS JOIN LATERAL (SELECT {{ row_hash('s.', columns) }} AS h) AS k
{%- endmacro %}
