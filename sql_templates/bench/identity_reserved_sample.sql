{# The records of the sampled individuals (``persons``: one column ``person``). #}
CREATE TABLE {{ target | qname }} AS
SELECT r.*
FROM {{ rows | qname }} AS r
JOIN {{ persons | qname }} AS p ON p.person = r.person
