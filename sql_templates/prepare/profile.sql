SELECT
  COUNT(*) AS "rows"
{% for d in dims %}
  , COUNT(*) - COUNT({{ d.column | ident }}) AS {{ ('nulls' ~ d.index) | ident }}
{% if d.is_numeric %}
  , CAST(MIN({{ d.column | ident }}) AS DOUBLE) AS {{ ('min' ~ d.index) | ident }}
  , CAST(MAX({{ d.column | ident }}) AS DOUBLE) AS {{ ('max' ~ d.index) | ident }}
{% endif %}
{% endfor %}
{% for s in sensitive %}
  , COUNT(DISTINCT {{ s.column | ident }}) + MAX(CASE WHEN {{ s.column | ident }} IS NULL THEN 1 ELSE 0 END) AS {{ ('distinct' ~ s.index) | ident }}
{% endfor %}
FROM {{ source | qname }} AS src
