{# The version's rows, exactly: what analysts read (no filter left for a query plan to count). #}
CREATE TABLE {{ target | qname }} AS
SELECT {% for c in columns %}h.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
FROM {{ history | qname }} AS h
WHERE h.__anonsql_state = 'published'
