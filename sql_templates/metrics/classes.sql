{# Classes, published rows and the sum of squared class sizes of a relation; from its class
   table (QID columns + class_size, built from the same relation) when `classes` is given. #}
{% if classes %}
SELECT COUNT(*) AS classes, SUM(class_size) AS published, SUM(class_size * class_size) AS squares
FROM {{ classes | qname }} AS c
{% else %}
SELECT COUNT(*) AS classes, SUM(n) AS published, SUM(n * n) AS squares
FROM (
  SELECT COUNT(*) AS n
  FROM {{ relation | qname }} AS r
  GROUP BY {% for q in qids %}{{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
) AS c
{% endif %}
