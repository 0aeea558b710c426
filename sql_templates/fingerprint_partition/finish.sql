{#
  The SA-fingerprint buckets: buckets with the same generalized fingerprint (the same set of
  nodes) form one bucket, numbered from 0 in the order of their first person. ``fingerprints``
  lists each bucket's nodes; ``person_buckets`` gives each person's bucket.
#}
CREATE {{ working_table }}TABLE {{ bucket_map | qname }} AS
WITH cuts AS (
  SELECT bucket, STRING_AGG(CAST(node AS VARCHAR), ',' ORDER BY node) AS cut
  FROM (
    SELECT DISTINCT m.bucket, i.node
    FROM {{ done_items | qname }} AS i
    JOIN {{ done_members | qname }} AS m ON m.person = i.person
  ) AS bucket_nodes
  GROUP BY bucket
),
firsts AS (
  SELECT c.cut, MIN(m.person) AS first_person
  FROM cuts AS c
  JOIN {{ done_members | qname }} AS m ON m.bucket = c.bucket
  GROUP BY c.cut
)
SELECT c.bucket, CAST(DENSE_RANK() OVER (ORDER BY f.first_person) - 1 AS INTEGER) AS safb
FROM cuts AS c
JOIN firsts AS f ON f.cut = c.cut;

CREATE {{ working_table }}TABLE {{ person_buckets | qname }} AS
SELECT m.person, b.safb
FROM {{ done_members | qname }} AS m
JOIN {{ bucket_map | qname }} AS b ON b.bucket = m.bucket;

CREATE {{ working_table }}TABLE {{ fingerprints | qname }} AS
SELECT DISTINCT b.safb, i.node
FROM {{ done_items | qname }} AS i
JOIN {{ done_members | qname }} AS m ON m.person = i.person
JOIN {{ bucket_map | qname }} AS b ON b.bucket = m.bucket;

DROP TABLE {{ items | qname }};
ALTER TABLE {{ done_items | qname }} RENAME TO {{ items.name | ident }}
