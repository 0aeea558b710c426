{# The anonymized relation: identifiers dropped, quasi-identifiers generalized, the other
   declared columns unchanged, suppressed rows left out. #}
CREATE VIEW {{ target | qname }} AS
SELECT
{% for c in columns %}
{% if c.qid %}
  m.{{ (c.name ~ suffix) | ident }} AS {{ c.name | ident }}{{ "," if not loop.last }}
{% else %}
  s.{{ c.name | ident }} AS {{ c.name | ident }}{{ "," if not loop.last }}
{% endif %}
{% endfor %}
FROM {{ source | qname }} AS s
JOIN {{ recoding | qname }} AS m
  ON {% for d in dims %}{% if d.is_numeric %}m.{{ d.column | ident }} = s.{{ d.column | ident }}{% else %}m.{{ d.column | ident }} = CAST(s.{{ d.column | ident }} AS VARCHAR){% endif %}{{ " AND " if not loop.last }}{% endfor %}

WHERE NOT m.{{ '__anonsql_suppressed' | ident }}
