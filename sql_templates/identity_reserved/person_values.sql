{# Each person's distinct sensitive values: the person's number, the value's code (its rank
   among the distinct values of the column, NULL last and one value of its own) and the
   person's records with that value. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT p.person, v.code, v.records
FROM (
  SELECT person_id, code, COUNT(*) AS records
  FROM (
    SELECT
      src.{{ person | ident }} AS person_id,
      DENSE_RANK() OVER (ORDER BY src.{{ column | ident }}) - 1 AS code
    FROM {{ source | qname }} AS src
  ) AS coded
  GROUP BY person_id, code
) AS v
JOIN {{ persons | qname }} AS p ON p.person_id = v.person_id
