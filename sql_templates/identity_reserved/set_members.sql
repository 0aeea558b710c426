{# The value codes of every numbered set: (set_id, code). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT s.set_id, v.code
FROM {{ sets | qname }} AS s
JOIN {{ values | qname }} AS v ON v.person = s.person
