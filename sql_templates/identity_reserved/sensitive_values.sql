{# The distinct sensitive values in code order (the order of individual_values' ranks). #}
SELECT DISTINCT {{ sensitive | ident }} AS sa
FROM {{ relation | qname }} AS r
ORDER BY sa
