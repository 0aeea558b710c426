SELECT COUNT(*) AS classes, SUM(n) AS published, SUM(n * n) AS squares
FROM (
  SELECT COUNT(*) AS n
  FROM {{ relation | qname }} AS r
  GROUP BY {% for q in qids %}{{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
) AS c
