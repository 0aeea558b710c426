{# (person, value code, records), in person then code order. #}
SELECT person, code, records
FROM {{ values | qname }}
ORDER BY person, code
