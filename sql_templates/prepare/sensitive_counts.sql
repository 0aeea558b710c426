{# Rows per code of one sensitive column in the working rows (``weight``: the rows are
   weighted, each standing for that many source rows). #}
SELECT {{ code | ident }} AS code, {% if weight %}SUM({{ weight | ident }}){% else %}COUNT(*){% endif %} AS n
FROM {{ rows | qname }}
GROUP BY {{ code | ident }}
ORDER BY code
