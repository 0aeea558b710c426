{# The text of each code of a sensitive column: codes are the dense rank of its values in
   ascending order, NULL last (as prepare/create_rows numbers them). #}
SELECT CAST(DENSE_RANK() OVER (ORDER BY d.value ASC NULLS LAST) - 1 AS INTEGER) AS code,
  CAST(d.value AS VARCHAR) AS text
FROM (SELECT DISTINCT src.{{ column | ident }} AS value FROM {{ source | qname }} AS src) AS d
ORDER BY code
