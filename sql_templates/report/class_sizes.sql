{# The class-size distribution: how many classes have each size. #}
SELECT class_size, COUNT(*) AS classes
FROM {{ classes | qname }}
GROUP BY class_size
ORDER BY class_size
