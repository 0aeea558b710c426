{# The distinct encoded records of a relation with their multiplicities: per quasi-identifier
   its leaf rank (categorical, joined by text) or its value (numeric, as DOUBLE); per kept FD
   attribute a dense rank of its values (NULL last). Rows whose categorical value is not a leaf
   drop out of the join; the caller compares the total with the row count. #}
SELECT {% for q in qis %}{{ q.code | ident }}, {% endfor %}{% for code, name in kept %}{{ code | ident }}, {% endfor %}COUNT(*) AS n
FROM (
  SELECT
{% for q in qis %}
{% if q.is_numeric %}
    CAST(src.{{ q.column | ident }} AS DOUBLE) AS {{ q.code | ident }},
{% else %}
    {{ ('l' ~ q.code) | ident }}.leaf_rank AS {{ q.code | ident }},
{% endif %}
{% endfor %}
{% for code, name in kept %}
    CAST(DENSE_RANK() OVER (ORDER BY src.{{ name | ident }} ASC NULLS LAST) - 1 AS BIGINT) AS {{ code | ident }},
{% endfor %}
    1 AS one
  FROM {{ relation | qname }} AS src
{% for q in qis if not q.is_numeric %}
  JOIN {{ q.leaves | qname }} AS {{ ('l' ~ q.code) | ident }}
    ON {{ ('l' ~ q.code) | ident }}.value = CAST(src.{{ q.column | ident }} AS VARCHAR)
{% endfor %}
{% for q in qis if q.is_numeric %}
  {{ "WHERE" if loop.first else "AND" }} src.{{ q.column | ident }} IS NOT NULL
{% endfor %}
) AS coded
GROUP BY {% for q in qis %}{{ q.code | ident }}{{ ", " if not loop.last or kept }}{% endfor %}{% for code, name in kept %}{{ code | ident }}{{ ", " if not loop.last }}{% endfor %}

ORDER BY {% for q in qis %}{{ q.code | ident }}{{ ", " if not loop.last or kept }}{% endfor %}{% for code, name in kept %}{{ code | ident }}{{ ", " if not loop.last }}{% endfor %}
