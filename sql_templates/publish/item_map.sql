{# Each fingerprint bucket's sensitive items (as text) -> the label of the bucket's node that
   generalizes them: what the row-level view joins on (equality joins only). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT b.safb, l.value AS item, n.label
FROM {{ items | qname }} AS i
JOIN {{ person_buckets | qname }} AS b ON b.person = i.person
JOIN {{ nodes | qname }} AS n ON n.node_id = i.node
JOIN {{ leaves | qname }} AS l ON l.leaf_rank = i.leaf
