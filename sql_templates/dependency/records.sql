{# The distinct encoded records of a relation with their multiplicities (the encoding is
   dependency/_encoded's). Rows whose categorical value is not a leaf drop out of the join; the
   caller compares the total with the row count. #}
{% from "dependency/_encoded.sql" import encoded_rows with context %}
SELECT {% for q in qis %}{{ q.code | ident }}, {% endfor %}{% for code, name in kept %}{{ code | ident }}, {% endfor %}COUNT(*) AS n
FROM (
{{ encoded_rows(relation) }}
{% for q in qis if q.is_numeric %}
  {{ "WHERE" if loop.first else "AND" }} src.{{ q.column | ident }} IS NOT NULL
{% endfor %}
) AS coded
GROUP BY {% for q in qis %}{{ q.code | ident }}{{ ", " if not loop.last or kept }}{% endfor %}{% for code, name in kept %}{{ code | ident }}{{ ", " if not loop.last }}{% endfor %}

ORDER BY {% for q in qis %}{{ q.code | ident }}{{ ", " if not loop.last or kept }}{% endfor %}{% for code, name in kept %}{{ code | ident }}{{ ", " if not loop.last }}{% endfor %}
