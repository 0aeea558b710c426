{#
  A release of a clustering as a table (tests, benchmarks): every record of a published
  individual with its class's generalized quasi-identifiers and its sensitive value. The person
  id is replaced by a pseudonymous number, the rank of a seeded hash of the id (so it reveals
  neither the source's ids nor their order). Suppressed individuals are left out.
#}
CREATE TABLE {{ target | qname }} AS
SELECT
  DENSE_RANK() OVER (ORDER BY MD5({{ salt | lit }} || CAST(s.{{ person | ident }} AS VARCHAR))) AS {{ person | ident }}
{% for q in qids %}
  , c.{{ q | ident }}
{% endfor %}
  , s.{{ sensitive | ident }}
FROM {{ source | qname }} AS s
JOIN {{ assignment | qname }} AS a ON a.person = s.{{ person | ident }}
JOIN {{ classes | qname }} AS c ON c.cluster = a.cluster
