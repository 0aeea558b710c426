{# The published group-bucket mapping: per sensitive attribute, group and bucket, the rows of
   the group whose cell lies in the bucket. #}
{% from "personalized/_macros.sql" import attribute_name %}
CREATE TABLE {{ target | qname }} AS
SELECT {{ attribute_name('c.attr', names) }} AS attribute, m.group_id, c.bucket, COUNT(*) AS frequency
FROM {{ cells | qname }} AS c
JOIN {{ members | qname }} AS m ON m.rid = c.rid
GROUP BY c.attr, m.group_id, c.bucket
