{# CTE body: each vector's nearest reference point (ties to the lower index) and the squared
   distance to it in the unit cube. #}
{% macro nearest(vectors, centers, dims) -%}
distances AS (
  SELECT v.vid, v.n{% for d in dims %}, v.{{ ('u' ~ d.index) | ident }}{% endfor %}, c.ref,
    {% for d in dims %}(v.{{ ('u' ~ d.index) | ident }} - c.{{ ('c' ~ d.index) | ident }}) * (v.{{ ('u' ~ d.index) | ident }} - c.{{ ('c' ~ d.index) | ident }}){{ " + " if not loop.last }}{% endfor %} AS d2
  FROM {{ vectors | qname }} AS v
  CROSS JOIN {{ centers | qname }} AS c
),
nearest AS (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY vid ORDER BY d2, ref) AS rank_
  FROM distances
)
{%- endmacro %}
