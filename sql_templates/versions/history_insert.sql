{# The batch's placed rows join the history, published since ``version``. #}
INSERT INTO {{ history | qname }}
SELECT
  p.{{ key_hash | ident }}, p.{{ key_ord | ident }}, p.__anonsql_class_id,
  'published', {{ version | lit }}, CAST(NULL AS INTEGER),
{% for c in columns %}
  p.{{ c | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ placed | qname }} AS p
WHERE NOT p.__anonsql_suppressed
