{# Rows of the relation a class table was grouped from. #}
SELECT COALESCE(SUM(class_size), 0) AS n FROM {{ classes | qname }} AS c
