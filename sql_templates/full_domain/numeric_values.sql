{# A numeric quasi-identifier's distinct values in the working rows, each with its rank (the
   leaf of its ladder). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT d.value, CAST(DENSE_RANK() OVER (ORDER BY d.value) - 1 AS INTEGER) AS leaf
FROM (SELECT DISTINCT r.{{ code | ident }} AS value FROM {{ rows | qname }} AS r) AS d
