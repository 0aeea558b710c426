SELECT {{ code | ident }} AS code, COUNT(*) AS n
FROM {{ rows | qname }}
GROUP BY {{ code | ident }}
ORDER BY code
