{# The person-level 1:M release: one row per person with the pseudonym, the generalized
   quasi-identifiers and the generalized fingerprint as a list (depth-first order). #}
CREATE VIEW {{ target | qname }} AS
SELECT
  m.person AS {{ person | ident }}
{% for d in dims %}
  , m.{{ ('g' ~ d.index) | ident }} AS {{ d.column | ident }}
{% endfor %}
{% if fingerprint %}
  , fp.items AS {{ fingerprint | ident }}
{% endif %}
FROM {{ person_map | qname }} AS m
{% if present %}
{# only persons the (guarded) row-level release shows now #}
JOIN (SELECT DISTINCT {{ person | ident }} AS person FROM {{ present | qname }}) AS p
  ON p.person = m.person
{% endif %}
{% if fingerprint %}
JOIN (
  SELECT safb, ARRAY_AGG(label ORDER BY first_leaf) AS items
  FROM {{ fingerprints | qname }}
  GROUP BY safb
) AS fp ON fp.safb = m.safb
{% endif %}
