{# Shared macros of the dependency templates. Columns get internal aliases (x0.., y0..) so that no
   user column name can collide with a name of the query. #}
{% macro aliased(columns, prefix, source='') -%}
{% for c in columns %}{{ source }}{{ c | ident }} AS {{ (prefix ~ loop.index0) | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
{% macro aliases(columns, prefix, source='') -%}
{% for c in columns %}{{ source }}{{ (prefix ~ loop.index0) | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
{% macro dbl(expression) -%}
CAST({{ expression }} AS DOUBLE)
{%- endmacro %}
{# n * ln(n) of a count, 0 for 0 #}
{% macro nlogn(expression) -%}
CASE WHEN {{ expression }} > 0 THEN CAST({{ expression }} AS DOUBLE) * LN(CAST({{ expression }} AS DOUBLE)) ELSE CAST(0 AS DOUBLE) END
{%- endmacro %}
