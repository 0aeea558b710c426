{# Distinct sensitive values per class: how many classes (and rows) have each count. #}
SELECT {{ column | ident }} AS distinct_values, COUNT(*) AS classes, SUM(class_size) AS n
FROM {{ classes | qname }}
GROUP BY 1
ORDER BY 1
