{#
  Per active bucket, the node of its generalized fingerprint to expand next: among nodes with
  children not yet tried in this bucket, the largest information gain, i.e. items under the
  node times the node's leaves (He & Naughton's Partition); ties to the first node in
  depth-first order. Buckets without a candidate are finished.
#}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT bucket, node, depth
FROM (
  SELECT
    m.bucket,
    i.node,
    h.depth,
    ROW_NUMBER() OVER (
      PARTITION BY m.bucket ORDER BY COUNT(*) * MAX(h.leaf_count) DESC, i.node
    ) AS choice
  FROM {{ items | qname }} AS i
  JOIN {{ members | qname }} AS m ON m.person = i.person
  JOIN {{ nodes | qname }} AS h ON h.node_id = i.node
  WHERE h.leaf_count > 1
    AND NOT EXISTS (
      SELECT 1 FROM {{ tried | qname }} AS t WHERE t.bucket = m.bucket AND t.node = i.node
    )
  GROUP BY m.bucket, i.node, h.depth
) AS ranked
WHERE choice = 1;

INSERT INTO {{ tried | qname }} SELECT bucket, node FROM {{ target | qname }}
