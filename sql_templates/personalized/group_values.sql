{# The published multisets in long form: group_id, attribute (QID name), value (text), frequency. #}
{% from "personalized/_macros.sql" import attribute_name %}
CREATE TABLE {{ target | qname }} AS
SELECT m.group_id, {{ attribute_name('v.attr', qids) }} AS attribute, v.value, COUNT(*) AS frequency
FROM {{ row_values | qname }} AS v
JOIN {{ members | qname }} AS m ON m.rid = v.rid
GROUP BY m.group_id, v.attr, v.value
