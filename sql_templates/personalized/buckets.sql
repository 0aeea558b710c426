{# The published buckets of every sensitive attribute: attribute, bucket, slot, the published
   label (categorical: the value or a taxonomy ancestor of it; numeric: a fuzzy term) and the
   term's weight (NULL for categorical attributes), in bucket and slot order. #}
{% from "personalized/_macros.sql" import attribute_name %}
CREATE TABLE {{ target | qname }} AS
SELECT {{ attribute_name('s.attr', names) }} AS attribute, s.bucket, s.slot, lab.label,
  s.pweight AS weight
FROM {{ slots | qname }} AS s
JOIN {{ labels | qname }} AS lab ON lab.attr = s.attr AND lab.node = s.node
ORDER BY s.attr, s.bucket, s.slot
