SELECT bucket, subset, COUNT(*) AS n, CAST(SUM(ig) AS BIGINT) AS ig
FROM {{ subsets | qname }}
GROUP BY bucket, subset
ORDER BY bucket, subset
