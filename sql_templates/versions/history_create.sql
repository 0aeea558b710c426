{# The private history: one row per source row a version published, with its class, the
   version it was published in (``since``) and the version it left in (``until``, NULL while
   published). Created empty; rows come in by history_insert. #}
CREATE TABLE {{ target | qname }} AS
SELECT
  p.{{ key_hash | ident }}, p.{{ key_ord | ident }}, p.__anonsql_class_id,
  CAST('published' AS VARCHAR) AS __anonsql_state,
  CAST(0 AS INTEGER) AS __anonsql_since,
  CAST(NULL AS INTEGER) AS __anonsql_until,
{% for c in columns %}
  p.{{ c | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ placed | qname }} AS p
WHERE 1 = 0
