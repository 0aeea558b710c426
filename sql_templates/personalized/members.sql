{# Each row's QID group: a running count of group starts over the blocks in order (group ids
   1, 2, ...). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
WITH block_groups AS (
  SELECT
    d.block,
    CAST(SUM(CASE WHEN s.block IS NULL THEN 0 ELSE 1 END) OVER (
      ORDER BY d.block ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS BIGINT) AS group_id
  FROM (SELECT DISTINCT block FROM {{ blocks | qname }}) AS d
  LEFT JOIN {{ starts | qname }} AS s ON s.block = d.block
)
SELECT b.rid, g.group_id
FROM {{ blocks | qname }} AS b
JOIN block_groups AS g ON g.block = b.block
