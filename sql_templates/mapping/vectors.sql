{# Distinct quasi-identifier vectors of the working table with their row counts and their
   coordinates: u<i> in [0, 1] (numeric values scaled linearly over the attribute's range,
   categorical leaf ranks (depth-first order) over the hierarchy's leaves) and, when ``bits``
   is given, g<i> on a 2^bits grid (the same scaling, floored). #}
{% macro unit(d) -%}
{% if d.is_numeric and d.span > 0 -%}
(CAST({{ d.code | ident }} AS DOUBLE) - {{ d.global_min | lit }}) / {{ d.span | lit }}
{%- elif not d.is_numeric and d.hierarchy.leaf_count > 1 -%}
CAST({{ d.code | ident }} AS DOUBLE) / {{ (d.hierarchy.leaf_count - 1) | lit }}
{%- else -%}
CAST(0 AS DOUBLE)
{%- endif %}
{%- endmacro %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  ROW_NUMBER() OVER (ORDER BY {% for d in dims %}{{ d.code | ident }}{{ ", " if not loop.last }}{% endfor %}) AS vid,
  COUNT(*) AS n
{% for d in dims %}
  , {{ d.code | ident }}
  , {{ unit(d) }} AS {{ ('u' ~ d.index) | ident }}
{% if bits %}
  , CAST(FLOOR({{ unit(d) }} * {{ (2 ** bits - 1) | lit }}) AS BIGINT) AS {{ ('g' ~ d.index) | ident }}
{% endif %}
{% endfor %}
FROM {{ rows | qname }}
GROUP BY {% for d in dims %}{{ d.code | ident }}{{ ", " if not loop.last }}{% endfor %}
