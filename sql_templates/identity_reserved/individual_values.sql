{#
  One row per (individual, sensitive value): the individual's position in person order (idx),
  the value's code (its rank among the distinct values, NULL being a value of its own) and the
  individual's records with that value.
#}
SELECT
  DENSE_RANK() OVER (ORDER BY person) - 1 AS idx,
  code,
  records
FROM (
  SELECT person, code, COUNT(*) AS records
  FROM (
    SELECT {{ person | ident }} AS person, DENSE_RANK() OVER (ORDER BY {{ sensitive | ident }}) - 1 AS code
    FROM {{ relation | qname }} AS r
  ) AS coded
  GROUP BY person, code
) AS pairs
ORDER BY idx, code
