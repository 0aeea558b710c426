{# A numeric quasi-identifier's distinct values by rank. #}
SELECT v.value, v.leaf
FROM {{ values | qname }} AS v
ORDER BY v.leaf
