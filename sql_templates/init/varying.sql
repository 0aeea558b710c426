{# For a candidate person column: its persons, and per column how many persons hold more than
   one value of it over their rows (NULL counts as a value), for `anonsql init`. #}
WITH per_person AS (
  SELECT
    {{ person | ident }} AS p
{% for c in columns %}
    , COUNT(DISTINCT {{ c | ident }}) + MAX(CASE WHEN {{ c | ident }} IS NULL THEN 1 ELSE 0 END)
      AS {{ ('v' ~ loop.index0) | ident }}
{% endfor %}
  FROM {{ relation | qname }}
  WHERE {{ person | ident }} IS NOT NULL
  GROUP BY {{ person | ident }}
)
SELECT
  COUNT(*) AS persons
{% for c in columns %}
  , SUM(CASE WHEN {{ ('v' ~ loop.index0) | ident }} > 1 THEN 1 ELSE 0 END) AS {{ ('varying' ~ loop.index0) | ident }}
{% endfor %}
FROM per_person
