{# The working table of the quasi-identifier search, one row per person: partition id, coded
   quasi-identifiers, the person's SA-fingerprint bucket (as sensitive code s0), the person. #}
CREATE {{ working_table }}TABLE {{ rows | qname }} AS
SELECT
  CAST(0 AS BIGINT) AS pid
{% for d in dims %}
  , p.{{ d.code | ident }}
{% endfor %}
{% if person_buckets %}
  , b.safb AS {{ 's0' | ident }}
{% endif %}
  , p.person
FROM {{ persons | qname }} AS p
{% if person_buckets %}
JOIN {{ person_buckets | qname }} AS b ON b.person = p.person
{% endif %}
