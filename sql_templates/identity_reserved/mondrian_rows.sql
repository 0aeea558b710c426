{# The working table of the person-level Mondrian for models reading every record's sensitive
   value: one row per person (partition 0), coded quasi-identifiers, the person's number, record
   count and value-set number. #}
CREATE {{ working_table }}TABLE {{ rows | qname }} AS
SELECT
  CAST(0 AS BIGINT) AS pid
{% for d in dims %}
  , p.{{ d.code | ident }}
{% endfor %}
  , p.person
  , CAST(p.n AS BIGINT) AS records
  , s.set_id
FROM {{ persons | qname }} AS p
JOIN {{ sets | qname }} AS s ON s.person = p.person
