{#
  Reading the published text form of set generalization (anonsql.identity_reserved.generalization):
  a numeric value "[lo, hi]", a categorical value "{a, b, ...}" whose values never contain a comma
  (",", "%", "{", "}" are percent-encoded inside them), a suppressed value "*".
#}
{% macro interval_low(expr) -%}
CAST(SPLIT_PART(TRIM(BOTH '[]' FROM {{ expr }}), ', ', 1) AS DOUBLE)
{%- endmacro %}
{% macro interval_high(expr) -%}
CAST(SPLIT_PART(TRIM(BOTH '[]' FROM {{ expr }}), ', ', 2) AS DOUBLE)
{%- endmacro %}
{% macro set_size(expr) -%}
(LENGTH({{ expr }}) - LENGTH(REPLACE({{ expr }}, ',', '')) + 1)
{%- endmacro %}
{% macro encoded(expr) -%}
REPLACE(REPLACE(REPLACE(REPLACE({{ expr }}, '%', '%25'), ',', '%2C'), '{', '%7B'), '}', '%7D')
{%- endmacro %}
{% macro set_contains(expr, value) -%}
(STRPOS(', ' || TRIM(BOTH '{}' FROM {{ expr }}) || ', ', ', ' || {{ encoded(value) }} || ', ') > 0)
{%- endmacro %}
