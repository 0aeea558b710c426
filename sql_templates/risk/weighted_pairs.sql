WITH weighted AS (
  SELECT CAST(COUNT(*) AS BIGINT) AS class_size, CAST(SUM({{ weight | ident }}) AS DOUBLE) AS population_size
  FROM {{ relation | qname }} AS r
  GROUP BY {% for q in qids %}{{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
)
SELECT class_size, population_size, CAST(COUNT(*) AS BIGINT) AS classes
FROM weighted
GROUP BY class_size, population_size
ORDER BY class_size, population_size
