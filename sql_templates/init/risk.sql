{# Re-identification risk of a table over candidate quasi-identifiers (prosecutor model): the
   classes of equal QID vectors, the rows alone in theirs, in classes below 5 and below 10. #}
WITH classes AS (
  SELECT COUNT(*) AS n
  FROM {{ relation | qname }}
  GROUP BY {% for q in qids %}{{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
)
SELECT
  COUNT(*) AS classes,
  MIN(n) AS smallest,
  SUM(CASE WHEN n = 1 THEN 1 ELSE 0 END) AS unique_rows,
  SUM(CASE WHEN n < 5 THEN n ELSE 0 END) AS below_5,
  SUM(CASE WHEN n < 10 THEN n ELSE 0 END) AS below_10,
  SUM(n) AS "rows"
FROM classes
