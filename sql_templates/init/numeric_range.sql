{# Smallest and largest value of numeric columns, for interval widths. #}
SELECT
{% for c in columns %}
  CAST(MIN({{ c | ident }}) AS DOUBLE) AS {{ ('min' ~ loop.index0) | ident }},
  CAST(MAX({{ c | ident }}) AS DOUBLE) AS {{ ('max' ~ loop.index0) | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ relation | qname }}
