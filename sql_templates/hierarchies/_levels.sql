{# Shared macros of the hierarchy queries: labels are compared as text, as the leaves are. #}
{% macro text(column) -%}
CAST({{ column | ident }} AS VARCHAR)
{%- endmacro %}
