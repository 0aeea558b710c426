{# The distinct encoded records of the working table with their multiplicities, for the
   dependency-preserving clustering algorithms: per quasi-identifier its code (numeric value or
   leaf rank), per kept FD attribute its sensitive code (a dense rank). Ordered, so every engine
   returns the same records in the same order. #}
SELECT {% for q in qis %}{{ q | ident }} AS {{ ('c' ~ loop.index0) | ident }}, {% endfor %}{% for code, column in kept %}CAST({{ column | ident }} AS BIGINT) AS {{ code | ident }}, {% endfor %}COUNT(*) AS n
FROM {{ rows | qname }}
GROUP BY {% for c in qis + kept_columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}

ORDER BY {% for c in qis + kept_columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
