{# How many rows hold each value of one column (most frequent first), for the report's
   marginals and generalization levels. #}
SELECT CAST({{ column | ident }} AS VARCHAR) AS value, COUNT(*) AS n
FROM {{ relation | qname }}
GROUP BY 1
ORDER BY n DESC, value
{% if limit %}
LIMIT {{ limit | lit }}
{% endif %}
