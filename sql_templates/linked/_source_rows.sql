{# The rows the recovery query groups by its grouping sets (linked/recovery.sql): the source
   itself. PostgreSQL has its own (engines/postgres/templates/linked/_source_rows.sql). #}
{% macro source_rows(source, columns, qids, distinct) -%}
{{ source | qname }}
{%- endmacro %}
