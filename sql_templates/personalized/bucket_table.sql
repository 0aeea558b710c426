{# The published buckets of one sensitive attribute: bucket, slot and the published label
   (categorical: value, a taxonomy node) or term and weight (numeric). #}
CREATE TABLE {{ target | qname }} AS
SELECT s.bucket, s.slot,
{% if kind == 'numeric' %}
  lab.label AS term, s.pweight AS weight
{% else %}
  lab.label AS value
{% endif %}
FROM {{ slots | qname }} AS s
JOIN {{ labels | qname }} AS lab ON lab.attr = s.attr AND lab.node = s.node
WHERE s.attr = {{ attr | lit }}
ORDER BY s.bucket, s.slot
