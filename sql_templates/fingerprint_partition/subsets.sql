{#
  Each member of a bucket being split: the children of the expanded node that cover at least
  one of its items, as the key of the sub-bucket it falls into, and its information gain (the
  number of its items under the node). The key is a bit mask of the children's positions when
  every node has at most 62 children (``bitmask``), else their ids in ascending order as text.
#}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  person,
  bucket,
{% if bitmask %}
  CAST(SUM(CAST(1 AS BIGINT) << child) AS BIGINT) AS subset,
{% else %}
  STRING_AGG(CAST(child AS VARCHAR), ',' ORDER BY child) AS subset,
{% endif %}
  CAST(SUM(n) AS BIGINT) AS ig
FROM (
  SELECT m.person, m.bucket, a.{{ ('ordinal' if bitmask else 'node_id') | ident }} AS child, COUNT(*) AS n
  FROM {{ items | qname }} AS i
  JOIN {{ members | qname }} AS m ON m.person = i.person
  JOIN {{ pick | qname }} AS p ON p.bucket = m.bucket AND p.node = i.node
  JOIN {{ ancestors | qname }} AS a ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
  GROUP BY m.person, m.bucket, a.{{ ('ordinal' if bitmask else 'node_id') | ident }}
) AS children
GROUP BY person, bucket
