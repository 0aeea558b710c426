{#
  One row per individual, in person order: the record count, each numeric quasi-identifier's
  range over the individual's records (lo<i>, hi<i>), and each categorical one's value as text
  with the number of distinct values (cat<i>, distinct<i>; more than one is refused).
#}
SELECT
  {{ person | ident }} AS person,
  COUNT(*) AS records
{% for q in numeric %}
  , CAST(MIN({{ q | ident }}) AS DOUBLE) AS {{ ('lo' ~ loop.index0) | ident }}
  , CAST(MAX({{ q | ident }}) AS DOUBLE) AS {{ ('hi' ~ loop.index0) | ident }}
{% endfor %}
{% for c in categorical %}
  , MIN(CAST({{ c | ident }} AS VARCHAR)) AS {{ ('cat' ~ loop.index0) | ident }}
  , COUNT(DISTINCT CAST({{ c | ident }} AS VARCHAR)) AS {{ ('distinct' ~ loop.index0) | ident }}
{% endfor %}
FROM {{ relation | qname }} AS r
GROUP BY {{ person | ident }}
ORDER BY {{ person | ident }}
