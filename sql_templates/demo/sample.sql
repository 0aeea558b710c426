SELECT {% for c in columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
FROM {{ relation | qname }}
LIMIT {{ limit | lit }}
