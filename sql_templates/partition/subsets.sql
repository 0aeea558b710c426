{#
  Each member of a bucket being split: the children of the expanded node that cover at least
  one of its items (the key of the sub-bucket it falls into, child node ids in ascending order)
  and its information gain, the number of its items under the node.
#}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  person,
  bucket,
  STRING_AGG(CAST(child AS VARCHAR), ',' ORDER BY child) AS subset,
  CAST(SUM(n) AS BIGINT) AS ig
FROM (
  SELECT m.person, m.bucket, a.node_id AS child, COUNT(*) AS n
  FROM {{ items | qname }} AS i
  JOIN {{ members | qname }} AS m ON m.person = i.person
  JOIN {{ pick | qname }} AS p ON p.bucket = m.bucket AND p.node = i.node
  JOIN {{ ancestors | qname }} AS a ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
  GROUP BY m.person, m.bucket, a.node_id
) AS children
GROUP BY person, bucket
