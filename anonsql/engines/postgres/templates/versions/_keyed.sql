{# The row key of a source row (PostgreSQL's own row hash): see sql_templates/versions/_keyed.sql.
   The window numbers every row here: the shared macro's numbering of repeated hashes only
   (two scans of a materialized CTE) was no faster on PostgreSQL at 1e6 rows (3.3-3.5 s against
   2.7-3.2 s, alternating, BENCHMARKS.md "Plans, not settings"). #}
{% macro row_hash(prefix, columns) -%}
HASHTEXTEXTENDED(CAST(ROW({% for c in columns %}{{ prefix }}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}) AS TEXT), 0)
{%- endmacro %}
{% macro keyed(source, columns, key_hash, key_ord) -%}
SELECT s.*, k.h AS {{ key_hash | ident }}, ROW_NUMBER() OVER (PARTITION BY k.h) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
CROSS JOIN LATERAL (SELECT {{ row_hash('s.', columns) }} AS h) AS k
{%- endmacro %}
