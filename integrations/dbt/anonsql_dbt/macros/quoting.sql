{#
  What anonsql's SQL renderer does with its ident, qname and lit filters, as dispatched macros
  (an adapter with other quoting rules overrides <adapter>__ident ...), and the one type name
  of the privacy queries that differs between engines.
#}
{% macro ident(name) -%}
  {{ return(adapter.dispatch('ident', 'anonsql_dbt')(name)) }}
{%- endmacro %}

{% macro default__ident(name) -%}
  {%- if name is not string or name | length == 0 -%}
    {{ exceptions.raise_compiler_error("anonsql_dbt: a column name must be a non-empty string") }}
  {%- endif -%}
  {{ return('"' ~ (name | replace('"', '""')) ~ '"') }}
{%- endmacro %}

{% macro qname(relation) -%}
  {{ return(adapter.dispatch('qname', 'anonsql_dbt')(relation)) }}
{%- endmacro %}

{% macro default__qname(relation) -%}
  {{ return(relation | string) }}
{%- endmacro %}

{% macro lit(value) -%}
  {{ return(adapter.dispatch('lit', 'anonsql_dbt')(value)) }}
{%- endmacro %}

{% macro default__lit(value) -%}
  {%- if value is none -%}
    {{ return('NULL') }}
  {%- elif value is sameas true -%}
    {{ return('TRUE') }}
  {%- elif value is sameas false -%}
    {{ return('FALSE') }}
  {%- elif value is number -%}
    {{ return(value | string) }}
  {%- elif value is string -%}
    {{ return("'" ~ (value | replace("'", "''")) ~ "'") }}
  {%- else -%}
    {{ exceptions.raise_compiler_error("anonsql_dbt: cannot write a " ~ value.__class__.__name__ ~ " as a SQL literal") }}
  {%- endif -%}
{%- endmacro %}

{% macro type_double() -%}
  {{ return(adapter.dispatch('type_double', 'anonsql_dbt')()) }}
{%- endmacro %}

{% macro default__type_double() -%}
  {{ return('DOUBLE PRECISION') }}
{%- endmacro %}

{% macro duckdb__type_double() -%}
  {{ return('DOUBLE') }}
{%- endmacro %}
