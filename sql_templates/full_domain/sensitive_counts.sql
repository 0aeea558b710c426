{# Rows per code of one sensitive column over the whole table. #}
SELECT {{ code | ident }} AS code, CAST(SUM(n) AS BIGINT) AS n
FROM {{ freq | qname }}
GROUP BY {{ code | ident }}
ORDER BY code
