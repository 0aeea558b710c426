{# How many persons have more than one quasi-identifier vector. #}
SELECT COUNT(*) FROM (
  SELECT person_id FROM {{ vectors | qname }} AS v GROUP BY person_id HAVING COUNT(*) > 1
) AS varying
