{#
  What anonsql's SQL renderer does with its ident, qname and lit filters, as dispatched macros,
  and the words of the privacy queries that differ between engines: one implementation per
  adapter the package is tested on (duckdb, postgres, spark). The SQL of another adapter may
  mean something else (on Spark or BigQuery a double-quoted "x" is a string, not a column: a
  k-anonymity test would count one class and pass), so every test first calls
  require_tested_adapter, which stops compilation on any other adapter.
#}
{% macro tested_adapters() -%}
  {{ return(['duckdb', 'postgres', 'spark']) }}
{%- endmacro %}

{% macro require_tested_adapter(adapter_type=none, tested=none, what='privacy tests') -%}
  {%- set found = adapter_type if adapter_type is not none else adapter.type() -%}
  {%- set tested = tested if tested is not none else anonsql_dbt.tested_adapters() -%}
  {%- if found not in tested -%}
    {{ exceptions.raise_compiler_error(
         "anonsql_dbt: the " ~ found ~ " adapter has no tested implementation of the " ~ what
         ~ " (tested: " ~ tested | join(', ') ~ "); its SQL could count something else than "
         ~ "`anonsql check`. Fix: run `anonsql check` on this relation, or add and test "
         ~ found ~ "__ident, " ~ found ~ "__lit and " ~ found ~ "__type_double overrides "
         ~ "in your project") }}
  {%- endif -%}
  {{ return('') }}
{%- endmacro %}

{% macro ident(name) -%}
  {%- if name is not string or name | length == 0 -%}
    {{ exceptions.raise_compiler_error("anonsql_dbt: a column name must be a non-empty string") }}
  {%- endif -%}
  {{ return(adapter.dispatch('ident', 'anonsql_dbt')(name)) }}
{%- endmacro %}

{% macro quoted(name, quote) -%}
  {{ return(quote ~ (name | replace(quote, quote ~ quote)) ~ quote) }}
{%- endmacro %}

{% macro default__ident(name) -%}
  {{ anonsql_dbt.require_tested_adapter() }}
{%- endmacro %}

{% macro duckdb__ident(name) -%}
  {{ return(anonsql_dbt.quoted(name, '"')) }}
{%- endmacro %}

{% macro postgres__ident(name) -%}
  {{ return(anonsql_dbt.quoted(name, '"')) }}
{%- endmacro %}

{% macro spark__ident(name) -%}
  {{ return(anonsql_dbt.quoted(name, '`')) }}
{%- endmacro %}

{% macro qname(relation) -%}
  {{ return(adapter.dispatch('qname', 'anonsql_dbt')(relation)) }}
{%- endmacro %}

{% macro default__qname(relation) -%}
  {#- a dbt relation renders itself with its adapter's quoting -#}
  {{ return(relation | string) }}
{%- endmacro %}

{% macro lit(value) -%}
  {{ return(adapter.dispatch('lit', 'anonsql_dbt')(value)) }}
{%- endmacro %}

{% macro default__lit(value) -%}
  {{ return(anonsql_dbt.sql_literal(value, "'", "''")) }}
{%- endmacro %}

{% macro spark__lit(value) -%}
  {#- Spark reads a backslash in a string literal as an escape, and '' as two literals -#}
  {{ return(anonsql_dbt.sql_literal(value | replace('\\', '\\\\') if value is string else value, "'", "\\'")) }}
{%- endmacro %}

{% macro sql_literal(value, quote, escaped_quote) -%}
  {%- if value is none -%}
    {{ return('NULL') }}
  {%- elif value is sameas true -%}
    {{ return('TRUE') }}
  {%- elif value is sameas false -%}
    {{ return('FALSE') }}
  {%- elif value is number -%}
    {{ return(value | string) }}
  {%- elif value is string -%}
    {{ return(quote ~ (value | replace(quote, escaped_quote)) ~ quote) }}
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

{% macro spark__type_double() -%}
  {{ return('DOUBLE') }}
{%- endmacro %}

{#- an array of a group's values in ascending order (equal sets compare equal) -#}
{% macro sorted_array_agg(column) -%}
  {{ return(adapter.dispatch('sorted_array_agg', 'anonsql_dbt')(column)) }}
{%- endmacro %}

{% macro default__sorted_array_agg(column) -%}
  {{ return('ARRAY_AGG(' ~ column ~ ' ORDER BY ' ~ column ~ ')') }}
{%- endmacro %}

{% macro spark__sorted_array_agg(column) -%}
  {{ return('ARRAY_SORT(COLLECT_LIST(' ~ column ~ '))') }}
{%- endmacro %}

{#- a number telling the rows of a relation apart (no order) -#}
{% macro row_id() -%}
  {{ return(adapter.dispatch('row_id', 'anonsql_dbt')()) }}
{%- endmacro %}

{% macro default__row_id() -%}
  {{ return('ROW_NUMBER() OVER ()') }}
{%- endmacro %}

{% macro spark__row_id() -%}
  {{ return('MONOTONICALLY_INCREASING_ID()') }}
{%- endmacro %}
