{# Distinct quasi-identifier vectors of the working table with their row counts and their
   coordinates on a 2^bits grid: numeric values scaled linearly over the attribute's range,
   categorical leaf ranks (depth-first order) scaled over the hierarchy's leaves. #}
{% set top = 2 ** bits - 1 %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  ROW_NUMBER() OVER (ORDER BY {% for d in dims %}{{ d.code | ident }}{{ ", " if not loop.last }}{% endfor %}) AS vid,
  COUNT(*) AS n
{% for d in dims %}
  , {{ d.code | ident }}
{% if d.is_numeric and d.span > 0 %}
  , CAST(FLOOR((CAST({{ d.code | ident }} AS DOUBLE) - {{ d.global_min | lit }}) * {{ top | lit }} / {{ d.span | lit }}) AS BIGINT) AS {{ ('g' ~ d.index) | ident }}
{% elif not d.is_numeric and d.hierarchy.leaf_count > 1 %}
  , CAST(FLOOR(CAST({{ d.code | ident }} AS DOUBLE) * {{ top | lit }} / {{ (d.hierarchy.leaf_count - 1) | lit }}) AS BIGINT) AS {{ ('g' ~ d.index) | ident }}
{% else %}
  , CAST(0 AS BIGINT) AS {{ ('g' ~ d.index) | ident }}
{% endif %}
{% endfor %}
FROM {{ rows | qname }}
GROUP BY {% for d in dims %}{{ d.code | ident }}{{ ", " if not loop.last }}{% endfor %}
