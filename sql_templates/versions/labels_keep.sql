{# A new history codes only the columns ``kept``: the others (too many labels for a view's
   definition to list) stay text. #}
DELETE FROM {{ labels | qname }}
{% if kept %}
WHERE __anonsql_column NOT IN ({% for c in kept %}{{ c | lit }}{{ ", " if not loop.last }}{% endfor %})
{% endif %}
