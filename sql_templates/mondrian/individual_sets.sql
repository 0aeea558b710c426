{# The members (value codes) of every distinct value set of individuals. #}
SELECT set_id, code
FROM {{ sets | qname }}
ORDER BY set_id, code
