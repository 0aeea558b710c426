{# The batch's placed rows join the version's rows, published since ``version``. #}
INSERT INTO {{ rows | qname }} (
  {{ key_hash | ident }}, {{ key_ord | ident }}, __anonsql_class_id, __anonsql_since,
  {% for c in columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
)
SELECT
  p.{{ key_hash | ident }}, p.{{ key_ord | ident }}, p.__anonsql_class_id,
  CAST({{ version | lit }} AS INTEGER),
{% for c in columns %}
  p.{{ c | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ placed | qname }} AS p
WHERE NOT p.__anonsql_suppressed
