{# The batch's placed rows join the version's rows. #}
INSERT INTO {{ rows | qname }}
SELECT p.{{ key_hash | ident }}, p.{{ key_ord | ident }},
{% for c in columns %}
  p.{{ c | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ placed | qname }} AS p
WHERE NOT p.__anonsql_suppressed
