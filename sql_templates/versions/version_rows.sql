{# The version's rows, exactly, with their row key: what analysts read (through a view that
   projects the published columns; no filter left for a query plan to count). Built whole for a
   new history; later versions change it in place (version_rows_leave, version_rows_insert). #}
CREATE TABLE {{ target | qname }} AS
SELECT h.{{ key_hash | ident }}, h.{{ key_ord | ident }},
{% for c in columns %}
  h.{{ c | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ history | qname }} AS h
WHERE h.__anonsql_state = 'published'
