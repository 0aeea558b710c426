{#
  Apply a round's decisions. Each member of a split bucket goes to its sub-bucket's target, or
  (the first ``moved`` of a donor, least gain first) to the leftover, which keeps the bucket's
  id and its generalization; members of kept sub-buckets have the expanded node's items
  re-generalized to the covering child. Buckets without a pick are done.
#}
CREATE {{ working_table }}TABLE {{ assign | qname }} AS
SELECT
  s.person,
  s.bucket,
  CASE WHEN s.seq <= d.moved THEN s.bucket ELSE d.target END AS new_bucket,
  CASE WHEN s.seq <= d.moved THEN FALSE ELSE d.expand END AS expand,
  FALSE AS done
FROM (
  SELECT person, bucket, subset,
    ROW_NUMBER() OVER (PARTITION BY bucket, subset ORDER BY ig, person) AS seq
  FROM {{ subsets | qname }}
) AS s
JOIN {{ decisions | qname }} AS d ON d.bucket = s.bucket AND d.subset = s.subset
UNION ALL
SELECT m.person, m.bucket, m.bucket AS new_bucket, FALSE AS expand, TRUE AS done
FROM {{ members | qname }} AS m
WHERE NOT EXISTS (SELECT 1 FROM {{ pick | qname }} AS p WHERE p.bucket = m.bucket);

{% macro regeneralized(finished) %}
SELECT i.person, i.leaf, COALESCE(a.node_id, i.node) AS node
FROM {{ items | qname }} AS i
JOIN {{ assign | qname }} AS g ON g.person = i.person
LEFT JOIN {{ pick | qname }} AS p ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN {{ ancestors | qname }} AS a ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE {{ "" if finished else "NOT " }}g.done
{% endmacro %}
INSERT INTO {{ done_items | qname }}
{{ regeneralized(True) }};

CREATE {{ working_table }}TABLE {{ items_next | qname }} AS
{{ regeneralized(False) }};

INSERT INTO {{ done_members | qname }}
SELECT person, new_bucket FROM {{ assign | qname }} WHERE done;

CREATE {{ working_table }}TABLE {{ members_next | qname }} AS
SELECT person, new_bucket AS bucket FROM {{ assign | qname }} WHERE NOT done;

DROP TABLE {{ items | qname }};
ALTER TABLE {{ items_next | qname }} RENAME TO {{ items.name | ident }};
DROP TABLE {{ members | qname }};
ALTER TABLE {{ members_next | qname }} RENAME TO {{ members.name | ident }};
DROP TABLE {{ assign | qname }}
