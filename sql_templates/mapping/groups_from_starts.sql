{# Group of each vector from the groups' first positions: a running count of starts in key
   order (group ids 1, 2, ...). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  o.vid,
  SUM(CASE WHEN s.pos IS NULL THEN 0 ELSE 1 END) OVER (
    ORDER BY o.pos ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
  ) AS pid
FROM {{ ordered | qname }} AS o
LEFT JOIN {{ starts | qname }} AS s ON s.pos = o.pos
