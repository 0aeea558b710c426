{# Per distinct value set: the individuals having exactly that set. #}
SELECT set_id, COUNT(*) AS persons
FROM {{ rows | qname }}
GROUP BY set_id
ORDER BY set_id
