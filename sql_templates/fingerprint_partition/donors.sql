{# The members a sub-bucket could give to its bucket's leftover, least information gain first,
   at most ``limit`` of them per sub-bucket. #}
SELECT bucket, subset, ig, seq
FROM (
  SELECT
    s.bucket,
    s.subset,
    s.ig,
    ROW_NUMBER() OVER (PARTITION BY s.bucket, s.subset ORDER BY s.ig, s.person) AS seq,
    d.limit_rows
  FROM {{ subsets | qname }} AS s
  JOIN {{ donors | qname }} AS d ON d.bucket = s.bucket AND d.subset = s.subset
) AS ranked
WHERE seq <= limit_rows
ORDER BY bucket, subset, seq
