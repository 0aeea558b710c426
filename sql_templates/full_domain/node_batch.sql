{# Several lattice nodes at once, k-anonymity only, over a small source: ``batch`` holds one row
   per node (id, and per quasi-identifier the shift s<i> from the source's codes to the node's
   level); per node, the rows of classes below k and the classes. The text depends only on the
   source, so it is rendered once per source and the nodes travel as data. #}
SELECT
  c.id,
  SUM(CASE WHEN c.n < {{ k | lit }} THEN c.n ELSE 0 END) AS small_rows,
  COUNT(*) AS classes
FROM (
  SELECT b.id, CAST(SUM(r.n) AS BIGINT) AS n
  FROM {{ source | qname }} AS r
  CROSS JOIN {{ batch | qname }} AS b
  GROUP BY b.id{% for c in columns %}, (r.{{ c | ident }} >> b.{{ ('s' ~ loop.index0) | ident }}){% endfor %}

) AS c
GROUP BY c.id
