{# The values of a text column held by at least `least` rows (the rare ones never leave the
   engine), most frequent first, and the column's entropy over the table: for `anonsql init`'s
   groupings and l. #}
WITH counts AS (
  SELECT CAST({{ column | ident }} AS VARCHAR) AS v, COUNT(*) AS n
  FROM {{ relation | qname }}
  GROUP BY CAST({{ column | ident }} AS VARCHAR)
), total AS (
  SELECT SUM(n) AS rows_ FROM counts
)
SELECT
  CASE WHEN n >= {{ least | int }} THEN v END AS v,
  n,
  -SUM(CAST(n AS DOUBLE PRECISION) / rows_ * LN(CAST(n AS DOUBLE PRECISION) / rows_)) OVER () AS entropy,
  COUNT(*) OVER () AS distinct_values
FROM counts, total
ORDER BY n DESC, v
LIMIT {{ limit | int }}
