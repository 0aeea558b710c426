{# The source rows the working rows stand for: their count, or (``weight``) the sum of their
   weights. #}
SELECT {% if weight %}COALESCE(SUM({{ weight | ident }}), 0){% else %}COUNT(*){% endif %} AS n
FROM {{ rows | qname }} AS r
