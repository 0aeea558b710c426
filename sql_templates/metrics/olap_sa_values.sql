{# Sensitive values of the source (as text) with their row counts, for the OLAP workload. #}
SELECT CAST({{ sa | ident }} AS VARCHAR) AS sa_value, COUNT(*) AS n
FROM {{ source | qname }}
WHERE {{ sa | ident }} IS NOT NULL
GROUP BY CAST({{ sa | ident }} AS VARCHAR)
