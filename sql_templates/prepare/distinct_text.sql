SELECT DISTINCT CAST({{ column | ident }} AS VARCHAR) AS value
FROM {{ source | qname }} AS src
WHERE {{ column | ident }} IS NOT NULL
ORDER BY value
