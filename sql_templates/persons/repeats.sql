{# Per column that may identify persons: its non-NULL rows and distinct values in the source
   (a column repeats when it has fewer distinct values than rows). #}
SELECT
{% for c in columns %}
  COUNT({{ c | ident }}) AS {{ ('rows' ~ loop.index0) | ident }},
  COUNT(DISTINCT {{ c | ident }}) AS {{ ('distinct' ~ loop.index0) | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ source | qname }} AS src
