{# The row-level 1:M release: every source row with its person's pseudonym (under the person
   column's name), its person's generalized quasi-identifiers, its sensitive item generalized to
   the node of the person's fingerprint covering it, and the other declared columns. #}
CREATE VIEW {{ target | qname }} AS
SELECT
{% for c in columns %}
{% if c.role == 'person' %}
  m.person AS {{ c.name | ident }}{{ "," if not loop.last }}
{% elif c.role == 'qid' %}
  m.{{ ('g' ~ c.index) | ident }} AS {{ c.name | ident }}{{ "," if not loop.last }}
{% elif c.role == 'fingerprint' %}
  f.label AS {{ c.name | ident }}{{ "," if not loop.last }}
{% else %}
  s.{{ c.name | ident }} AS {{ c.name | ident }}{{ "," if not loop.last }}
{% endif %}
{% endfor %}
FROM {{ source | qname }} AS s
JOIN {{ person_map | qname }} AS m ON m.person_id = s.{{ person | ident }}
{% if fingerprint %}
JOIN {{ item_map | qname }} AS f
  ON f.safb = m.safb AND f.item = CAST(s.{{ fingerprint | ident }} AS VARCHAR)
{% endif %}
