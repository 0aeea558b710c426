{# Rows per block, in block order. #}
SELECT block, COUNT(*) AS n
FROM {{ blocks | qname }}
GROUP BY block
ORDER BY block
