{# Each person's distinct set of sensitive value codes, numbered: (person, set_id). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT person, DENSE_RANK() OVER (ORDER BY items) - 1 AS set_id
FROM (
  SELECT person, ARRAY_AGG(code ORDER BY code) AS items
  FROM {{ values | qname }}
  GROUP BY person
) AS sets
