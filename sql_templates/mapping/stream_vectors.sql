{# The ordered vectors' row counts and codes, read in batches by the 1D dynamic program. #}
SELECT o.n{% for d in dims %}, o.{{ d.code | ident }}{% endfor %}

FROM {{ ordered | qname }} AS o
ORDER BY o.pos
