SELECT {% for d in dims %}COUNT(DISTINCT {{ d.code | ident }}){{ ", " if not loop.last }}{% endfor %}
FROM {{ rows | qname }}
