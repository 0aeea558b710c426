{# Per sensitive value code: the individuals having it and their records with it. #}
SELECT code, COUNT(*) AS persons, CAST(SUM(records) AS BIGINT) AS records
FROM {{ values | qname }}
GROUP BY code
ORDER BY code
