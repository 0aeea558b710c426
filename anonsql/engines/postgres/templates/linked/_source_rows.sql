{# The rows the recovery query groups (linked/recovery.sql) on PostgreSQL: the source's distinct
   combinations of the published columns and the quasi-identifiers (``columns`` are never
   quasi-identifiers), counted first by one grouping that runs in parallel. PostgreSQL hashes
   grouping sets in one process: at 1e7 rows it spent 10.6 s there on every source row, and
   the combinations are ~9 % of the rows. On DuckDB the extra grouping cost more than it saved
   (0.55 s -> 1.15 s at 1e7). ``distinct``: the source has distinct combinations only (the
   counted rows grouped by exactly these columns), read as it is: grouping them again took
   3.2 s of the query's 6.5 s at 1e7. #}
{% macro source_rows(source, columns, qids, distinct) -%}
{% if distinct %}
{{ source | qname }}
{%- else %}
(
    SELECT {% for c in columns %}r.{{ c | ident }}, {% endfor %}{% for q in qids %}r.{{ q.column | ident }}{{ ", " if not loop.last }}{% endfor %}

    FROM {{ source | qname }} AS r
    GROUP BY {% for c in columns %}r.{{ c | ident }}, {% endfor %}{% for q in qids %}r.{{ q.column | ident }}{{ ", " if not loop.last }}{% endfor %}

  )
{%- endif %}
{%- endmacro %}
