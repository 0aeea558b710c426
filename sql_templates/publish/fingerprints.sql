{# Each fingerprint bucket's generalized items: the cut nodes with their leaf ranges and NCP,
   the bucket's persons, and how many of the persons' distinct original items each stands for. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
WITH covered AS (
  SELECT b.safb, i.node, COUNT(*) AS items
  FROM {{ items | qname }} AS i
  JOIN {{ person_buckets | qname }} AS b ON b.person = i.person
  GROUP BY b.safb, i.node
),
sizes AS (
  SELECT safb, COUNT(*) AS persons FROM {{ person_buckets | qname }} GROUP BY safb
)
SELECT
  f.safb,
  n.label,
  n.depth,
  n.first_leaf,
  n.last_leaf,
  n.ncp,
  CAST(s.persons AS BIGINT) AS persons,
  CAST(c.items AS BIGINT) AS items
FROM {{ fingerprints | qname }} AS f
JOIN {{ nodes | qname }} AS n ON n.node_id = f.node
JOIN sizes AS s ON s.safb = f.safb
JOIN covered AS c ON c.safb = f.safb AND c.node = f.node
