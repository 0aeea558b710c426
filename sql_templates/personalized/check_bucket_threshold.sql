{# Violations of the sensitivity threshold (paper §3, theta): a bucket holding one label other
   than a root in more than theta cells. #}
{% from "personalized/_macros.sql" import attribute_name %}
SELECT {{ attribute_name('c.attr', names) }} AS attribute, c.bucket, COUNT(*) AS copies
FROM {{ cells | qname }} AS c
JOIN {{ labels | qname }} AS lab ON lab.attr = c.attr AND lab.node = c.node
WHERE lab.parent IS NOT NULL
GROUP BY c.attr, c.bucket, c.node
HAVING COUNT(*) > {{ threshold | lit }}
